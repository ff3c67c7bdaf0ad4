package synth

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// taskAround writes a tiny task in which the program is the text of a
// type step and every source it reads is a text input holding its
// demonstrated value.
func taskAround(p *Program, sources []Source) string {
	var b strings.Builder
	b.WriteString("task synthesized \"Type a computed text\" {\n  driver browser\n")
	for _, name := range p.Refs() {
		for _, s := range sources {
			if s.Name == name {
				fmt.Fprintf(&b, "  input %s: text = %q\n", s.Name, s.Value)
			}
		}
	}
	fmt.Fprintf(&b, "\n  typed = type(textbox(id: \"out\"), %s)\n}\n", printer.ExprString(p.Expr))
	return b.String()
}

func demoEnv(sources []Source) map[string]cty.Value {
	env := map[string]cty.Value{}
	for _, s := range sources {
		env[s.Name] = cty.StringVal(s.Value)
	}
	return env
}

// TestProgramsCheck: every program the cases produce, printed, parses and
// passes the language checker without a diagnostic, and prints back the
// same way.
func TestProgramsCheck(t *testing.T) {
	env := kb.CheckEnv(nil)
	for _, c := range synthCases {
		t.Run(c.name, func(t *testing.T) {
			cands := allCandidates(c.output, c.sources, Options{})
			if len(cands) == 0 {
				t.Fatal("no program")
			}
			if len(cands) > 3 {
				cands = cands[:3] // the best and the runners-up
			}
			for _, p := range cands {
				src := taskAround(p, c.sources)
				f, diags := syntax.Parse("synth.cog", []byte(src))
				if f == nil || len(diags) > 0 {
					t.Fatalf("%s does not parse: %v\n%s", p, diags, src)
				}
				if _, diags := check.Check(f, env); len(diags) > 0 {
					t.Errorf("%s does not check: %v\n%s", p, diags, src)
				}
				// The parsed expression is the program: it prints the same
				// and computes the same text.
				stmts := f.Decls[0].(*ast.Task).Body.Stmts
				parsed := stmts[len(stmts)-1].(*ast.Step).Value.(*ast.Call).Args[1].Value
				if got := printer.ExprString(parsed); got != p.String() {
					t.Errorf("parsed back as %s, want %s", got, p)
				}
				if got, err := evalText(parsed, demoEnv(c.sources)); err != nil || got != c.output {
					t.Errorf("parsed %s gives %q, %v; want %q", p, got, err, c.output)
				}
			}
		})
	}
}
