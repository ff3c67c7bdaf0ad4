//go:build unix

package syntax

import (
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRecoveryLinear: a block holding many statements that a builder
// refuses (a keyword as a step's name) is recovered in time linear in
// their count. Each is dropped with its error, and the enclosing
// statement asks, of every error, whether a dropped range holds it: asked
// naively that was quadratic, minutes for a file under the size limit.
// The ratio of two sizes measured in the same run says which it is. The
// time is the process's CPU time, not the wall clock: on a loaded machine
// the wall clock counts the time other processes had the CPU, and the
// ratio of two wall times said "quadratic" of a linear parse.
func TestRecoveryLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("times two parses")
	}
	const small, factor = 4000, 8
	parse := func(n int) time.Duration {
		src := []byte("task a {\n  if x {\n" + strings.Repeat("    input = 3\n", n) + "  }\n}\n")
		best := time.Duration(1 << 62)
		for range 3 {
			t0 := cpuTime(t)
			p := ParsePartial("f.cog", src)
			best = min(best, cpuTime(t)-t0)
			if len(p.Diags) != MaxErrors+1 {
				t.Fatalf("n=%d: %d diagnostics, want %d", n, len(p.Diags), MaxErrors+1)
			}
		}
		return best
	}
	a, b := parse(small), parse(small*factor)
	t.Logf("%d statements: %v CPU, %d: %v", small, a, small*factor, b)
	if ratio := float64(b) / float64(a); ratio > 2.5*factor {
		t.Errorf("%d times the statements took %.1f times as long (%v, %v): recovery is not linear", factor, ratio, a, b)
	}
}

// TestRecoveryNestedTries: tries without a fallback nested deep around a
// large body cost about what one does. Each try's error is explained by
// participle on its tokens, which once held the tries inside it (dropped
// already) and their body: the body was read again for every level.
func TestRecoveryNestedTries(t *testing.T) {
	if testing.Short() {
		t.Skip("times two parses")
	}
	const depth = 40
	parse := func(d int) time.Duration {
		src := []byte("task a {\n" + strings.Repeat("try {\n", d) +
			strings.Repeat("  op1 = click(button(name: \"Go\"))\n", 500) + strings.Repeat("}\n", d) + "}\n")
		best := time.Duration(1 << 62)
		for range 3 {
			t0 := cpuTime(t)
			p := ParsePartial("f.cog", src)
			best = min(best, cpuTime(t)-t0)
			if len(p.Diags) != d || !strings.Contains(p.Diags[0].Message, "this try has no fallback") {
				t.Fatalf("depth %d: %v, want %d errors that the try has no fallback", d, p.Diags, d)
			}
		}
		return best
	}
	one, deep := parse(1), parse(depth)
	t.Logf("one try: %v CPU, %d nested: %v", one, depth, deep)
	if ratio := float64(deep) / float64(one); ratio > 8 {
		t.Errorf("%d nested tries took %.1f times as long as one (%v, %v): the body is read once per level", depth, ratio, one, deep)
	}
}

// cpuTime is the CPU time the test process has used (user and system,
// every thread: the garbage collector's work counts). A collection is
// forced first so that one parse does not pay for the garbage of another.
func cpuTime(t *testing.T) time.Duration {
	t.Helper()
	runtime.GC()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
