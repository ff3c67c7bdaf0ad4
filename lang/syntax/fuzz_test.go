package syntax_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/funcs"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// FuzzParseCheckPrint feeds arbitrary text through the whole front end.
// Whatever the input: no panic, every diagnostic has a position inside the
// file, and for text that parses, printing is idempotent and preserves the
// tree. Corpus entries that found bugs live in testdata/fuzz.
func FuzzParseCheckPrint(f *testing.F) {
	examples, _ := filepath.Glob("../../examples/*.cog")
	for _, p := range examples {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"", "task", "task t {}", "task t { driver browser op1 = click(x) }",
		`task t { op1 = type(x, a.b<"d">(y)) }`, "skill s() {}", "#c\n",
		`task t { for x in [1,2][1:] { op1 = f(x) } }`,
		"task t { if visible(x) && !exists(y) { op1 = f() } else if n > 2 { repeat n { op2 = g() } } else { op3 = h() } }",
		"task t {\n  repeat 3 { # t\n    # c\n    if a { op1 = f() } # x\n    else { op2 = g() }\n  }\n}\n",
		"task t { while !visible(x), max: 20, within: 60 { op1 = f() if a { break } continue } until n > 2 { op2 = g() } }",
		"task t {\n  for x in y {\n    until exists(x), max: n { # u\n      break # b\n    }\n  }\n  continue\n}\n",
		"task t {\n  try { # t\n    op1 = f()\n  } fallback { op2 = g() } # f\n  explore \"the file\", budget: 30 { op3 = click(explore<\"the file\">(x)) }\n}\n",
	} {
		f.Add([]byte(s))
	}
	env := &check.Env{Knowledge: kb.Default(), Functions: funcs.Library(nil)}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, diags := syntax.Parse("f.cog", src)
		for _, d := range diags {
			if d.Range.Start.Offset < 0 || d.Range.Start.Offset > len(src) || d.Range.Start.Line < 1 {
				t.Fatalf("diagnostic outside the file: %s", d)
			}
		}
		if file == nil {
			if !diags.HasErrors() {
				t.Fatal("no tree and no error")
			}
			return
		}
		_, checked := check.Check(file, env)
		for _, d := range checked {
			if d.Range.Start.Line < 1 {
				t.Fatalf("check diagnostic without position: %s", d)
			}
		}
		once := printer.Format(file)
		again, diags2 := syntax.Parse("f.cog", once)
		if again == nil {
			t.Fatalf("printed text does not parse: %v\n%s", diags2.Err(), once)
		}
		if a, b := ast.Dump(file), ast.Dump(again); a != b {
			t.Fatalf("printing changed the tree\n%s\n---\n%s\n--- printed:\n%s", a, b, once)
		}
		if twice := printer.Format(again); string(twice) != string(once) {
			t.Fatalf("fmt not idempotent\n%s---\n%s", once, twice)
		}
	})
}
