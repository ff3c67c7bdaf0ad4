package synth

import (
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
)

// TestScreenAgreesWithLibrary: the screening evaluator computes what the
// library computes, and refuses what the library refuses.
func TestScreenAgreesWithLibrary(t *testing.T) {
	env := map[string]cty.Value{"op2": cty.StringVal("Order #4711 (Zoë) shipped")}
	for _, e := range []string{
		`regex("[0-9]+", op2)`, `regex("#([0-9]+)", op2)`, `regex("[a-z]+@", op2)`, `regex("(", op2)`,
		`regex("\\(([^)]+)\\)", op2)`, `regex_replace(op2, "[^0-9]", "")`, `regex_replace(op2, "^(\\pL)\\pL*", "$1.")`,
		`regex_replace(op2, "(\\pL+)", "${1}x")`, `regex_replace(op2, "[", "")`, `upper(regex("\\pL+$", op2))`,
	} {
		expr := parseExpr(t, e)
		want, werr := evalText(expr, env)
		got, gerr := screenText(expr, env)
		if got != want || (werr == nil) != (gerr == nil) {
			t.Errorf("%s: screen %q, %v; library %q, %v", e, got, gerr, want, werr)
		}
	}
}

// parseExpr reads one expression with the language's parser, through a
// tiny task.
func parseExpr(t *testing.T, src string) ast.Expr {
	t.Helper()
	text := "task t {\n  driver browser\n  input op2: text = \"\"\n  typed = type(textbox(id: \"out\"), " + src + ")\n}\n"
	f, diags := syntax.Parse("expr.cog", []byte(text))
	if f == nil || len(diags) > 0 {
		t.Fatalf("%s: %v", src, diags)
	}
	stmts := f.Decls[0].(*ast.Task).Body.Stmts
	return stmts[len(stmts)-1].(*ast.Step).Value.(*ast.Call).Args[1].Value
}
