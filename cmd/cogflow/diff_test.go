package main

import (
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var hunkHeaderRE = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$`)

// applyUnified applies a unified diff (as unifiedDiff writes it, one file)
// to a and returns the result. It is strict: context and removed lines must
// match a, hunk lengths must match their headers, hunks must be in order,
// not overlap nor touch, and carry at most contextLines of context at each
// end (fewer only at the start or end of the file).
func applyUnified(a, diff string) (string, error) {
	x := splitLines([]byte(a))
	lines := strings.SplitAfter(diff, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	} else {
		return "", fmt.Errorf("diff does not end with a newline")
	}
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "--- a/") || !strings.HasPrefix(lines[1], "+++ b/") {
		return "", fmt.Errorf("missing file header")
	}
	lines = lines[2:]
	var out []string
	ax := 0 // lines of a consumed
	for len(lines) > 0 {
		m := hunkHeaderRE.FindStringSubmatch(strings.TrimSuffix(lines[0], "\n"))
		if m == nil {
			return "", fmt.Errorf("expected a hunk header, got %q", lines[0])
		}
		lines = lines[1:]
		num := func(s string) int {
			if s == "" {
				return 1
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		aStart, aLen, bStart, bLen := num(m[1]), num(m[2]), num(m[3]), num(m[4])
		// An empty range names the line before it.
		from := aStart - 1
		if aLen == 0 {
			from = aStart
		}
		if from < ax || (ax > 0 && from == ax) {
			return "", fmt.Errorf("hunk %s starts at line %d, overlapping or touching the previous hunk (ends at %d)", m[0], from+1, ax)
		}
		if from > len(x) {
			return "", fmt.Errorf("hunk %s starts beyond the end of a", m[0])
		}
		out = append(out, x[ax:from]...)
		if bStartWant := len(out) + 1; aLen > 0 || bLen > 0 {
			if bLen == 0 {
				bStartWant--
			}
			if bStart != bStartWant {
				return "", fmt.Errorf("hunk %s: +start should be %d", m[0], bStartWant)
			}
		}
		ax = from
		var kinds []byte
		var gotA, gotB int
		for len(lines) > 0 && !strings.HasPrefix(lines[0], "@@") {
			l := lines[0]
			lines = lines[1:]
			text := l[1:]
			if len(lines) > 0 && lines[0] == "\\ No newline at end of file\n" {
				text = strings.TrimSuffix(text, "\n")
				lines = lines[1:]
			}
			switch l[0] {
			case ' ', '-':
				if ax >= len(x) || x[ax] != text {
					return "", fmt.Errorf("hunk %s: line %d of a is %q, diff says %q", m[0], ax+1, at(x, ax), text)
				}
				ax++
				gotA++
				if l[0] == ' ' {
					out = append(out, text)
					gotB++
				}
			case '+':
				out = append(out, text)
				gotB++
			default:
				return "", fmt.Errorf("bad diff line %q", l)
			}
			kinds = append(kinds, l[0])
		}
		if gotA != aLen || gotB != bLen {
			return "", fmt.Errorf("hunk %s holds %d,%d lines", m[0], gotA, gotB)
		}
		lead := strings.IndexFunc(string(kinds), func(r rune) bool { return r != ' ' })
		if lead < 0 {
			return "", fmt.Errorf("hunk %s has no change", m[0])
		}
		trail := len(kinds) - 1 - strings.LastIndexFunc(string(kinds), func(r rune) bool { return r != ' ' })
		if lead > contextLines || lead < contextLines && ax-gotA != 0 {
			return "", fmt.Errorf("hunk %s has %d lines of leading context", m[0], lead)
		}
		if trail > contextLines || trail < contextLines && ax != len(x) {
			return "", fmt.Errorf("hunk %s has %d lines of trailing context", m[0], trail)
		}
		// Inside a hunk, a run of more than 2*contextLines unchanged
		// lines should have split it.
		if strings.Contains(string(kinds[lead:len(kinds)-trail]), strings.Repeat(" ", 2*contextLines+1)) {
			return "", fmt.Errorf("hunk %s should have been split", m[0])
		}
	}
	out = append(out, x[ax:]...)
	return strings.Join(out, ""), nil
}

func at(x []string, i int) string {
	if i < len(x) {
		return x[i]
	}
	return "<end of file>"
}

// numbered returns lines "1\n" … "n\n".
func numbered(n int) []string {
	var l []string
	for i := 1; i <= n; i++ {
		l = append(l, strconv.Itoa(i)+"\n")
	}
	return l
}

func join(l []string) string { return strings.Join(l, "") }

// edit returns a copy of l with the lines from i to j replaced by repl.
func edit(l []string, i, j int, repl ...string) []string {
	out := append([]string(nil), l[:i]...)
	out = append(out, repl...)
	return append(out, l[j:]...)
}

func TestUnifiedDiff(t *testing.T) {
	ten := numbered(10)
	hundred := numbered(100)
	tests := []struct {
		name string
		a, b string
		want string // the diff without the two file header lines
	}{
		{name: "identical", a: join(ten), b: join(ten), want: ""},
		{name: "both empty", a: "", b: "", want: ""},
		{name: "identical without final newline", a: "a\nb", b: "a\nb", want: ""},
		{name: "insert at start", a: join(ten), b: "new\n" + join(ten),
			want: "@@ -1,3 +1,4 @@\n+new\n 1\n 2\n 3\n"},
		{name: "insert at end", a: join(ten), b: join(ten) + "new\n",
			want: "@@ -8,3 +8,4 @@\n 8\n 9\n 10\n+new\n"},
		{name: "delete at start", a: join(ten), b: join(ten[1:]),
			want: "@@ -1,4 +1,3 @@\n-1\n 2\n 3\n 4\n"},
		{name: "delete at end", a: join(ten), b: join(ten[:9]),
			want: "@@ -7,4 +7,3 @@\n 7\n 8\n 9\n-10\n"},
		{name: "delete in the middle", a: join(ten), b: join(edit(ten, 4, 5)),
			want: "@@ -2,7 +2,6 @@\n 2\n 3\n 4\n-5\n 6\n 7\n 8\n"},
		{name: "insert in the middle", a: join(ten), b: join(edit(ten, 5, 5, "x\n", "y\n")),
			want: "@@ -3,6 +3,8 @@\n 3\n 4\n 5\n+x\n+y\n 6\n 7\n 8\n"},
		{name: "change in the middle of a long file", a: join(hundred), b: join(edit(hundred, 49, 50, "fifty\n")),
			want: "@@ -47,7 +47,7 @@\n 47\n 48\n 49\n-50\n+fifty\n 51\n 52\n 53\n"},
		{name: "two changes far apart", a: join(hundred), b: join(edit(edit(hundred, 9, 10, "ten\n"), 89, 90, "ninety\n")),
			want: "@@ -7,7 +7,7 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n" +
				"@@ -87,7 +87,7 @@\n 87\n 88\n 89\n-90\n+ninety\n 91\n 92\n 93\n"},
		// Changes with 6 (= 2*contextLines) unchanged lines between them
		// share a hunk, with 7 they do not (as in GNU diff).
		{name: "changes 6 lines apart share a hunk", a: join(hundred), b: join(edit(edit(hundred, 9, 10, "ten\n"), 16, 17, "seventeen\n")),
			want: "@@ -7,14 +7,14 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n 14\n 15\n 16\n-17\n+seventeen\n 18\n 19\n 20\n"},
		{name: "changes 7 lines apart do not", a: join(hundred), b: join(edit(edit(hundred, 9, 10, "ten\n"), 17, 18, "eighteen\n")),
			want: "@@ -7,7 +7,7 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n" +
				"@@ -15,7 +15,7 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n 21\n"},
		{name: "one-line files", a: "x\n", b: "y\n", want: "@@ -1 +1 @@\n-x\n+y\n"},
		{name: "from empty", a: "", b: "a\nb\n", want: "@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{name: "to empty", a: "a\nb\n", b: "", want: "@@ -1,2 +0,0 @@\n-a\n-b\n"},
		{name: "no newline at end of either", a: "a\nb", b: "a\nc",
			want: "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{name: "newline removed at end", a: "a\nb\n", b: "a\nb",
			want: "@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"},
		{name: "newline added at end", a: "a\nb", b: "a\nb\n",
			want: "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{name: "unchanged last line without newline", a: "a\nb\nc", b: "x\nb\nc",
			want: "@@ -1,3 +1,3 @@\n-a\n+x\n b\n c\n\\ No newline at end of file\n"},
		{name: "CRLF lines are compared whole", a: "a\r\nb\r\n", b: "a\nb\r\n",
			want: "@@ -1,2 +1,2 @@\n-a\r\n+a\n b\r\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := string(unifiedDiff("f.cog", []byte(tc.a), []byte(tc.b)))
			const header = "--- a/f.cog\n+++ b/f.cog\n"
			if !strings.HasPrefix(got, header) {
				t.Fatalf("no file header:\n%s", got)
			}
			if body := strings.TrimPrefix(got, header); body != tc.want {
				t.Errorf("diff:\n%s\nwant:\n%s", body, tc.want)
			}
			if tc.want == "" {
				for _, op := range diffLines(splitLines([]byte(tc.a)), splitLines([]byte(tc.b))) {
					if op.kind != ' ' {
						t.Errorf("identical inputs give edit %c %q", op.kind, op.text)
					}
				}
			}
			if b, err := applyUnified(tc.a, got); err != nil {
				t.Errorf("applying the diff: %v", err)
			} else if b != tc.b {
				t.Errorf("applying the diff gives %q, want %q", b, tc.b)
			}
		})
	}
}

// lcs is the length of the longest common subsequence of a and b, by
// dynamic programming: a shortest edit script keeps exactly that many lines.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// checkEditScript checks that ops turns a into b, with consistent line
// numbers, and is a shortest edit script.
func checkEditScript(t *testing.T, a, b []string, ops []diffOp) {
	t.Helper()
	var ax, bx, kept int
	for i, op := range ops {
		if op.aLine != ax || op.bLine != bx {
			t.Fatalf("op %d %c %q stands at a:%d b:%d, want a:%d b:%d", i, op.kind, op.text, op.aLine, op.bLine, ax, bx)
		}
		switch op.kind {
		case ' ':
			if ax >= len(a) || bx >= len(b) || a[ax] != op.text || b[bx] != op.text {
				t.Fatalf("op %d keeps %q, which is not a[%d] and b[%d]", i, op.text, ax, bx)
			}
			ax++
			bx++
			kept++
		case '-':
			if ax >= len(a) || a[ax] != op.text {
				t.Fatalf("op %d removes %q, which is not a[%d]", i, op.text, ax)
			}
			ax++
		case '+':
			if bx >= len(b) || b[bx] != op.text {
				t.Fatalf("op %d adds %q, which is not b[%d]", i, op.text, bx)
			}
			bx++
		default:
			t.Fatalf("op %d has kind %q", i, op.kind)
		}
	}
	if ax != len(a) || bx != len(b) {
		t.Fatalf("edit script covers a[:%d] and b[:%d] of %d and %d lines", ax, bx, len(a), len(b))
	}
	if want := lcs(a, b); kept != want {
		t.Fatalf("edit script keeps %d lines, a shortest one keeps %d", kept, want)
	}
}

// TestDiffLinesRandom checks on random line slices that the edit script
// turns a into b and is shortest, and that the unified diff applies.
func TestDiffLinesRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randomLines := func(n, alphabet int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = string(rune('a'+rng.Intn(alphabet))) + "\n"
		}
		return l
	}
	for i := 0; i < 500; i++ {
		var a, b []string
		switch i % 3 {
		case 0: // unrelated
			a, b = randomLines(rng.Intn(25), 1+rng.Intn(6)), randomLines(rng.Intn(25), 1+rng.Intn(6))
		case 1: // b is a with a few random edits, as fmt produces
			a = randomLines(rng.Intn(60), 2+rng.Intn(20))
			b = append([]string(nil), a...)
			for e := rng.Intn(5); e > 0; e-- {
				p := rng.Intn(len(b) + 1)
				q := min(p+rng.Intn(3), len(b))
				b = edit(b, p, q, randomLines(rng.Intn(3), 3)...)
			}
		case 2: // long runs of equal lines between the edits
			a = numbered(rng.Intn(80))
			b = append([]string(nil), a...)
			for e := rng.Intn(4); e > 0; e-- {
				p := rng.Intn(len(b) + 1)
				q := min(p+rng.Intn(2), len(b))
				b = edit(b, p, q, randomLines(rng.Intn(2), 2)...)
			}
		}
		// Sometimes drop the final newline.
		if len(a) > 0 && rng.Intn(4) == 0 {
			a[len(a)-1] = strings.TrimSuffix(a[len(a)-1], "\n")
		}
		if len(b) > 0 && rng.Intn(4) == 0 {
			b[len(b)-1] = strings.TrimSuffix(b[len(b)-1], "\n")
		}
		name := fmt.Sprintf("case%d", i)
		t.Run(name, func(t *testing.T) {
			checkEditScript(t, a, b, diffLines(a, b))
			d := string(unifiedDiff("f.cog", []byte(join(a)), []byte(join(b))))
			got, err := applyUnified(join(a), d)
			if err != nil {
				t.Fatalf("applying the diff of\n%q\nto\n%q: %v\n%s", a, b, err, d)
			}
			if got != join(b) {
				t.Fatalf("applying the diff gives %q, want %q\n%s", got, join(b), d)
			}
			if (join(a) == join(b)) != !strings.Contains(d, "@@") {
				t.Fatalf("equal inputs: %v, but the diff is:\n%s", join(a) == join(b), d)
			}
		})
	}
}

// TestDiffLinesLarge checks the fallback for changes too large to trace:
// the whole file removed and added, still a correct diff.
func TestDiffLinesLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large diff in -short mode")
	}
	var a, b []string
	for i := 0; i < maxTraceEdits/2+10; i++ {
		a = append(a, fmt.Sprintf("a%d\n", i))
		b = append(b, fmt.Sprintf("b%d\n", i))
	}
	a = append(a, "same\n")
	b = append(b, "same\n")
	ops := diffLines(a, b)
	if len(ops) != len(a)+len(b) {
		t.Fatalf("%d ops for a replace-all of %d and %d lines", len(ops), len(a), len(b))
	}
	d := string(unifiedDiff("f.cog", []byte(join(a)), []byte(join(b))))
	got, err := applyUnified(join(a), d)
	if err != nil {
		t.Fatalf("applying the replace-all diff: %v", err)
	}
	if got != join(b) {
		t.Fatalf("applying the replace-all diff does not give b")
	}
}
