package syntax

import (
	"strings"
	"testing"
	"time"
)

// TestRecoveryLinear: a block holding many statements that a builder
// refuses (a keyword as a step's name) is recovered in time linear in
// their count. Each is dropped with its error, and the enclosing
// statement asks, of every error, whether a dropped range holds it: asked
// naively that was quadratic, minutes for a file under the size limit.
// The ratio of two sizes measured in the same run says which it is.
func TestRecoveryLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("times two parses")
	}
	const small, factor = 4000, 8
	parse := func(n int) time.Duration {
		src := []byte("task a {\n  if x {\n" + strings.Repeat("    input = 3\n", n) + "  }\n}\n")
		best := time.Duration(1 << 62)
		for range 2 {
			t0 := time.Now()
			p := ParsePartial("f.cog", src)
			best = min(best, time.Since(t0))
			if len(p.Diags) != MaxErrors+1 {
				t.Fatalf("n=%d: %d diagnostics, want %d", n, len(p.Diags), MaxErrors+1)
			}
		}
		return best
	}
	a, b := parse(small), parse(small*factor)
	if ratio := float64(b) / float64(a); ratio > 2.5*factor {
		t.Errorf("%d times the statements took %.1f times as long (%v, %v): recovery is not linear", factor, ratio, a, b)
	}
}
