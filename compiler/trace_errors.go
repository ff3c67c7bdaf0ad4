package compiler

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
)

// traceDiags locates the diagnostics of an emitted workflow in the trace
// it was compiled from: each is reported at the event its step came from
// ($.events[2]) in the trace file (Options.Trace), since the workflow's
// positions point into a file that is never written. One outside any step
// (an anchor, an input) is reported at the trace's root. f is the parsed
// workflow, nil when it did not parse; what says what went wrong ("does
// not check"). Severities are kept: a checker warning is a compiler
// warning.
func (c *compiler) traceDiags(f *ast.File, src []byte, ds diag.List, what string) diag.List {
	var out diag.List
	for _, d := range ds {
		path, msg := "$", fmt.Sprintf("the compiled workflow %s: %s", what, d.Message)
		if s := stepAt(f, d.Range.Start.Offset); s != nil && s.Range.End.Offset <= len(src) {
			text := string(src[s.Range.Start.Offset:s.Range.End.Offset])
			msg = fmt.Sprintf("step `%s` %s: %s", text, what, d.Message)
			if ids := c.stepEvents(s.Name.Name); len(ids) > 0 {
				path = c.eventPath(ids[0])
				msg = fmt.Sprintf("step `%s`, compiled from event %s, %s: %s", text, cite(ids), what, d.Message)
			}
		}
		out = append(out, &diag.Diagnostic{Severity: d.Severity, Range: ast.Range{Filename: c.traceName},
			Path: path, Message: msg, Suggestion: d.Suggestion, Notes: d.Notes})
	}
	return out
}

// warn records a compiler warning at the trace event a step was compiled
// from: the first of events ($.events[N]), or the trace's root when there
// is none.
func (c *compiler) warn(events []string, format string, args ...any) {
	path := "$"
	if len(events) > 0 {
		path = c.eventPath(events[0])
	}
	d := diag.AtPath(c.traceName, path, format, args...)
	d.Severity = diag.Warning
	c.warnings = append(c.warnings, d)
}

// warnStep records a warning about the step named name, at its event.
func (c *compiler) warnStep(name string, format string, args ...any) {
	c.warn(c.stepEvents(name), format, args...)
}

// stepAt finds the innermost step whose range holds offset.
func stepAt(f *ast.File, offset int) *ast.Step {
	if f == nil {
		return nil
	}
	var in func(b *ast.Block) *ast.Step
	in = func(b *ast.Block) *ast.Step {
		for _, s := range b.Stmts {
			switch s := s.(type) {
			case *ast.Step:
				if s.Range.Start.Offset <= offset && offset < s.Range.End.Offset {
					return s
				}
			case *ast.ForStmt, *ast.IfStmt, *ast.RepeatStmt, *ast.WhileStmt, *ast.TryStmt, *ast.ExploreStmt:
				for _, b := range ast.Bodies(s) {
					if r := in(b); r != nil {
						return r
					}
				}
			}
		}
		return nil
	}
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok && t.Body != nil {
			if s := in(t.Body); s != nil {
				return s
			}
		}
	}
	return nil
}

// stepEvents lists the trace events the step named name was compiled from.
func (c *compiler) stepEvents(name string) []string {
	for _, in := range c.infos {
		if in.name == name {
			return in.Events
		}
	}
	return nil
}

// eventPath is the JSON path of the event with the given id.
func (c *compiler) eventPath(id string) string {
	for i, e := range c.tr.Events {
		if e.ID == id {
			return fmt.Sprintf("$.events[%d]", i)
		}
	}
	return "$"
}
