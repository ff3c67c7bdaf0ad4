package compiler

import (
	"strconv"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The emit stage (doc.go): the steps in the order of the ops, each op's
// action call, the loop, the shared anchors and the task around them.

// source is an earlier text value.
type source struct {
	name, value string
	field       string // the field the value was typed into, if any
}

// state is what is known while emitting steps in order.
type state struct {
	sources  []source // earlier text values, oldest first
	elements []int    // indexes of earlier element-valued ops
	secrets  []source // secret inputs by the text typed, never a source of programs
}

// stepExpr builds the action call of op i.
func (c *compiler) stepExpr(i int, st *state) ast.Expr {
	in := c.infos[i]
	tgt := func() ast.Expr { return c.targetExpr(i, in.full, in.desc, st, in.Snapshot) }
	if e := replayExpr(in.operation, tgt); e != nil {
		return e
	}
	switch in.Action {
	case action.Click, action.DoubleClick, action.RightClick, action.Clear:
		return perform(in.Action, tgt())
	case "choose":
		return c.chooseExpr(i, st)
	case "multi_choose":
		return c.multiChooseExpr(i, st)
	case action.Back:
		return perform(action.Back)
	case action.Drag:
		return perform(action.Drag, tgt(), c.targetExpr(i, in.dest, in.dsc, st, in.DestSnapshot))
	case action.Upload:
		return c.uploadExpr(in, tgt(), st)
	case action.Type:
		target := tgt()
		return withExample(perform(action.Type, target), in.Text)(c.textExpr(i, in.Text, in.full, st))
	case action.Paste:
		target := tgt()
		if in.Text == "" {
			return perform(action.Paste, target)
		}
		return withExample(perform(action.Paste, target), in.Text)(c.textExpr(i, in.Text, in.full, st))
	case action.SelectText:
		if in.Target == nil {
			return perform(action.SelectText, str(in.Text))
		}
		return perform(action.SelectText, tgt())
	case action.Copy, action.Cut:
		if in.Action == action.Copy && in.Text != "" {
			for k := len(st.sources) - 1; k >= 0; k-- {
				if st.sources[k].value == in.Text {
					return perform(action.Copy, ref(st.sources[k].name))
				}
			}
		}
		if in.Target != nil {
			return perform(in.Action, tgt())
		}
		return perform(in.Action)
	case action.Key:
		if in.Target != nil {
			return &ast.Call{Fun: ref(string(action.Key)), Args: []*ast.Arg{{Value: str(in.Text)}, named("target", tgt())}}
		}
		return perform(action.Key, str(in.Text))
	case action.Enter, action.Save:
		if in.Target != nil && in.Target.Editable {
			return perform(in.Action, tgt())
		}
		return perform(in.Action)
	case action.Open:
		return perform(action.Open, str(in.Text))
	case action.Launch:
		return perform(action.Launch, str(in.Text))
	case action.Swipe:
		return c.swipeExpr(i, st)
	case action.NewTab:
		if in.Text == "" {
			return perform(action.NewTab)
		}
		return perform(action.NewTab, str(in.Text))
	case action.SwitchWindow:
		return perform(action.SwitchWindow, str(in.Text))
	case action.CloseTab:
		return perform(action.CloseTab)
	case action.Scroll:
		return &ast.Call{Fun: ref(string(action.Scroll)), Args: []*ast.Arg{named("direction", str(in.Text))}}
	}
	return perform(in.Action)
}

// record notes the value an emitted step produced.
func (c *compiler) record(i int, st *state) {
	in := c.infos[i]
	switch in.Action {
	case action.Type, action.Paste, action.Copy, action.Cut, action.SelectText:
		if in.Text != "" && !isSecret(in.full) {
			src := source{name: in.name, value: in.Text}
			if in.Action == action.Type || in.Action == action.Paste {
				src.field = fieldKey(in.full)
			}
			st.sources = append(st.sources, src)
		}
	case action.Click, action.DoubleClick, action.RightClick, action.Drag:
		st.elements = append(st.elements, i)
	}
}

// emit builds the workflow file: the driver, the inputs, the anchors
// several steps share, then one step per op (a loop's ops in a for).
func (c *compiler) emit(opts Options) *ast.File {
	for i, in := range c.infos {
		in.name = "op" + strconv.Itoa(i+1)
	}
	steps := c.emitSteps()
	// Name the anchors after the steps: inputs have taken their names then.
	anchors := c.nameAnchors()
	steps = c.withReveals(steps)
	return c.taskFile(opts, anchors, steps)
}

// emitSteps builds the steps in the order of the ops, folding a loop's ops
// into its for statement and a press run or value loop into theirs.
func (c *compiler) emitSteps() []ast.Stmt {
	st := &state{}
	var steps, loopBody []ast.Stmt
	var outer state // what is visible after the loop
	restored := false
	runEnd := -1 // the last op of a press run a loop already does (key_run.go)
	for i, in := range c.infos {
		if c.folded[i] || i <= runEnd {
			continue // a later iteration of the loop, done by the loop
		}
		if i == c.loopLo {
			outer = state{sources: append([]source(nil), st.sources...), elements: append([]int(nil), st.elements...), secrets: st.secrets}
		}
		if c.loopLo >= 0 && i > c.loopHi && !restored {
			restored = true
			// Loop steps are not visible after the loop; inputs declared
			// inside it are.
			for _, src := range st.sources {
				if !isStepName(src.name) {
					outer.sources = append(outer.sources, src)
				}
			}
			outer.secrets = st.secrets
			*st = outer
		}
		if vl := c.valueLoopAt(i); vl != nil {
			steps = append(steps, c.valueLoopStmt(vl))
			continue
		}
		if loop, end := c.runLoop(i, st); loop != nil {
			steps, runEnd = append(steps, loop...), end
			continue
		}
		s := &ast.Step{Name: ast.Ident{Name: in.name}, Value: withTimeout(withButton(c.withExample(i, c.stepExpr(i, st)), in.Button), c.tr, in.Events)}
		s.Comments.Trailing = &ast.Comment{Text: "# " + cite(in.Events)}
		c.record(i, st)
		if c.inLoop(i) {
			loopBody = append(loopBody, s)
			if i == c.loopHi {
				steps = append(steps, c.loopStmts(loopBody)...)
			}
			continue
		}
		steps = append(steps, s)
	}
	return steps
}

// loopStmts wraps the loop's body in its for statement over the rows or
// items, preceded by the step that guards it when it has one.
func (c *compiler) loopStmts(body []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	fn := "rows"
	if c.loopItems {
		fn = "items"
	}
	var iter ast.Expr = call(fn, c.loopDesc.Expr())
	if c.loopRow > 0 {
		iter = &ast.Slice{X: iter, Lo: num(c.loopRow)}
	}
	if c.loopIter != nil {
		iter = c.loopIter
	}
	f := &ast.ForStmt{Var: ast.Ident{Name: c.loopVar()}, Iter: iter, Body: &ast.Block{Stmts: body}}
	f.Comments.Leading = []ast.Comment{{Text: c.loopComment()}}
	if c.loopGuard != nil {
		out = append(out, &ast.Step{Name: ast.Ident{Name: c.unique("has_items", "_")}, Value: c.loopGuard})
		f.Comments.Leading = []ast.Comment{{Text: c.loopNote}}
	}
	return append(out, f)
}

// nameAnchors declares the anchors several steps share, naming each after
// its description and pointing the steps' references at that name.
func (c *compiler) nameAnchors() []ast.Stmt {
	var anchors []ast.Stmt
	for _, key := range c.anchorKeys {
		d := c.anchorDesc[key]
		base := identName(firstNonEmpty(d.Get("name"), d.Get("label"), d.Get("placeholder"), d.Get("id"), d.Get("text"), selectorName(d), d.Ctor))
		suffix := "_" + d.Ctor
		if d.Ctor == "textbox" {
			suffix = "_box"
		}
		name := c.unique(base, suffix)
		for _, r := range c.anchorRefs[key] {
			r.Name = name
		}
		anchors = append(anchors, &ast.AnchorDecl{Name: ast.Ident{Name: name}, Value: d.Expr()})
	}
	return anchors
}

// taskFile puts the driver, inputs, anchors and steps in a task named
// after the trace's title, with the comment that says how it was made.
func (c *compiler) taskFile(opts Options, anchors, steps []ast.Stmt) *ast.File {
	driverName := c.tr.Driver
	if driverName == "" {
		driverName = trace.DriverBrowser
	}
	body := []ast.Stmt{&ast.DriverDecl{Name: ast.Ident{Name: driverName}}}
	for _, in := range c.inputs {
		body = append(body, in)
	}
	if len(anchors) > 0 {
		anchors[0].Meta().BlankLine = true
		body = append(body, anchors...)
	}
	if len(steps) > 0 {
		steps[0].Meta().BlankLine = true
		body = append(body, steps...)
	}
	name, goal := "recorded_task", "Replay the recorded demonstration"
	if c.tr.Title != "" {
		name, goal = identName(c.tr.Title), c.tr.Title
	}
	task := &ast.Task{Name: ast.Ident{Name: name}, Goal: &ast.StringLit{Value: goal}, Body: &ast.Block{Stmts: body}}
	task.Comments.Leading = []ast.Comment{{Text: "# Compiled from " + compiledFrom(opts) + " by cogflow compile (rules only, no LLM). Edit freely; `cogflow fmt` keeps the layout."}}
	if c.todo {
		task.Comments.Leading = append(task.Comments.Leading, ast.Comment{Text: "# Steps with a \"TODO\" choice need a description of which element to pick."})
	}
	return &ast.File{Name: opts.Filename, Decls: []ast.Decl{task}}
}
