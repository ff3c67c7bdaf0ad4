package compiler

import (
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// dialog gives a dialog event's answer to the op of the event that opened
// it (its cause; else the last op): the step then says dialog: and, for an
// accepted prompt, prompt:. The first dialog of a step fixes the answer,
// as the runtime answers every dialog of a step alike.
func (x *extractor) dialog(e *trace.Event) {
	k, ok := x.opOf[e.Cause]
	if !ok {
		k = len(x.ops) - 1
	}
	if k < 0 || e.Dialog == nil {
		x.pending = append(x.pending, e.ID)
		return
	}
	op := &x.ops[k]
	if op.Dialog == "" {
		op.Dialog = "dismiss"
		if e.Dialog.Accept {
			op.Dialog = "accept"
			if e.Dialog.Type == trace.DialogPrompt {
				op.Prompt = e.Dialog.Prompt
			}
		}
	}
	x.attach(k, e.ID)
}

// upload makes files chosen for a file input an upload op; the click that
// opened the file chooser on the same input is part of it (replayed, it
// would only open a chooser).
func (x *extractor) upload(e *trace.Event) {
	if l := x.last(); l != nil && l.Action == "click" && l.Dialog == "" && fieldKey(l.Target) != "" &&
		fieldKey(l.Target) == fieldKey(e.Target) {
		l.Action, l.Target, l.Snapshot, l.Files = "upload", e.Target, e.Snapshot, e.Files
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	x.add(Op{Action: "upload", Target: e.Target, Snapshot: e.Snapshot, Files: e.Files}, e.ID)
}

// uploadExpr builds an upload step: one file becomes an input named after
// the field (the file differs from run to run), several a list.
func (c *compiler) uploadExpr(in *info, target ast.Expr, st *state) ast.Expr {
	if len(in.Files) == 1 {
		return call("upload", target, c.textExpr(in.Files[0], in.full, st))
	}
	l := &ast.ListLit{}
	for _, f := range in.Files {
		l.Elems = append(l.Elems, str(f))
	}
	return call("upload", target, l)
}

// withDialog adds the op's dialog answer to its step's call.
func withDialog(in *info, e ast.Expr) ast.Expr {
	cl, ok := e.(*ast.Call)
	if !ok || in.Dialog == "" {
		return e
	}
	cl.Args = append(cl.Args, named("dialog", str(in.Dialog)))
	if in.Prompt != "" {
		cl.Args = append(cl.Args, named("prompt", str(in.Prompt)))
	}
	return cl
}
