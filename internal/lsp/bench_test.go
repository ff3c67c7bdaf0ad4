package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow"
)

// bigWorkflow is a workflow of n steps in the shapes compiled files have:
// anchors, typed inputs, dependencies, and a loop every 200 steps.
func bigWorkflow(n int) string {
	var b strings.Builder
	b.WriteString("task big \"a long compiled workflow\" {\n  driver browser\n  input site: url = \"http://127.0.0.1:8088\"\n  input term: text = \"k\"\n")
	b.WriteString("  anchor query = textbox(name: \"Search\", id: \"q\")\n  anchor results = list(name: \"Search results\")\n")
	b.WriteString("  op1 = open(site + \"/wiki\")\n")
	for i := 2; i <= n; i++ {
		switch {
		case i%200 == 199: // a step no later one refers to
			fmt.Fprintf(&b, "  for row%d in items(results) {\n    op%d = click(link(name: \"more\", within: row%d))\n  }\n", i, i, i)
		case i%4 == 0:
			fmt.Fprintf(&b, "  op%d = type(query, lower(term) + \" %d\")\n", i, i)
		case i%4 == 1:
			fmt.Fprintf(&b, "  op%d = click(match_element<\"the result closest to the term\">(op%d, within: results))\n", i, i-1)
		case i%4 == 2:
			fmt.Fprintf(&b, "  op%d = copy(extract_information<\"the first sentence\">(op%d))\n", i, i-1)
		default:
			fmt.Fprintf(&b, "  op%d = click(button(name: \"Search\"))  # e%d\n", i, i)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkCheck2000 is the baseline: what `cogflow check` does with a
// 2,000-step file (read it, parse, check against the project's knowledge
// base), without printing.
func BenchmarkCheck2000(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "big.cog")
	if err := os.WriteFile(path, []byte(bigWorkflow(2000)), 0o644); err != nil {
		b.Fatal(err)
	}
	project := filepath.Join(dir, ".cogflow")
	for b.Loop() {
		w, ds := cogflow.Load(path, cogflow.Options{ProjectDir: project})
		if w == nil || len(ds) != 0 {
			b.Fatalf("diagnostics: %v", ds)
		}
	}
}

// BenchmarkEditToDiagnostics2000 is the server's own time from an edit of
// a 2,000-step file to its diagnostics on the wire, with the debounce set
// to nothing: the edit is applied, the file analyzed, and the diagnostics
// converted to UTF-16 ranges and sent. Each edit breaks or mends one name,
// so the diagnostics alternate between one error and none.
func BenchmarkEditToDiagnostics2000(b *testing.B) {
	src := bigWorkflow(2000)
	c := newTestClient(b, "", Options{Debounce: 1})
	uri := c.open("big.cog", src)
	if ds := c.diagnostics(uri, 1); len(ds) != 0 {
		b.Fatalf("diagnostics: %v", ds)
	}
	li := NewLineIndex([]byte(src))
	at := li.Position(strings.Index(src, "lower(term)") + len("lower("))
	word := Range{Start: at, End: Position{Line: at.Line, Character: at.Character + 4}}
	version := int32(1)
	for b.Loop() {
		version++
		text, want := "tern", 1
		if version%2 == 1 {
			text, want = "term", 0
		}
		c.change(uri, version, word, text)
		if ds := c.diagnostics(uri, version); len(ds) != want {
			b.Fatalf("version %d: %d diagnostics, want %d: %v", version, len(ds), want, ds)
		}
	}
}
