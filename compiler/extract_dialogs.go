package compiler

import (
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Dialog and upload events of a trace. Extraction attaches a dialog event
// to the op of the event that opened it (its cause), like any consequence;
// an upload event is an op of its own. Emission then writes the dialog's
// answer on that op's step (dialog:, prompt:) and upload(target, files).

// upload makes files chosen for a file input an upload op; the click that
// opened the file chooser on the same input is part of it (replayed, it
// would only open a chooser).
func (x *extractor) upload(e *trace.Event) {
	if l := x.last(); l != nil && l.Action == action.Click && fieldKey(l.Target) != "" && fieldKey(l.Target) == fieldKey(e.Target) {
		l.Action, l.Target, l.Snapshot = action.Upload, e.Target, e.Snapshot
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	x.add(operation{Action: action.Upload, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
}

// eventsOf returns the trace events of an op of the given kind.
func (c *compiler) eventsOf(op *operation, kind trace.Kind) []*trace.Event {
	var out []*trace.Event
	for _, id := range op.Events {
		if e := c.tr.Event(id); e != nil && e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// uploadExpr builds an upload step: one file becomes an input named after
// the field (the file differs from run to run), several a list.
func (c *compiler) uploadExpr(in *info, target ast.Expr, st *state) ast.Expr {
	var files []string
	for _, e := range c.eventsOf(&in.operation, trace.KindUpload) {
		files = e.Files
	}
	if len(files) == 1 {
		e, _ := c.textExpr(-1, files[0], in.full, st)
		return perform(action.Upload, target, e)
	}
	l := &ast.ListLit{}
	for _, f := range files {
		l.Elems = append(l.Elems, str(f))
	}
	return perform(action.Upload, target, l)
}

// answerDialogs writes on each step the answer to the native dialogs its
// op opened: dialog: "accept" or "dismiss" and, for an accepted prompt,
// prompt:. The first dialog of a step fixes the answer, as the runtime
// answers every dialog of a step alike.
func (c *compiler) answerDialogs(file *ast.File) {
	byName := map[string]*info{}
	for _, in := range c.infos {
		byName[in.name] = in
	}
	var walk func(stmts []ast.Stmt)
	walk = func(stmts []ast.Stmt) {
		for _, s := range stmts {
			switch s := s.(type) {
			case *ast.Step:
				in := byName[s.Name.Name]
				cl, ok := s.Value.(*ast.Call)
				if in == nil || !ok {
					continue
				}
				if ds := c.eventsOf(&in.operation, trace.KindDialog); len(ds) > 0 && ds[0].Dialog != nil {
					d := ds[0].Dialog
					answer := "dismiss"
					if d.Accept {
						answer = "accept"
					}
					cl.Args = append(cl.Args, named("dialog", str(answer)))
					if d.Accept && d.Type == trace.DialogPrompt && d.Prompt != "" {
						cl.Args = append(cl.Args, named("prompt", str(d.Prompt)))
					}
				}
			case *ast.ForStmt, *ast.IfStmt, *ast.RepeatStmt, *ast.WhileStmt, *ast.TryStmt, *ast.ExploreStmt:
				for _, b := range ast.Bodies(s) {
					walk(b.Stmts)
				}
			}
		}
	}
	for _, d := range file.Decls {
		if t, ok := d.(*ast.Task); ok {
			walk(t.Body.Stmts)
		}
	}
}
