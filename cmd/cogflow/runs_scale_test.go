package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

// manyBatches journals n batches of rows rows each, every row run once
// and ok but the last row of each, which is killed.
func manyBatches(tb testing.TB, n, rows int) string {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), ".cogflow")
	for range n {
		b, err := journal.NewBatch(root, journal.Batch{Workflow: "w.cog", Task: "t", Rows: rows, Engine: journal.EngineLocal})
		if err != nil {
			tb.Fatal(err)
		}
		for row := range rows {
			w, err := journal.Open(root, journal.RunMeta{Workflow: "w.cog", Task: "t", Row: row, Batch: b.ID})
			if err != nil {
				tb.Fatal(err)
			}
			if err := w.Step(journal.StepEvent{Step: "op1", Line: 3, Op: "open"}); err != nil {
				tb.Fatal(err)
			}
			if row < rows-1 {
				if err := w.Finish(journal.OK, nil); err != nil {
					tb.Fatal(err)
				}
			}
		}
	}
	return root
}

// TestRunsManyBatches: each batch's line sums up its own rows, read from
// one listing of the runs.
func TestRunsManyBatches(t *testing.T) {
	root := manyBatches(t, 4, 5)
	r := runCLI(t, "", "runs", "--dir", root)
	if r.code != exitOK || strings.Count(r.stdout, "5 rows: 4 ok, 0 failed, 0 in doubt, 0 not run, 1 stopped") != 4 {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// BenchmarkRunsManyBatches lists 30 batches of 40 rows. Each batch used to
// list (and read the summary of) every run again: 2.7 s here, 72 ms with
// one listing.
func BenchmarkRunsManyBatches(b *testing.B) {
	root := manyBatches(b, 30, 40)
	for b.Loop() {
		c := &cli{stdout: &strings.Builder{}, stderr: &strings.Builder{}}
		if code := c.main([]string{"runs", "--dir", root}); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
