package main

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
)

// stepPolicy is the in_doubt: policy the workflow gives the step named
// step on line line ("" when it gives none). A resume runs on the same
// file as the run it resumes (it refuses a changed one), so the name and
// line journaled with the step's intent find it; the checker has made sure
// the value is a literal "ask", "skip" or "redo".
func stepPolicy(file *ast.File, step string, line int) string {
	if file == nil {
		return ""
	}
	for _, d := range file.Decls {
		var body *ast.Block
		switch d := d.(type) {
		case *ast.Task:
			body = d.Body
		case *ast.Skill:
			body = d.Body
		}
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
		case *ast.ForStmt:
			if p := blockPolicy(s.Body, step, line); p != "" {
				return p
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

// policySource says which setting chose how a step in doubt is settled,
// for the resume's report and the new run's journal.
func policySource(from, policy string, line int) string {
	switch from {
	case "flag":
		return fmt.Sprintf("by --in-doubt=%s", policy)
	case "step":
		return fmt.Sprintf("by the step's in_doubt: %q (line %d)", policy, line)
	case "terminal":
		return "by the answer at the terminal"
	}
	return "since its effect can be read back"
}
