package hclguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// TestCheck: every shape the HCL parser recurses on is stopped at the
// place it goes too deep, 100,000 deep included; what the parser handles
// in a loop, and brackets in strings, comments and heredocs, pass.
func TestCheck(t *testing.T) {
	// Refused shapes are 100,000 deep; accepted ones are parsed too, so
	// they are smaller, for speed.
	const n, m = 100000, 2000
	deep := strings.Repeat
	for _, tc := range []struct {
		name, src string
		line, col int // 0: no error
	}{
		{"brackets", "a = " + deep("[", n) + deep("]", n), 1, 105},
		{"parens", "a = " + deep("(", n) + "1" + deep(")", n), 1, 105},
		{"objects", "a = " + deep("{a = ", n) + "1" + deep("}", n), 1, 5 + 100*5},
		{"blocks", deep("b {\n", n) + deep("}\n", n), 101, 3},
		{"templates", "a = " + deep(`"${`, n) + deep(`}"`, n), 1, 155},
		{"calls", "a = " + deep("f(", n) + deep(")", n), 1, 206},
		{"not", "a = " + deep("!", n) + "true", 1, 105},
		{"minus", "a = " + deep("- ", n) + "1", 1, 205},
		{"attributes", "a = x" + deep(".b", n), 1, 206},
		{"indexes", "a = x" + deep("[0]", n), 1, 306},
		{"splats", "a = x" + deep("[*]", n), 1, 306},
		{"second line", "llm {\n  a = " + deep("[", n), 2, 106},
		{"unicode column", "a = \"é\"\nb = " + deep("[", n), 2, 105},
		{"sums", "a = " + deep("1 + ", m) + "1", 0, 0},
		{"conditions", "a = " + deep("x ? 1 : ", m) + "1", 0, 0},
		{"products", "a = " + deep("2 * ", m) + "1", 0, 0},
		{"long list", "a = [" + deep("1.5, ", m) + "]", 0, 0},
		{"brackets in a string", "a = \"" + deep("[{(", m) + "\"", 0, 0},
		{"escaped interpolation", "a = \"" + deep("$${", m) + "\"", 0, 0},
		{"brackets in comments", deep("# [[[[\n// {{{{\n/* (((( */\n", m), 0, 0},
		{"brackets in a heredoc", "a = <<EOT\n" + deep("[{(\"\n", m) + "EOT\nb = 1\n", 0, 0},
		{"many interpolations", "a = \"" + deep("${x.a.b} ", m) + "\"", 0, 0},
		{"many traversals", deep("a = x.b.c[0]\n", m), 0, 0},
		{"real", "llm {\n  text_model = \"x\"\n  api_key = env(\"K\")\n}\nurls {\n  allow = [\"https://a.example\"]\n}\n", 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := Check([]byte(tc.src), "f.hcl", "test file", 1<<30)
			if tc.line == 0 {
				if ds.HasErrors() {
					t.Fatalf("refused: %s", ds.Error())
				}
				// And the parser copes with it.
				hclsyntax.ParseConfig([]byte(tc.src), "f.hcl", hcl.InitialPos)
				return
			}
			if !ds.HasErrors() {
				t.Fatal("not refused")
			}
			d := ds[0]
			if d.Summary != "Nesting too deep" || d.Subject.Filename != "f.hcl" || d.Subject.Start.Line != tc.line || d.Subject.Start.Column != tc.col {
				t.Errorf("got %q at %d:%d, want nesting too deep at %d:%d", d.Summary, d.Subject.Start.Line, d.Subject.Start.Column, tc.line, tc.col)
			}
		})
	}
}

func TestSize(t *testing.T) {
	ds := Check([]byte("a = 1\n"), "f.hcl", "test file", 5)
	if !ds.HasErrors() || !strings.Contains(ds.Error(), "at most 5") {
		t.Errorf("got %v", ds)
	}
	path := filepath.Join(t.TempDir(), "f.hcl")
	if err := os.WriteFile(path, []byte("a = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path, "test file", 5); err == nil || !strings.Contains(err.Error(), "at most 5 bytes") {
		t.Errorf("ReadFile of 6 bytes with a limit of 5: %v", err)
	}
	if src, err := ReadFile(path, "test file", 6); err != nil || string(src) != "a = 1\n" {
		t.Errorf("ReadFile = %q, %v", src, err)
	}
	if _, err := ReadFile("/dev/zero", "test file", 1<<20); err == nil {
		t.Error("/dev/zero read without error")
	}
}
