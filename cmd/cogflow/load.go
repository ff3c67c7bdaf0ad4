package main

import (
	"errors"
	"fmt"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
)

// loaded is one workflow file as the commands use it: the library's
// Workflow, and its parts at hand.
type loaded struct {
	w     *cogflow.Workflow
	path  string
	src   []byte
	file  *ast.File // nil when the file has syntax errors
	info  *check.Info
	diags diag.List
}

// load loads a workflow through the library, checked against the
// project's knowledge base (./.cogflow/knowledge.hcl, else the default).
// The error is for files that cannot be read at all.
func load(path string) (*loaded, error) {
	w, ds := cogflow.Load(path, cogflow.Options{ProjectDir: defaultProjectDir})
	if w == nil {
		return nil, errors.New(ds[0].Message)
	}
	return &loaded{w: w, path: path, src: w.Source(), file: w.File(), info: w.Info(), diags: ds}, nil
}

// report prints a file's diagnostics with source lines and carets.
func (c *cli) report(l *loaded) {
	l.w.Render(c.stderr, l.diags)
}

func (c *cli) readError(cmd string, err error) int {
	fmt.Fprintf(c.stderr, "cogflow %s: %v\n", cmd, err)
	return exitUsage
}
