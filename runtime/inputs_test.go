package runtime_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
)

// TestCheckInput: a raw value is checked against its input's type, and
// NaN and the infinities are no numbers (NaN panicked in cty).
func TestCheckInput(t *testing.T) {
	typ := func(name string) *ast.TypeExpr { return &ast.TypeExpr{Name: name} }
	list := func(elem string) *ast.TypeExpr { return &ast.TypeExpr{Name: "list", Elem: typ(elem)} }
	tests := []struct {
		typ  *ast.TypeExpr
		raw  string
		want string // "" for no error
	}{
		{typ("number"), " 42.5 ", ""},
		{typ("number"), "-1e3", ""},
		{typ("number"), "abc", `"abc" is not a number`},
		{typ("number"), "", `"" is not a number`},
		{typ("number"), "NaN", `"NaN" is not a finite number`},
		{typ("number"), "nan", `"nan" is not a finite number`},
		{typ("number"), "Inf", `"Inf" is not a finite number`},
		{typ("number"), "-Infinity", `"-Infinity" is not a finite number`},
		{typ("number"), "1e999", `"1e999" is `},
		{typ("bool"), "true", ""},
		{typ("bool"), "0", ""},
		{typ("bool"), "maybe", `"maybe" is not true or false`},
		{list("number"), "1, 2, 3", ""},
		{list("number"), "1, NaN", `item 2: "NaN" is not a finite number`},
		{list("text"), `["a", "b"]`, ""},
		{list("number"), `[1, 2.5, -3e2]`, ""},
		{list("number"), `["1", 2]`, ""},
		{list("number"), `[1, "x"]`, `item 2: "x" is not a number`},
		{list("bool"), `[true, false]`, ""},
		{list("text"), `[1, true, "a, b"]`, ""},
		{list("number"), `[1, null]`, `is not a number`},
		{typ("text"), "NaN", ""},
		{typ("secret"), "anything", ""},
	}
	for _, tt := range tests {
		err := runtime.CheckInput(&ast.InputDecl{Name: ast.Ident{Name: "x"}, Type: tt.typ}, tt.raw)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %q: %v", tt.typ, tt.raw, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s %q: %v, want %q", tt.typ, tt.raw, err, tt.want)
		}
	}
}
