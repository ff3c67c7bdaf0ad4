package compiler

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

// semanticOps lists the task's steps as the extractor sees them and the
// places a reply may fill: TODO choices, typed inputs, selections.
func (c *compiler) semanticOps(task *ast.Task) (ops []semanticOp, names []string, judged map[string]*judgement) {
	// Collect the steps in order and the judgements.
	var steps []*ast.Step
	loopSteps := map[*ast.Step]bool{}
	for _, s := range task.Body.Stmts {
		switch s := s.(type) {
		case *ast.Step:
			steps = append(steps, s)
		case *ast.ForStmt:
			for _, t := range s.Body.Stmts {
				if st, ok := t.(*ast.Step); ok {
					steps = append(steps, st)
					loopSteps[st] = true
				}
			}
		}
	}
	isInput := map[string]bool{}
	for _, n := range c.inputNames() {
		isInput[n] = true
	}
	judged = map[string]*judgement{}
	for _, s := range steps {
		n, err := strconv.Atoi(strings.TrimPrefix(s.Name.Name, "op"))
		if err != nil || n < 1 || n > len(c.infos) {
			continue
		}
		in := c.infos[n-1]
		if isSecret(in.full) {
			continue // a password never reaches a prompt
		}
		op := semanticOp{Name: s.Name.Name, Expr: printer.ExprString(s.Value), Value: in.Text}
		if in.desc != nil {
			op.Desc = in.desc.String()
		}
		switch in.Action {
		case action.Type, action.Paste:
			op.Kind = "typed"
		case action.SelectText:
			op.Kind = "selected"
		case action.Copy, action.Cut:
			op.Kind = "copied"
		case action.Click, action.DoubleClick, action.RightClick, action.Drag, action.Enter, action.Save, action.Key, action.Scroll, action.CloseTab:
			op.Value = "" // a key chord or direction is in Expr already
		default:
			op.Value = "" // a URL or a window title is in Expr already
		}
		j := &judgement{step: s, index: n - 1, inLoop: loopSteps[s]}
		call, _ := s.Value.(*ast.Call)
		if call != nil {
			for _, a := range call.Args {
				if d, ok := a.Value.(*ast.Dependency); ok && d.Description != nil && d.Description.Value == todoElement {
					j.todo, j.arg = d, a
				}
			}
			if j.todo == nil && (in.Action == action.Type || in.Action == action.Paste) && len(call.Args) == 2 {
				if r, ok := call.Args[1].Value.(*ast.Ref); ok && isInput[r.Name] {
					j.arg, j.input = call.Args[1], r.Name
					op.Input = r.Name
				}
			}
			if j.todo == nil && in.Action == action.SelectText && len(call.Args) == 1 && !structural(call.Args[0].Value) {
				j.arg = call.Args[0]
			}
		}
		if j.arg != nil {
			op.Judge = true
			judged[s.Name.Name] = j
		}
		ops = append(ops, op)
		names = append(names, s.Name.Name)
	}
	return ops, names, judged
}

// applyDeps fills the judgements from the reply, one at a time, keeping
// each only if the workflow still checks. It returns the steps filled.
func (c *compiler) applyDeps(names []string, judged map[string]*judgement, reply *semanticReply, checks func() error) map[string]bool {
	filled := map[string]bool{}
	for _, name := range names {
		j, d := judged[name], reply.Dep(name)
		if d == nil {
			continue
		}
		if j == nil {
			c.warnStep(name, "semantic: %s needs no judgement; the reply's line about it is ignored", name)
			continue
		}
		old := j.arg.Value
		switch d.Kind {
		case "input":
			continue
		case "fixed":
			switch {
			case j.todo != nil:
				in := c.infos[j.index]
				j.arg.Value = in.desc.Expr()
			case j.input != "":
				j.arg.Value = str(c.infos[j.index].Text)
			default:
				continue
			}
		case "dep":
			dep := &ast.Dependency{Sub: ast.Ident{Name: d.Sub}, Description: str(d.Description)}
			if d.New {
				dep.Main = &ast.Ident{Name: d.Main}
			}
			for _, in := range d.Inputs {
				dep.Inputs = append(dep.Inputs, &ast.Arg{Value: ref(in)})
			}
			if j.todo != nil {
				for _, a := range j.todo.Inputs {
					if a.Name != nil {
						dep.Inputs = append(dep.Inputs, a)
					}
				}
			}
			j.arg.Value = dep
		}
		if err := checks(); err != nil {
			j.arg.Value = old
			c.warnStep(name, "semantic: %s: the reply's %s does not check (%v); kept the rules' step", name, d.Kind, err)
			continue
		}
		filled[name] = true
	}
	return filled
}

// applyParams drops inputs no longer used and names the rest from the
// reply's parameters (stage 6).
func (c *compiler) applyParams(task *ast.Task, reply *semanticReply) {
	// Inputs no longer used are dropped.
	used := map[string]bool{}
	walkBody(task.Body, func(r *ast.Ref) { used[r.Name] = true })
	var kept []*ast.InputDecl
	for _, in := range c.inputs {
		if used[in.Name.Name] {
			kept = append(kept, in)
		}
	}
	// Stage 6: name the inputs from the parameters.
	renames := map[string]string{}
	for i, p := range reply.Params {
		if i >= len(kept) {
			if len(reply.Params) > len(kept) {
				c.warn(nil, "semantic: %d parameters named for %d inputs; the rest are ignored", len(reply.Params), len(kept))
			}
			break
		}
		old := kept[i].Name.Name
		if p == old {
			continue
		}
		if c.taken[p] || isStepName(p) || p == "row" || p == "item" {
			c.warn(nil, "semantic: parameter name %s is taken; input %s keeps its name", p, old)
			continue
		}
		c.taken[p] = true
		renames[old] = p
		kept[i].Name.Name = p
	}
	if len(renames) > 0 {
		walkBody(task.Body, func(r *ast.Ref) {
			if n, ok := renames[r.Name]; ok {
				r.Name = n
			}
		})
	}
	// Rebuild the body with the kept inputs.
	var body []ast.Stmt
	for _, s := range task.Body.Stmts {
		if in, ok := s.(*ast.InputDecl); ok && !used[in.Name.Name] && !contains(kept, in) {
			continue
		}
		body = append(body, s)
	}
	task.Body.Stmts = body
	c.inputs = kept
}
