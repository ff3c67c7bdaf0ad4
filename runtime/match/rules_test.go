package match

import (
	"strings"
	"testing"
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
