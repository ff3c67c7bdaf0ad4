package lsp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/stdlib/kb"
)

// navBigSrc is a task of n steps, each using the one before, with é 中 😀
// on every line.
func navBigSrc(n int) string {
	var b strings.Builder
	b.WriteString("task big \"é 中 😀\" {\n  driver browser\n  input word: text = \"é\"\n  anchor box = textbox(name: \"é 中 😀\")\n\n  op0 = type(box, word)\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "  op%d = type(textbox(name: \"é 中 😀 %d\"), summarize<\"é 中 😀\">(op%d))  # e%d\n", i, i, i-1, i)
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkNav measures what the reading features cost on a 2,000-step
// file, the server's own work without JSON, against analyzing the file
// (parse and check, what every edit costs), in the same run:
// go test -bench Nav -run XXX ./internal/lsp.
func BenchmarkNav(b *testing.B) {
	src := []byte(navBigSrc(2000))
	d := analyze("file:///big.cog", "/big.cog", 1, src, kb.Default(), "")
	if len(d.Diags) != 0 {
		b.Fatalf("the benchmark file has diagnostics: %v", d.Diags[0])
	}
	mid := strings.Index(string(src), "(op1000)") + 2
	for _, r := range []struct {
		name string
		f    func()
	}{
		{"analyze", func() { analyze(d.URI, d.Path, 1, src, kb.Default(), "") }},
		{"index", func() { newNavIndex(d) }},
		{"hover", func() { navHover(d, mid, true) }},
		{"references", func() {
			ix := newNavIndex(d)
			ix.uses(ix.occAt(mid).decl)
		}},
		{"semanticTokens", func() { navSemanticData(d) }},
		{"documentSymbol", func() { navDocumentSymbols(d) }},
		{"signatureHelp", func() { navCallContext(d.Text, mid) }},
	} {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				r.f()
			}
		})
	}
}
