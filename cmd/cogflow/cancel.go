package main

import (
	"fmt"

	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/journal"
)

// runCancel stops a Temporal batch: each row stops between steps, its
// journal saying where.
func runCancel(c *cli, args []string) int {
	fs := c.newFlags("cancel")
	var t temporalFlags
	t.add(fs, false)
	root := fs.String("dir", ".cogflow", "where the batch record is")
	ids, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(ids) != 1 {
		fmt.Fprintln(c.stderr, "cogflow cancel: give one batch id (cogflow submit printed it)")
		return exitUsage
	}
	b, err := journal.LoadBatch(*root, ids[0])
	if err != nil {
		return c.readError("cancel", err)
	}
	if b.Temporal == nil {
		fmt.Fprintf(c.stderr, "cogflow cancel: batch %s ran here, not on Temporal: stop it with Ctrl-C\n", b.ID)
		return exitUsage
	}
	if t.conn.Address == "" {
		t.conn.Address = b.Temporal.Address
	}
	if !flagGiven(fs, "namespace") {
		t.conn.Namespace = b.Temporal.Namespace
	}
	ctx, stop := signalled(c.ctx)
	defer stop()
	cl, _, code := c.dialTemporal(ctx, "cancel", t)
	if cl == nil {
		return code
	}
	defer cl.Close()
	if err := temporalrun.Cancel(ctx, cl, b.Temporal.WorkflowID); err != nil {
		fmt.Fprintf(c.stderr, "cogflow cancel: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(c.stdout, "batch %s: cancel requested; its rows stop between steps (cogflow runs show %s)\n", b.ID, b.ID)
	return exitOK
}
