package main

import (
	"context"
	"flag"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/journal"
)

// showBatch lists a batch's rows (`cogflow runs show BATCH`): for a
// Temporal batch each row's state on the server — pending, running, or
// how it ended — beside what its journals in root say (when the workers
// journal where this machine reads). The server is reached as the batch
// record says, with the COGFLOW_TEMPORAL_* environment for TLS and the
// payload key.
func (c *cli) showBatch(root, id string) int {
	b, err := journal.LoadBatch(root, id)
	if err != nil {
		return c.readError("runs", err)
	}
	journaled := map[int]journal.RowRun{}
	if rr, err := b.RowRuns(root); err == nil {
		for _, r := range rr {
			journaled[r.Row] = r
		}
	}
	var server []temporalrun.RowResult
	if b.Temporal != nil {
		var t temporalFlags
		t.add(flag.NewFlagSet("", flag.ContinueOnError), false)
		t.conn.Address, t.conn.Namespace = b.Temporal.Address, b.Temporal.Namespace
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if cl, _, _ := c.dialTemporal(ctx, "runs", t); cl != nil {
			server, err = temporalrun.Rows(ctx, cl, b.Temporal.WorkflowID, b.Rows)
			cl.Close()
			if err != nil {
				fmt.Fprintf(c.stderr, "cogflow runs: the rows' states on Temporal: %v\n", err)
			}
		}
	}
	fmt.Fprintf(c.stdout, "batch %s: %s (task %s), %d rows, engine %s", b.ID, b.Workflow, b.Task, b.Rows, b.Engine)
	if b.Temporal != nil {
		fmt.Fprintf(c.stdout, ", Temporal workflow %s on %s", b.Temporal.WorkflowID, b.Temporal.Address)
	}
	fmt.Fprintln(c.stdout)
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ROW\tTEMPORAL\tJOURNAL\tRUN\tWHY")
	for i := 1; i <= b.Rows; i++ {
		state, run, why := "-", "", ""
		if i <= len(server) {
			s := server[i-1]
			state, run, why = s.Status, s.RunID, firstLine(s.Failure)
		}
		j, ok := journaled[i]
		jstate := "-"
		if ok {
			jstate = j.Status
			run = cmpOr(run, j.RunID)
			why = cmpOr(why, firstLine(j.Failure))
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", i, state, jstate, run, truncateLine(why, 80))
	}
	if err := tw.Flush(); err != nil {
		return c.readError("runs", err)
	}
	return exitOK
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
