package graph_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/graph"
)

// bigTask is a task of n steps: a third judged from the step before, a
// third typing an input every step uses, a third using an earlier step.
func bigTask(n int) string {
	var b strings.Builder
	b.WriteString("task big \"Big\" {\n  driver browser\n  input word: text = \"w\"\n  anchor box = textbox(name: \"Search\")\n  op0 = click(box)\n")
	for i := 1; i < n; i++ {
		switch i % 3 {
		case 0:
			fmt.Fprintf(&b, "  op%d = click(match_element<\"the result about the word\">(op%d))\n", i, i-1)
		case 1:
			fmt.Fprintf(&b, "  op%d = type(box, word)\n", i)
		default:
			fmt.Fprintf(&b, "  op%d = type(box, upper(op%d.text))\n", i, i-2)
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkRender2000 draws a 2,000-step task as DOT and as the HTML page;
// compare the two in one run (benchstat).
func BenchmarkRender2000(b *testing.B) {
	src := bigTask(2000)
	g := buildSrc(b, src)
	b.Run("dot", func(b *testing.B) {
		for b.Loop() {
			_ = g.DOT()
		}
	})
	b.Run("html", func(b *testing.B) {
		for b.Loop() {
			if err := g.HTML(io.Discard, graph.HTMLOptions{Source: []byte(src)}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
