package main

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
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
	l, err := load(files[0], checkEnv())
	if err != nil {
		return c.readError("graph", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	var task *ast.Task
	var names []string
	for _, d := range l.file.Decls {
		if t, ok := d.(*ast.Task); ok {
			names = append(names, t.Name.Name)
			if task == nil && (*taskName == "" || t.Name.Name == *taskName) {
				task = t
			}
		}
	}
	if task == nil {
		if *taskName == "" {
			fmt.Fprintf(c.stderr, "cogflow graph: %s has no task\n", files[0])
		} else {
			fmt.Fprintf(c.stderr, "cogflow graph: %s has no task %s (tasks: %v)\n", files[0], *taskName, names)
		}
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
