package main

import (
	"fmt"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

func runRuns(c *cli, args []string) int {
	fs := c.newFlags("runs")
	root := fs.String("dir", ".cogflow", "where runs are journaled")
	failed := fs.Bool("failed", false, "only runs that did not end ok (failed, interrupted, killed, in doubt, unreadable) and batches with such a row")
	since := fs.String("since", "", "only runs and batches started in the last `DURATION` (90m, 36h, 7d) or since a DATE (2026-11-25, 2026-11-25T10:00, RFC 3339; UTC unless it says)")
	workflow := fs.String("workflow", "", "only runs and batches of the workflow file `PATH`")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	f := runFilter{failed: *failed, workflow: *workflow}
	if *since != "" {
		t, err := parseSince(*since, time.Now())
		if err != nil {
			fmt.Fprintf(c.stderr, "cogflow runs: %v\n", err)
			return exitUsage
		}
		f.since = t
	}
	switch {
	case len(rest) == 0:
		return c.listRuns(*root, f)
	case len(rest) == 2 && rest[0] == "show" && journal.ValidBatchID(rest[1]):
		return c.showBatch(*root, rest[1])
	case len(rest) == 2 && rest[0] == "show":
		run, err := journal.Load(*root, rest[1])
		if err != nil {
			return c.readError("runs", err)
		}
		if err := journal.Render(c.stdout, run); err != nil {
			return c.readError("runs", err)
		}
	default:
		fs.Usage()
		return exitUsage
	}
	return exitOK
}

// listRuns prints the runs the filter keeps, newest first, then one
// summary line per batch it keeps.
func (c *cli) listRuns(root string, f runFilter) int {
	all, err := journal.List(root)
	if err != nil {
		return c.readError("runs", err)
	}
	var runs []journal.RunInfo
	for _, r := range all {
		if f.keepRun(r) {
			runs = append(runs, r)
		}
	}
	batches, err := c.batchSummaries(root, all, f)
	if err != nil {
		return c.readError("runs", err)
	}
	if len(runs) == 0 && len(batches) == 0 {
		what := "runs"
		if f != (runFilter{}) {
			what = "matching runs"
		}
		fmt.Fprintf(c.stdout, "no %s in %s\n", what, root)
		return exitOK
	}
	if len(runs) > 0 {
		if err := journal.RenderList(c.stdout, runs); err != nil {
			return c.readError("runs", err)
		}
	}
	if len(batches) > 0 {
		if len(runs) > 0 {
			fmt.Fprintln(c.stdout)
		}
		if err := renderBatches(c.stdout, batches); err != nil {
			return c.readError("runs", err)
		}
	}
	return exitOK
}

// batchSummaries reads the batches the filter keeps, newest first, with
// their rows' states from runs, the listing of every run under root.
func (c *cli) batchSummaries(root string, runs []journal.RunInfo, f runFilter) ([]batchSummary, error) {
	bs, err := journal.ListBatches(root)
	if err != nil {
		return nil, err
	}
	var out []batchSummary
	for _, b := range bs {
		t := tallyRows(b.RowRunsIn(root, runs))
		if f.keepBatch(b, t) {
			out = append(out, batchSummary{b: b, tally: t})
		}
	}
	return out, nil
}
