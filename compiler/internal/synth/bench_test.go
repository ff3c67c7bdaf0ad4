package synth

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkSynthesize times the typical case the compiler meets: a typed
// file name computed from an earlier step, with the task's other values
// around it.
func BenchmarkSynthesize(b *testing.B) {
	sources := src("op1", "http://127.0.0.1:8088/files", "keyword", "Kilimanjaro", "op2", "budget.txt")
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Synthesize("budget.md", sources, Options{}); !ok {
			b.Fatal("no program")
		}
	}
}

// BenchmarkSynthesizeCases runs the whole table of test cases, and an
// output no program computes (the case every LLM dependency pays for).
func BenchmarkSynthesizeCases(b *testing.B) {
	b.Run("table", func(b *testing.B) {
		for b.Loop() {
			for _, c := range synthCases {
				Synthesize(c.output, c.sources, Options{})
			}
		}
	})
	b.Run("no-program", func(b *testing.B) {
		sources := src("op1", "http://127.0.0.1:8088/wiki", "keyword", "Kilimanjaro",
			"op5", "Kilimanjaro is a dormant volcano in Tanzania. It has three volcanic cones.")
		for b.Loop() {
			if _, ok := Synthesize("The highest mountain of Africa, in one sentence.", sources, Options{}); ok {
				b.Fatal("unexpected program")
			}
		}
	})
	b.Run("many-sources", func(b *testing.B) {
		var sources []Source
		for i := range 20 {
			sources = append(sources, Source{Name: fmt.Sprintf("op%d", i+3),
				Value: fmt.Sprintf("Result %d: the page about item %d costs %d.50 EUR", i, i*7, i*3+1)})
		}
		sources = append(sources, Source{Name: "op2", Value: "budget.txt"})
		for b.Loop() {
			if _, ok := Synthesize("budget.md", sources, Options{}); !ok {
				b.Fatal("no program")
			}
		}
	})
	b.Run("long-page-text", func(b *testing.B) {
		page := strings.Repeat("Kilimanjaro is a dormant volcano in Tanzania. ", 2000)
		for b.Loop() {
			if _, ok := Synthesize("Tanzania", src("op5", page), Options{}); !ok {
				b.Fatal("no program")
			}
		}
	})
}
