package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime/journal"
)

// Parallel batches end to end: `run --inputs rows.csv --parallel 4` in
// real headless Chromium (one browser, a context per row) against the demo
// site, whose record of order-form submissions says whether every row was
// submitted exactly once.

// orderWorkflow submits the demo order form once, for one row's name.
// Its steps wait up to a minute: four browsers on two loaded cores are
// slow, and the test is about exactly once, not speed.
const orderWorkflow = `task order "Submit the order form for one person" {
  driver browser
  input name: text
  input form_page: url = "BASE/form"

  op1 = open(form_page, timeout: 60)
  op2 = type(textbox(name: "Name"), name, timeout: 60)
  op3 = type(textbox(name: "Email"), name + "@example.org", timeout: 60)
  op4 = click(button(name: "Submit"), timeout: 60)
  op5 = wait("from " + name + " (", timeout: 60)
}
`

// batchSetup serves a fresh demo site, writes the workflow and an inputs
// file of n names (p01, p02, …) and returns them with the journal root.
func batchSetup(t testing.TB, n int) (s *site.Site, wf, csv, root string, names []string) {
	t.Helper()
	isolateConfig(t) // no model from the developer's environment is ever asked
	s = site.New()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	base := srv.URL
	dir := t.TempDir()
	wf = filepath.Join(dir, "order.cog")
	if err := os.WriteFile(wf, []byte(strings.ReplaceAll(orderWorkflow, "BASE", base)), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("name\n")
	for i := range n {
		names = append(names, fmt.Sprintf("p%02d", i+1))
		b.WriteString(names[i] + "\n")
	}
	csv = filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return s, wf, csv, filepath.Join(dir, ".cogflow"), names
}

// submissions counts the site's submissions per name.
func submissions(s *site.Site) map[string]int {
	count := map[string]int{}
	for _, sub := range s.State().Submissions {
		count[sub.Name]++
	}
	return count
}

// onlyBatch returns the one batch under root.
func onlyBatch(t *testing.T, root string) *journal.Batch {
	t.Helper()
	bs, err := journal.ListBatches(root)
	if err != nil || len(bs) != 1 {
		t.Fatalf("batches: %v, %v; want one", bs, err)
	}
	return bs[0]
}

func TestE2EBatchParallel(t *testing.T) {
	needChromium(t)
	s, wf, csv, root, names := batchSetup(t, 40)
	start := time.Now()
	r := runWith(context.Background(), "", "run", wf, "--inputs", csv, "--parallel", "4", "--dir", root)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("40 rows on 4 workers in %v:\n%s", time.Since(start).Round(time.Millisecond), r.stderr)
	count := submissions(s)
	for _, n := range names {
		if count[n] != 1 {
			t.Errorf("%s submitted %d times, want once", n, count[n])
		}
	}
	if len(s.State().Submissions) != len(names) {
		t.Errorf("%d submissions for %d rows", len(s.State().Submissions), len(names))
	}
	b := onlyBatch(t, root)
	if b.Rows != 40 || b.Parallel != 4 || b.Engine != journal.EngineLocal || b.InputsFile != csv || b.Workflow != wf {
		t.Errorf("batch record %+v", b)
	}
	states, err := b.RowRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range states {
		if st.Status != "ok" {
			t.Errorf("row %d: %s %s", st.Row, st.Status, st.Failure)
		}
	}
	for i := 1; i <= 40; i++ {
		if !strings.Contains(r.stdout, fmt.Sprintf("row %d: ok: 5 steps", i)) {
			t.Errorf("no report of row %d:\n%s", i, r.stdout)
			break
		}
	}
	// Not a terminal: plain progress lines, the last one complete.
	if !strings.Contains(r.stderr, "batch "+b.ID+": 40/40 rows done") || strings.Contains(r.stderr, "\x1b[K") {
		t.Errorf("progress lines:\n%s", r.stderr)
	}
}

// TestE2EBatchInterruptResume stops a 40-row batch on 4 workers the way
// Ctrl-C does once 10 rows were submitted, then resumes it: every row is
// submitted exactly once, a row that ended ok is not run again, and no
// row's click that finished is done again.
func TestE2EBatchInterruptResume(t *testing.T) {
	needChromium(t)
	s, wf, csv, root, names := batchSetup(t, 40)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if len(s.State().Submissions) >= 10 {
				cancel()
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	// A fresh browser context per row here; the resume below has one per worker.
	r := runWith(ctx, "", "run", wf, "--inputs", csv, "--parallel", "4", "--isolate", "row", "--dir", root)
	if r.code != exitInterrupt {
		t.Fatalf("exit %d, want %d (interrupted)\n%s%s", r.code, exitInterrupt, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "--resume") {
		t.Errorf("the stop does not say how to finish:\n%s", r.stderr)
	}
	for n, k := range submissions(s) {
		if k > 1 {
			t.Errorf("%s submitted %d times before the resume", n, k)
		}
	}
	b := onlyBatch(t, root)
	before, err := b.RowRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	var okBefore, notDone, interrupted int
	for _, st := range before {
		switch st.Status {
		case "ok":
			okBefore++
		case "interrupted":
			notDone++
			interrupted++
		case journal.RowPending:
			notDone++
		default:
			t.Errorf("row %d after Ctrl-C: %s %s", st.Row, st.Status, st.Failure)
		}
		if st.Status == "interrupted" {
			run, err := journal.Load(root, st.RunID)
			if err != nil || run.Interruption == nil {
				t.Errorf("row %d's journal does not record the interruption: %v", st.Row, err)
			}
		}
	}
	if notDone == 0 {
		t.Fatalf("the stop came too late: every row was done")
	}
	t.Logf("after Ctrl-C: %d rows ok, %d interrupted, %d not started", okBefore, interrupted, notDone-interrupted)

	r = runWith(context.Background(), "", "run", wf, "--inputs", csv, "--parallel", "4", "--dir", root, "--resume")
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if want := fmt.Sprintf("%d of 40 rows done already; running %d", okBefore, 40-okBefore); !strings.Contains(r.stderr, want) {
		t.Errorf("the resume does not say %q:\n%s", want, r.stderr)
	}
	count := submissions(s)
	for _, n := range names {
		if count[n] != 1 {
			t.Errorf("%s submitted %d times, want once", n, count[n])
		}
	}
	if onlyBatch(t, root).ID != b.ID {
		t.Errorf("the resume made a batch of its own")
	}
	after, err := b.RowRuns(root)
	if err != nil {
		t.Fatal(err)
	}
	// Per row: the runs of the row, and how many of them clicked Submit.
	runs, err := journal.List(root)
	if err != nil {
		t.Fatal(err)
	}
	clicks := map[int]int{}
	runsOf := map[int]int{}
	for _, ri := range runs {
		run, err := journal.Load(root, ri.ID)
		if err != nil {
			t.Fatal(err)
		}
		row := run.Start.Row + 1
		runsOf[row]++
		for _, st := range run.Steps {
			if st.Step == "op4" && st.Outcome == journal.OK {
				clicks[row]++
			}
		}
	}
	for i, st := range after {
		if st.Status != "ok" {
			t.Errorf("row %d after the resume: %s %s", st.Row, st.Status, st.Failure)
		}
		if clicks[st.Row] != 1 {
			t.Errorf("row %d: Submit clicked %d times in its journals", st.Row, clicks[st.Row])
		}
		if before[i].Status == "ok" && (runsOf[st.Row] != 1 || st.RunID != before[i].RunID) {
			t.Errorf("row %d ended ok before the resume, yet has %d runs", st.Row, runsOf[st.Row])
		}
		if before[i].Status == "interrupted" && st.RunID == before[i].RunID {
			t.Errorf("row %d was interrupted and not resumed", st.Row)
		}
	}
}

// BenchmarkBatchRows measures one 40-row batch of the order form without
// --parallel, at --parallel 1 and 4 (a browser context per worker), and at
// --parallel 4 --isolate row, in the same run:
//
//	go test ./cmd/cogflow -run '^$' -bench BatchRows -benchtime 1x
//
// rows/s depends on what else the machine runs; cpu-s/row (this process
// and the Chromium it started and reaped, from getrusage) does not, and
// says how many rows two cores can do at best: 2 / cpu-s/row.
func BenchmarkBatchRows(b *testing.B) {
	needChromium(b)
	for _, mode := range []struct{ name, flags string }{
		{"in order", ""},
		{"parallel=1", "--parallel 1"},
		{"parallel=4", "--parallel 4"},
		{"parallel=4 isolate=row", "--parallel 4 --isolate row"},
	} {
		b.Run(mode.name, func(b *testing.B) {
			const rows = 40
			var wall, cpu time.Duration
			for range b.N {
				s, wf, csv, root, _ := batchSetup(b, rows)
				args := append([]string{"run", wf, "--inputs", csv, "--dir", root}, strings.Fields(mode.flags)...)
				cpu0, start := cpuTime(), time.Now()
				r := runWith(context.Background(), "", args...)
				wall += time.Since(start)
				cpu += cpuTime() - cpu0
				if r.code != exitOK || len(s.State().Submissions) != rows {
					b.Fatalf("exit %d, %d submissions\n%s", r.code, len(s.State().Submissions), r.stderr)
				}
			}
			b.ReportMetric(float64(rows*b.N)/wall.Seconds(), "rows/s")
			b.ReportMetric(cpu.Seconds()/float64(rows*b.N), "cpu-s/row")
		})
	}
}
