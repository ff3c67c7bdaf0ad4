package funcs

import (
	"errors"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// matcherUI is fakeUI with all(): the description handle "boxes" matches
// three elements, anything else none.
type matcherUI struct{ fakeUI }

func (matcherUI) All(desc any) ([]any, error) {
	if desc == "boxes" {
		return []any{"b1", "b2", "b3"}, nil
	}
	return nil, errors.New("all: no visible element matches " + desc.(string))
}

// TestAll: all() lists what the navigator matches, in order, and fails
// without a driver, with a driver that cannot enumerate, and on no match.
func TestAll(t *testing.T) {
	tests := []struct {
		name string
		nav  Navigator
		desc string
		want string // the handles, joined; or the error's text
	}{
		{"matches in order", matcherUI{}, "boxes", "b1 b2 b3"},
		{"no match", matcherUI{}, "links", "no visible element matches links"},
		{"no driver", nil, "boxes", "needs a running driver"},
		{"cannot enumerate", fakeUI{}, "boxes", "cannot list the elements"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var nav Navigator
			if tc.nav != nil {
				nav = tc.nav
			}
			got, err := Library(nav)["all"].Call([]cty.Value{elementVal(tc.desc)})
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			var hs []string
			for _, v := range got.AsValueSlice() {
				h, _ := handle(v, 0)
				hs = append(hs, h.(string))
			}
			if strings.Join(hs, " ") != tc.want {
				t.Errorf("all = %v, want %s", hs, tc.want)
			}
		})
	}
}
