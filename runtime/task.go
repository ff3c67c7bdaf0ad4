package runtime

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// TaskNamed returns the task called name in f, or its first task when name
// is "".
func TaskNamed(f *ast.File, name string) (*ast.Task, error) {
	var names []string
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok {
			if name == "" || t.Name.Name == name {
				return t, nil
			}
			names = append(names, t.Name.Name)
		}
	}
	if name == "" {
		return nil, fmt.Errorf("%s has no task", f.Name)
	}
	return nil, fmt.Errorf("%s has no task %s (tasks: %s)", f.Name, name, strings.Join(names, ", "))
}

// DriverOf names the driver a task runs with: its driver declaration,
// "browser" without one.
func DriverOf(t *ast.Task) string {
	for _, s := range t.Body.Stmts {
		if d, ok := s.(*ast.DriverDecl); ok {
			return d.Name.Name
		}
	}
	return "browser"
}

// StepPolicy is the in_doubt: policy the workflow gives the step named
// step on line line ("" when it gives none). A resume runs on the same
// file as the run it resumes (it refuses a changed one), so the name and
// line journaled with the step's intent find it; the checker has made sure
// the value is a literal "ask", "skip" or "redo".
func StepPolicy(file *ast.File, step string, line int) string {
	if file == nil {
		return ""
	}
	for _, body := range file.Bodies() {
		if p := blockPolicy(body, step, line); p != "" {
			return p
		}
	}
	return ""
}

func blockPolicy(b *ast.Block, step string, line int) string {
	if b == nil {
		return ""
	}
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.ForStmt, *ast.IfStmt, *ast.RepeatStmt, *ast.WhileStmt, *ast.TryStmt, *ast.ExploreStmt:
			for _, b := range ast.Bodies(s) {
				if p := blockPolicy(b, step, line); p != "" {
					return p
				}
			}
		case *ast.Step:
			call, ok := s.Value.(*ast.Call)
			if !ok || s.Name.Name != step || s.Range.Start.Line != line {
				continue
			}
			for _, a := range call.Args {
				if lit, ok := a.Value.(*ast.StringLit); ok && a.Name != nil && a.Name.Name == "in_doubt" {
					return lit.Value
				}
			}
		}
	}
	return ""
}
