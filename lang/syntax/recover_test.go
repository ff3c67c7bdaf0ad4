package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/ast"
)

// stepsWithErrors is steps(n) with every every-th step broken, each in
// one of the ways a person breaks a line.
func stepsWithErrors(n, every int) []byte {
	lines := strings.SplitAfter(string(steps(n)), "\n")
	broken := []string{
		"  click(button(name: \"Search\"))\n",
		"  op%d = type(textbox(name: \"q\"), \"x\" \"y\")\n",
		"  op%d = wait(2s)\n",
		"  if x then {\n  }\n",
		"  op%d == click(x)\n",
	}
	var b bytes.Buffer
	k := 0
	for i, l := range lines {
		if i > 4 && i%every == 0 && i < len(lines)-2 {
			bad := broken[k%len(broken)]
			k++
			if strings.Contains(bad, "%d") {
				bad = fmt.Sprintf(bad, i)
			}
			b.WriteString(bad)
			continue
		}
		b.WriteString(l)
	}
	return b.Bytes()
}

// TestRecoveryReportsEveryError: each broken line gives one error, the
// other steps stay in the tree, and a use of a broken step is not
// reported again.
func TestRecoveryReportsEveryError(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		errors []string // the messages, in order
		stmts  int      // statements of the first task's body in the tree
		broken []string
	}{
		{"three errors", "task t {\n  op1 = f(x)\n  click(y)\n  op3 = g(\n  op4 = h(op3)\n  op5 = wait(2s)\n  op6 = k()\n}\n",
			[]string{`unexpected "(", expected "="`, "this ( is not closed", `unexpected "s", expected ")"`}, 3, []string{"op3", "op5"}},
		{"nested", "task t {\n  if a {\n    op1 = f(\n    op2 = g()\n  }\n  op3 = h()\n}\n",
			[]string{"this ( is not closed"}, 2, []string{"op1"}},
		{"header", "task t {\n  if a then {\n    op1 = f()\n  }\n  op2 = g(op1)\n}\n",
			[]string{"there is no then in cogflow"}, 1, []string{"op1"}},
		{"body of a dropped header", "task t {\n  if x then {\n    op1 = f(x y)\n    op2 = g()\n  }\n  try {\n    op3 = h(\n  }\n  op4 = k()\n}\n",
			[]string{"there is no then", `unexpected "y", expected ")"`, "this try has no fallback", "this ( is not closed"}, 1, []string{"op1", "op2", "op3"}},
		{"top level", "op1 = f()\ntask t {\n  op2 = g()\n}\nskill s( {\n}\ntask u {}\n",
			[]string{"a step goes inside a task or a skill", "this ( is never closed"}, 1, []string{"op1", "s"}},
		{"unclosed brace", "task t {\n  repeat 3 {\n    op1 = f()\n  op2 = g()\n}\n",
			[]string{"this { is never closed"}, 1, nil},
		{"stray closer", "task t {\n  op1 = f())\n  op2 = g()\n}\n",
			[]string{"unexpected ): no ( is open here"}, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := ParsePartial("f.cog", []byte(tt.src))
			if len(p.Diags) != len(tt.errors) {
				t.Fatalf("%d diagnostics, want %d: %v", len(p.Diags), len(tt.errors), p.Diags)
			}
			for i, want := range tt.errors {
				if !strings.Contains(p.Diags[i].Message, want) {
					t.Errorf("diagnostic %d: %q, want %q", i, p.Diags[i].Message, want)
				}
			}
			if len(p.File.Decls) == 0 {
				t.Fatal("no declaration kept")
			}
			task, ok := p.File.Decls[0].(*ast.Task)
			if !ok {
				t.Fatalf("first declaration is %T", p.File.Decls[0])
			}
			if got := len(task.Body.Stmts); got != tt.stmts {
				t.Errorf("%d statements kept, want %d:\n%s", got, tt.stmts, ast.Dump(p.File))
			}
			for _, n := range tt.broken {
				if !p.Broken[n] {
					t.Errorf("%s not marked broken: %v", n, p.Broken)
				}
			}
			if f, ds := Parse("f.cog", []byte(tt.src)); f != nil || len(ds) != len(p.Diags) {
				t.Errorf("Parse: tree %v, %d diagnostics; want none and %d", f != nil, len(ds), len(p.Diags))
			}
		})
	}
}

// TestRecoveryIsBounded: a file of errors gives MaxErrors of them and a
// count of the rest, fast, and every position lies inside the file.
func TestRecoveryIsBounded(t *testing.T) {
	for name, src := range map[string][]byte{
		"bad steps":            stepsWithErrors(3000, 2),
		"garbage lines":        bytes.Repeat([]byte("= ) 1 2 \"x\n"), 5000),
		"top level":            bytes.Repeat([]byte("op1 = f()\n"), 5000),
		"braces":               bytes.Repeat([]byte("task t { op1 = f( }\n"), 2000),
		"deep after a stray )": append([]byte("task t { op1 = f()) op2 = "), bytes.Repeat([]byte("("), 100000)...),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			p := ParsePartial("f.cog", src)
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
			if len(p.Diags) > MaxErrors+1 || len(p.Diags) == 0 {
				t.Errorf("%d diagnostics", len(p.Diags))
			}
			for _, d := range p.Diags {
				if d.Range.Start.Offset < 0 || d.Range.End.Offset > len(src) || d.Range.Start.Line < 1 {
					t.Errorf("diagnostic outside the file: %v", d)
				}
			}
		})
	}
}

// BenchmarkParse10kRecover and BenchmarkParse10kClean parse 10,000 steps
// with a broken one every 100 lines, and without: their ratio is the cost
// of recovery (and of its participle messages, for MaxErrors errors).
func BenchmarkParse10kRecover(b *testing.B) { benchPartial(b, stepsWithErrors(10000, 100)) }

func BenchmarkParse10kClean(b *testing.B) { benchPartial(b, steps(10000)) }

func benchPartial(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ParsePartial("big.cog", src)
	}
}
