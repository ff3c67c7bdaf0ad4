package runtime

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// foldEqual and normalized are normalize's allocation-free shortcuts for
// the hot path; they must agree with it on every string.
func FuzzFoldEqual(f *testing.F) {
	for _, s := range []string{"", " ", "Save", "save", "  Submit   ORDER ", "a\tb\nc", "Zoë MÜLLER", "İstanbul", "ǅ", "立即 登录", "x\u00a0y", "a  ", "ab", "Σ"} {
		f.Add(s, "save")
	}
	f.Fuzz(func(t *testing.T, have, other string) {
		n := normalize(have)
		if n != strings.ToLower(strings.Join(strings.Fields(have), " ")) {
			t.Fatalf("normalize(%q) = %q", have, n)
		}
		if normalized(have) && n != have {
			t.Fatalf("normalized(%q) but normalize gives %q", have, n)
		}
		if !foldEqual(have, n) {
			t.Fatalf("foldEqual(%q, %q) = false", have, n)
		}
		on := normalize(other)
		if foldEqual(have, on) != (n == on) {
			t.Fatalf("foldEqual(%q, %q) = %v, normalize says %v", have, on, !(n == on), n == on)
		}
	})
}

// score is the yes/no view of anchoring for code that counts matches (a
// wait for a number of elements): at least minScore exactly when the
// element satisfies every attribute.
func TestScoreCountsSatisfying(t *testing.T) {
	save := &driver.Element{Role: "button", Name: "Save", ID: "save", Visible: true}
	draft := &driver.Element{Role: "button", Name: "Save draft", ID: "save-draft", Visible: true}
	hidden := &driver.Element{Role: "button", Name: "Save", Visible: false}
	tests := []struct {
		l    *Locator
		el   *driver.Element
		want bool
	}{
		{&Locator{Role: "button", Attrs: map[string]string{"name": "Save"}, Index: -1}, save, true},
		{&Locator{Role: "button", Attrs: map[string]string{"name": "Save"}, Index: -1}, draft, false},
		{&Locator{Role: "button", Attrs: map[string]string{"name": "save"}, Index: -1}, hidden, true},
		{&Locator{Role: "button", Attrs: map[string]string{"id": "save-now", "name": "Save"}, Index: -1}, save, false},
		{&Locator{Role: "link", Attrs: map[string]string{"name": "Save"}, Index: -1}, save, false},
		{&Locator{Role: "element", Attrs: map[string]string{}, Index: -1}, save, false},
	}
	for _, tt := range tests {
		if got := score(tt.l, tt.el) >= minScore; got != tt.want {
			t.Errorf("score(%s, %s) >= minScore is %v, want %v", tt.l, describe(tt.el), got, tt.want)
		}
	}
}
