package grammargen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerate runs the generator on small grammars: what it writes for
// the shapes it knows, and the error for those it cannot follow the way
// participle does.
func TestGenerate(t *testing.T) {
	const header = "package syntax\n\nimport \"github.com/alecthomas/participle/v2/lexer\"\n\n"
	tests := []struct {
		name, grammar, builders string
		want                    []string // in the output, or in the error when err is set
		err                     bool
	}{
		{
			name:     "a rule with positions",
			grammar:  "type gA struct {\n\tPos lexer.Position\n\tEndPos lexer.Position\n\tName string `parser:\"\\\"a\\\" @Ident\"`\n}\n",
			builders: "func (p *parser) buildA(v *aParts) string { return v.Name }\n",
			want: []string{"type aParts struct", "Start, End int", "func (q *quick) parseA() string", `q.expectText("a")`,
				`v.Name += q.expectKind(tokIdent, "a name")`, "func (p *parser) walkA(g *gA) string", "v.Start, v.End = p.offsets(g.Pos, g.EndPos)"},
		},
		{
			name: "a repetition looks at two tokens when it starts with a fixed one",
			grammar: "type gL struct {\n\tItems []*gI `parser:\"@@ (\\\",\\\" @@)* \\\",\\\"?\"`\n}\n" +
				"type gI struct {\n\tName string `parser:\"@Ident\"`\n}\n",
			builders: "func (p *parser) buildL(v *lParts) int { return 0 }\nfunc (p *parser) buildI(v *iParts) string { return v.Name }\n",
			want:     []string{`for q.textAt(0) == "," && q.kindAt(1) == tokIdent {`, "v.Items = append(v.Items, q.parseI())"},
		},
		{
			name: "a list of parts is gathered on a scratch stack",
			grammar: "type gL struct {\n\tItems []*gI `parser:\"@@*\"`\n}\n" +
				"type gI struct {\n\tName string `parser:\"@Ident\"`\n}\n",
			builders: "func (p *parser) buildL(v *lParts) int { return 0 }\nfunc (p *parser) buildI(v *iParts) iParts { return *v }\n",
			want:     []string{"gI []iParts", "markItems := len(q.scratch.gI)", "q.scratch.gI = q.scratch.gI[:markItems]"},
		},
		{
			name:    "a struct without a builder",
			grammar: "type gA struct {\n\tName string `parser:\"@Ident\"`\n}\n",
			want:    []string{"gA has no builder", "buildA(v *aParts)"},
			err:     true,
		},
		{
			name: "an alternative that can match nothing",
			grammar: "type gA struct {\n\tX *gB `parser:\"@@ | @Ident\"`\n}\n" +
				"type gB struct {\n\tY string `parser:\"@Ident?\"`\n}\n",
			builders: "func (p *parser) buildA(v *aParts) int { return 0 }\nfunc (p *parser) buildB(v *bParts) int { return 0 }\n",
			want:     []string{"an alternative can match nothing"},
			err:      true,
		},
		{
			name:     "a repetition of something that can match nothing",
			grammar:  "type gA struct {\n\tX []string `parser:\"(@Ident?)*\"`\n}\n",
			builders: "func (p *parser) buildA(v *aParts) int { return 0 }\n",
			want:     []string{"repetition of something that can match nothing"},
			err:      true,
		},
		{
			name:     "tag syntax the generator does not know",
			grammar:  "type gA struct {\n\tX string `parser:\"~Ident\"`\n}\n",
			builders: "func (p *parser) buildA(v *aParts) int { return 0 }\n",
			want:     []string{`does not know "~"`},
			err:      true,
		},
		{
			name:     "a field without a tag",
			grammar:  "type gA struct {\n\tX string\n}\n",
			builders: "func (p *parser) buildA(v *aParts) int { return 0 }\n",
			want:     []string{"field X has no parser tag"},
			err:      true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write := func(name, src string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("grammar.go", header+tt.grammar)
			write("build.go", "package syntax\n\n"+tt.builders)
			out, err := Generate(dir)
			got := string(out)
			if tt.err {
				if err == nil {
					t.Fatalf("no error; generated:\n%s", out)
				}
				got = err.Error()
			} else if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in:\n%s", w, got)
				}
			}
		})
	}
}
