package syntax

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
)

// agree parses src on both paths and fails the test when the fast path
// accepted something participle rejects, or built a different tree or
// diagnostics. It reports whether the fast path handled the input itself.
func agree(t *testing.T, src []byte) bool {
	t.Helper()
	slow, slowDiags := parse("f.cog", src, false)
	p := &parser{filename: "f.cog", src: src, text: string(src), lines: lineStarts(src)}
	if !p.scan() || p.quickParse() == nil {
		return false
	}
	if _, err := p.participleParse(); err != nil {
		t.Fatalf("fast path accepted what participle rejects: %v\n%s", err, src)
	}
	fast, fastDiags := parse("f.cog", src, true)
	if slow == nil && fast != nil {
		t.Fatalf("fast path accepted what participle rejects: %v\n%s", slowDiags.Err(), src)
	}
	if !reflect.DeepEqual(slow, fast) {
		t.Fatalf("trees differ\nparticiple: %s\nfast: %s\n%s", ast.Dump(slow), ast.Dump(fast), src)
	}
	if !reflect.DeepEqual(slowDiags, fastDiags) {
		t.Fatalf("diagnostics differ: %v vs %v", slowDiags, fastDiags)
	}
	return true
}

// TestFastPathHandlesShippedFiles: every example takes the fast path and
// gives exactly participle's tree, ranges included.
func TestFastPathHandlesShippedFiles(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*.cog")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !agree(t, src) {
			t.Errorf("%s: the fast path gave up on a valid file", f)
		}
	}
}

func TestFastPathAgreesOnEdgeCases(t *testing.T) {
	for _, src := range []string{
		"task t {}", "task t \"g\" { driver browser }", "skill s(a: text, b: list<text>,) {}",
		"task t { op1 = f(a, b,) }", "task t { op1 = f(x: 1, y: [1, 2,]) }",
		"task t { op1 = a - -b * !c || d && e == f != g <= h >= i < j }",
		"task t { op1 = xs[1:][:2][:][0].text }", `task t { op1 = m.s<"d">(x)(y) }`,
		"task t { confirm op1 = click(x) for x in y { in = f(task) } }",
		"task t { driver = click(x) }", "task t { op1 = f(x[1 2]) }", "task t { op1 = f(x[]) }",
		"task t { input x: list<list<text>> = [[\"a\"]] }", "task t { op1 = (((1))) }",
		"task t { anchor a = b(c) anchor = x }", "task t { op1 = f(", "task t { op1 = f(x) - }",
	} {
		agree(t, []byte(src))
	}
}

// TestFastPathTakesWhatParticipleBacksOutOf: where participle tries a
// branch and backs out after one token (a trailing comma, a keyword used as
// a step name), the generated parser looks at the second token instead of
// giving up, and agrees.
func TestFastPathTakesWhatParticipleBacksOutOf(t *testing.T) {
	for _, src := range []string{
		"skill s(a: text,) {}", "task t { op1 = f(a, b,) }", "task t { op1 = f([1, 2,]) }",
		"task t { driver = click(x) }", "task t { input = click(x) }", "task t { for = f(x) }",
		"task t { op1 = a < b }", "task t { op1 = f(x: 1) }",
	} {
		if !agree(t, []byte(src)) {
			t.Errorf("%s: the fast path gave up", src)
		}
	}
}

// FuzzFastPathAgrees: for any input the fast path accepts, participle
// accepts it as well and builds the same tree.
func FuzzFastPathAgrees(f *testing.F) {
	files, _ := filepath.Glob("../../examples/*.cog")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("task t { op1 = f(a, b: c)[1:].d<\"e\">(g) + -h }"))
	f.Add([]byte("task t { if visible(x) && !exists(y) { op1 = f() } else if n > 2 { repeat n { op2 = g() } } else { op3 = h() } }"))
	f.Add([]byte("skill s(n: number) {\n  repeat 3 {\n    # c\n    for x in y { if x == \"a\" { op1 = f(x) } }\n  }\n}\n"))
	f.Add([]byte("task t { while !visible(x), max: 20, within: 60 { op1 = f() if a { break } continue } until n > 2 { op2 = g() } }"))
	f.Add([]byte("task t {\n  for x in y {\n    until exists(x), max: n, { # u\n      break # b\n    }\n  }\n  continue\n}\n"))
	f.Add([]byte("task t {\n  try { # t\n    op1 = f()\n  } fallback { op2 = g() } # f\n  explore \"the file\", budget: 30 { op3 = click(explore<\"the file\">(x)) }\n}\n"))
	f.Add([]byte("task t { try { try { op1 = f() } fallback { } } fallback { explore \"g\" { } } }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		agree(t, src)
	})
}

// steps returns a task of n steps of the usual shapes, for the benchmarks
// that compare the fast path with participle on the same input.
func steps(n int) []byte {
	var b bytes.Buffer
	b.WriteString("task t {\n  driver browser\n  input k: text = \"x\"\n  op0 = open(\"http://127.0.0.1:8088/\")\n")
	for i := 1; i < n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "  op%d = click(match_element<\"the result about the keyword\">(op%d))\n", i, i-1)
		} else {
			fmt.Fprintf(&b, "  op%d = type(textbox(name: \"Search\", id: \"q\"), upper(k) + \"-%d\")  # typed\n", i, i)
		}
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// BenchmarkParse10kFast and BenchmarkParse10kParticiple parse the same
// 10,000-step file on each path; their ratio is the fast path's gain.
func BenchmarkParse10kFast(b *testing.B) { benchParse(b, true) }

func BenchmarkParse10kParticiple(b *testing.B) { benchParse(b, false) }

func benchParse(b *testing.B, fast bool) {
	src := steps(10000)
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if f, diags := parse("big.cog", src, fast); f == nil {
			b.Fatal(diags.Err())
		}
	}
}
