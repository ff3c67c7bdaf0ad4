package syntax_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/funcs"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// controlSeeds are well-formed and broken uses of the control constructs,
// shared by the fuzz targets of this package.
var controlSeeds = []string{
	"task t { if visible(x) { op1 = f() } else if exists(y) { op2 = g() } else { op3 = h() } }",
	"task t { repeat 3 { op1 = f() if a { break } continue } }",
	"task t { while !visible(x), max: 20, within: 60 { op1 = f() } until n > 2, max: 5 { op2 = g() } }",
	"task t { try { op1 = click(button(name: \"A\")) } fallback { op2 = click(button(name: \"B\")) } }",
	"task t { explore \"open the settings\", budget: 30 { op1 = click(button(name: \"Settings\")) } }",
	"task t { op1 = click(explore<\"the settings button\">()) op2 = type(explore<\"the search box\">(op1), \"x\") }",
	"task t {\n  try {\n    # c\n    op1 = f()\n  } fallback { # f\n    op2 = g()\n  }\n}\n",
	// Broken variants: each must be reported, the rest kept.
	"task t {\n  else { op1 = f() }\n  fallback { op2 = g() }\n  op3 = h()\n}\n",
	"task t {\n  repeat { op1 = f() }\n  while { op2 = g() }\n  until x max: 3 { op3 = h() }\n}\n",
	"task t {\n  if x then {\n    op1 = f()\n  } elif y {\n    op2 = g()\n  }\n  for i = 1 to 3 { op3 = h() }\n}\n",
	"task t {\n  if op1 = click(x) { break }\n  try { op2 = f() }\n  explore { op3 = g() }\n  explore<\"x\">\n}\n",
	"if x { op1 = f() }\nbreak\ntask t {\n  op2 = g(\n  op3 = h(op2)\n}\n}\n",
	"task t {\n  repeat 3 {\n    op1 = f()\n  op2 = g()\n}\n",
	"task t { try { op1 = f( } fallback { op2 = g()) } }",
	"task t {\n  explore \"x\" budget: 3 {\n    continue\n  }\n  op1 = click(explore<>())\n}\n",
	"skill s( {\n}\ntask t { op1 = s() }\n",
}

// FuzzRecover: whatever the input, ParsePartial does not panic and gives a
// tree; it reports at most MaxErrors errors and one more that counts the
// rest; every diagnostic and every dropped range lies inside the input;
// the checker runs on the partial tree without a panic; and when nothing
// is wrong, the tree is Parse's.
func FuzzRecover(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*.cog")
	for _, p := range examples {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range controlSeeds {
		f.Add([]byte(s))
	}
	env := &check.Env{Knowledge: kb.Default(), Functions: funcs.Library(nil)}
	f.Fuzz(func(t *testing.T, src []byte) {
		p := syntax.ParsePartial("f.cog", src)
		if p.File == nil {
			t.Fatal("no tree")
		}
		errors := 0
		for _, d := range p.Diags {
			if d.Severity.String() == "error" {
				errors++
			}
			inside(t, src, d.Range, d.String())
		}
		if errors > syntax.MaxErrors+1 {
			t.Fatalf("%d errors", errors)
		}
		for _, r := range p.Dropped {
			inside(t, src, r, "dropped range")
		}
		_, _ = check.CheckPartial(p.File, env, p.Broken, p.Mentioned)
		file, diags := syntax.Parse("f.cog", src)
		if diags.HasErrors() != p.Diags.HasErrors() || len(diags) != len(p.Diags) {
			t.Fatalf("Parse gives %d diagnostics, ParsePartial %d", len(diags), len(p.Diags))
		}
		if !diags.HasErrors() && ast.Dump(file) != ast.Dump(p.File) {
			t.Fatal("ParsePartial's tree differs from Parse's on a file without errors")
		}
	})
}

func inside(t *testing.T, src []byte, r ast.Range, what string) {
	t.Helper()
	if r.Start.Line < 1 || r.Start.Offset < 0 || r.End.Offset > len(src) || r.End.Offset < r.Start.Offset {
		t.Fatalf("%s: range %d..%d (line %d) outside the input of %d bytes", what, r.Start.Offset, r.End.Offset, r.Start.Line, len(src))
	}
}
