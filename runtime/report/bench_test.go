package report

import (
	"io"
	"testing"
)

// BenchmarkBatch40 loads a 40-row batch (3 steps and a screenshot per row)
// and writes it in each format: the cost of `cogflow report BATCH`.
func BenchmarkBatch40(b *testing.B) {
	root, wf := setup(b)
	batch := newBatch(b, root, wf, 40)
	for row := range 40 {
		writeRun(b, root, wf, batch, row, row%10 == 3)
	}
	for _, format := range []string{"junit", "html"} {
		b.Run(format, func(b *testing.B) {
			for b.Loop() {
				suites, err := Load(root, []string{batch})
				if err != nil {
					b.Fatal(err)
				}
				if format == "junit" {
					err = WriteJUnit(io.Discard, suites)
				} else {
					err = WriteHTML(io.Discard, suites)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
