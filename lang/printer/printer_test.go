package printer_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// TestGoldenLayout formats each testdata/*.txtar's "in.cog" and compares
// with its "out.cog".
func TestGoldenLayout(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			in, out := section(ar, "in.cog"), section(ar, "out.cog")
			if in == nil || out == nil {
				t.Fatal("need in.cog and out.cog sections")
			}
			f, diags := syntax.Parse("in.cog", in.Data)
			if f == nil {
				t.Fatalf("parse: %v", diags.Err())
			}
			got := printer.Format(f)
			if *update {
				out.Data = got
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if string(got) != string(out.Data) {
				t.Errorf("layout differs\n--- got\n%s--- want\n%s", got, out.Data)
			}
		})
	}
}

func section(ar *txtar.Archive, name string) *txtar.File {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			return &ar.Files[i]
		}
	}
	return nil
}

// sources collects every .cog text the project ships: examples, and the
// .cog sections of all txtar golden files in lang/.
func sources(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	examples, _ := filepath.Glob("../../examples/*.cog")
	for _, p := range examples {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	if len(examples) < 6 {
		t.Fatalf("found %d examples, want at least 6", len(examples))
	}
	err := filepath.WalkDir("..", func(p string, d os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".txtar") {
			return err
		}
		ar, err := txtar.ParseFile(p)
		if err != nil {
			return err
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".cog") {
				out[p+":"+f.Name] = f.Data
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundTrip: for every shipped source that parses, printing is
// idempotent and parsing the printed text gives back the same tree,
// comments included.
func TestRoundTrip(t *testing.T) {
	parsed := 0
	for name, src := range sources(t) {
		f, _ := syntax.Parse(name, src)
		if f == nil {
			continue // golden files of syntax errors
		}
		parsed++
		once := printer.Format(f)
		g, diags := syntax.Parse(name, once)
		if g == nil {
			t.Errorf("%s: printed text does not parse: %v\n%s", name, diags.Err(), once)
			continue
		}
		if a, b := ast.Dump(f), ast.Dump(g); a != b {
			t.Errorf("%s: tree changed by printing\n--- before\n%s\n--- after\n%s", name, a, b)
		}
		if twice := printer.Format(g); string(twice) != string(once) {
			t.Errorf("%s: fmt is not idempotent\n--- once\n%s--- twice\n%s", name, once, twice)
		}
	}
	if parsed < 6 {
		t.Fatalf("only %d sources parsed", parsed)
	}
}

// TestExamplesAreFormatted: the shipped examples are fixed points of fmt.
func TestExamplesAreFormatted(t *testing.T) {
	examples, _ := filepath.Glob("../../examples/*.cog")
	for _, p := range examples {
		src, _ := os.ReadFile(p)
		f, diags := syntax.Parse(p, src)
		if f == nil {
			t.Errorf("%s: %v", p, diags.Err())
			continue
		}
		if got := printer.Format(f); string(got) != string(src) {
			t.Errorf("%s is not in canonical layout; run cogflow fmt -w %s", p, p)
		}
	}
}

func TestExprStringAddsNeededParens(t *testing.T) {
	num := func(s string) ast.Expr { return &ast.NumberLit{Raw: s} }
	bin := func(op string, x, y ast.Expr) ast.Expr { return &ast.Binary{Op: op, X: x, Y: y} }
	tests := []struct {
		e    ast.Expr
		want string
	}{
		{bin("*", bin("+", num("1"), num("2")), num("3")), "(1 + 2) * 3"},
		{bin("-", num("1"), bin("-", num("2"), num("3"))), "1 - (2 - 3)"},
		{bin("-", bin("-", num("1"), num("2")), num("3")), "1 - 2 - 3"},
		{bin("<", bin("<", num("1"), num("2")), num("3")), "(1 < 2) < 3"},
		{&ast.Member{X: bin("+", num("1"), num("2")), Name: ast.Ident{Name: "text"}}, "(1 + 2).text"},
	}
	for _, tt := range tests {
		if got := printer.ExprString(tt.e); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
}
