package funcs

import (
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestWithPrefixSuffix(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want []string // handles, or "error: …"
	}{
		{"with_prefix", args(elems("result A", "result B", "result C"), s("result")), []string{"result A", "result B", "result C"}},
		{"with_prefix", args(elems("result A", "result B"), s("  result   B ")), []string{"result B"}},
		{"with_prefix", args(elems("result A", "result B"), s("Result")), nil}, // case is kept
		{"with_prefix", args(elems("result A"), s("A")), nil},                  // in the text, not at its start
		{"with_suffix", args(elems("result A", "result B"), s("B")), []string{"result B"}},
		{"with_suffix", args(elems("result A", "result B"), s("result")), nil},
		{"with_suffix", args(elems(), s("x")), nil},
		{"with_suffix", args(elems("result A"), s(" ")), []string{"error: with_suffix: the text to look for is empty"}},
		{"with_prefix", args(elems("stale B"), s("x")), []string{"error: with_prefix: item 0: stale B is no longer on the page"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Library(ui)[tc.name].Call(tc.args)
			if len(tc.want) == 1 && strings.HasPrefix(tc.want[0], "error: ") {
				if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(tc.want[0], "error: ")) {
					t.Fatalf("%s%v: error %v, want %q", tc.name, tc.args, err, tc.want[0])
				}
				return
			}
			if err != nil {
				t.Fatalf("%s%v: %v", tc.name, tc.args, err)
			}
			if h := handles(t, got); !slices.Equal(h, tc.want) {
				t.Errorf("%s%v = %q, want %q", tc.name, tc.args, h, tc.want)
			}
		})
	}
}
