package main

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/graph"
)

func runGraph(c *cli, args []string) int {
	fs := c.newFlags("graph")
	format := fs.String("format", "dot", "output format: dot (Graphviz) or mermaid")
	taskName := fs.String("task", "", "the task to draw when the file has several (default: the first)")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow graph: give exactly one workflow file")
		return exitUsage
	}
	if *format != "dot" && *format != "mermaid" {
		fmt.Fprintf(c.stderr, "cogflow graph: unknown format %q (use dot or mermaid)\n", *format)
		return exitUsage
	}
	l, err := load(files[0])
	if err != nil {
		return c.readError("graph", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	task, err := l.w.Task(*taskName)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow graph: %v\n", err)
		return exitUsage
	}
	g := graph.Build(task, l.info)
	if *format == "mermaid" {
		fmt.Fprint(c.stdout, g.Mermaid())
	} else {
		fmt.Fprint(c.stdout, g.DOT())
	}
	return exitOK
}
