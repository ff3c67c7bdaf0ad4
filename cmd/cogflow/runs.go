package main

import (
	"fmt"

	"github.com/cogflow/cogflow/runtime/journal"
)

func runRuns(c *cli, args []string) int {
	fs := c.newFlags("runs")
	root := fs.String("dir", ".cogflow", "where runs are journaled")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(rest) == 0:
		runs, err := journal.List(*root)
		if err != nil {
			return c.readError("runs", err)
		}
		if len(runs) == 0 {
			fmt.Fprintf(c.stdout, "no runs in %s\n", *root)
			return exitOK
		}
		if err := journal.RenderList(c.stdout, runs); err != nil {
			return c.readError("runs", err)
		}
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
