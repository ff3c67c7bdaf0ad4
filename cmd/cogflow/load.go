package main

import (
	"fmt"
	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/internal/readlimit"
	"os"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// checkEnv is the environment workflows are checked against: the
// project's knowledge base (.cogflow/knowledge.hcl, else the default) and
// the function library.
func checkEnv() *check.Env {
	return &check.Env{Knowledge: projectKnowledge(), Functions: funcs.Library(nil)}
}

// loaded is one source file after parsing and checking.
type loaded struct {
	path  string
	src   []byte
	file  *ast.File // nil when the file has syntax errors
	info  *check.Info
	diags diag.List
}

// load reads, parses and (when parsing succeeded and env is not nil)
// checks a file. The error is for files that cannot be read at all.
func load(path string, env *check.Env) (*loaded, error) {
	src, err := readlimit.File(path, "a workflow", maxWorkflowSize)
	if err != nil {
		return nil, err
	}
	l := &loaded{path: path, src: src}
	l.file, l.diags = syntax.Parse(path, src)
	if l.file != nil && env != nil {
		var more diag.List
		l.info, more = check.Check(l.file, env)
		l.diags = append(l.diags, more...)
		if _, kds := cogflow.ProjectKB(defaultProjectDir); kds.HasErrors() {
			l.diags = append(l.diags, kds...) // checked against the default instead
		}
		l.diags.Sort()
	}
	return l, nil
}

// report prints a file's diagnostics with source lines and carets.
func (c *cli) report(l *loaded) {
	l.diags.Render(c.stderr, func(name string) []byte {
		if name != l.path { // the project's knowledge base
			b, _ := os.ReadFile(name)
			return b
		}
		return l.src
	})
}

func (c *cli) readError(cmd string, err error) int {
	fmt.Fprintf(c.stderr, "cogflow %s: %v\n", cmd, err)
	return exitUsage
}
