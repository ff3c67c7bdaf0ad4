package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

// Loops over values read from the screen.
//
// "Select A, B and C": the demonstration clicks three checkboxes one after
// the other, each named by one item of an enumeration on the screen. That
// is one step done for every value of a list the screen gives, so it
// compiles to a loop over that list (screenList), the element chosen by
// each value:
//
//	for name in split_list(regex("Select (.+) and click", text(id: "query").text)) {
//	  op3 = click(checkbox(name: name), example: ["A", "B", "C"])
//	}
//
// The evidence: two or more consecutive steps of the same action on
// elements of one kind (see kindAttrs), each showing another value, and
// the values found together in one enumeration on the screen, in the order
// the screen names them or not. Each demonstrated element must be the only
// one of its kind showing its value on its snapshot, so that the loop's
// description picks exactly the element the person did. A list box's
// several options chosen together (Ctrl-click) are the same: one
// multi_select of an option per value. The list program fails on a screen
// that names no value (split_list), so the loop never silently does
// nothing.

// valueLoop is a run of ops [lo, hi] that act once for each value.
type valueLoop struct {
	lo, hi int
	iter   ast.Expr
	values []string
	body   func(v ast.Expr) ast.Expr // the action for one value
}

// findValueLoops finds the runs of ops outside the item loop that act on
// one element per value of a list the screen names.
func (c *compiler) findValueLoops() {
	if c.literal {
		return
	}
	for i := 0; i < len(c.infos); i++ {
		if c.inLoop(i) || c.folded[i] {
			continue
		}
		vl := c.chooseLoop(i)
		if vl == nil {
			vl = c.clickLoop(i)
		}
		if vl == nil {
			vl = c.boxLoop(i)
		}
		if vl == nil {
			continue
		}
		c.valueLoops = append(c.valueLoops, vl)
		for j := vl.lo + 1; j <= vl.hi; j++ {
			c.folded[j] = true
		}
		i = vl.hi
	}
}

// chooseLoop is a list box's options chosen together: op i chose the
// first, op i+1 Ctrl-clicked the others.
func (c *compiler) chooseLoop(i int) *valueLoop {
	in := c.infos[i]
	if in.Action != "choose" || !in.OptionKnown || i+1 >= len(c.infos) || c.inLoop(i+1) {
		return nil
	}
	next := c.infos[i+1]
	if next.Action != "multi_choose" || fieldKey(next.full) != fieldKey(in.full) {
		return nil
	}
	values := append([]string{in.Text}, next.Options...)
	expr, ok := c.lookList(i, values)
	if !ok {
		return nil
	}
	sel := in.desc
	return &valueLoop{lo: i, hi: i + 1, iter: expr, values: values, body: func(v ast.Expr) ast.Expr {
		opt := &ast.Call{Fun: ref("option"), Args: []*ast.Arg{named("name", v), named("within", sel.Expr())}}
		return perform(action.MultiSelect, &ast.ListLit{Elems: []ast.Expr{opt}})
	}}
}

// clickLoop is two or more clicks from op i on elements of one kind, each
// showing another value.
func (c *compiler) clickLoop(i int) *valueLoop {
	first := c.infos[i]
	if first.Action != action.Click {
		return nil
	}
	_, s, idx := findInSnapshot(c.tr, first.Target, first.Snapshot)
	if s == nil || idx < 0 {
		return nil
	}
	ctor, _ := ctorOf(s.Elements[idx].Role)
	kind := kindAttrs(s, idx)
	attr, _ := shownValue(&s.Elements[idx].Attributes)
	if attr == "" {
		return nil
	}
	key := printer.ExprString((&targetDesc{Ctor: ctor, Attrs: kind}).Expr())
	var values []string
	seen := map[string]bool{}
	hi := i - 1
	for j := i; j < len(c.infos) && !c.inLoop(j) && !c.folded[j]; j++ {
		in := c.infos[j]
		if in.Action != action.Click {
			break
		}
		_, sj, k := findInSnapshot(c.tr, in.Target, in.Snapshot)
		if sj == nil || k < 0 {
			break
		}
		a, v := shownValue(&sj.Elements[k].Attributes)
		cj, _ := ctorOf(sj.Elements[k].Role)
		if a != attr || !meaningful(v) || seen[fold(v)] || printer.ExprString((&targetDesc{Ctor: cj, Attrs: kindAttrs(sj, k)}).Expr()) != key {
			break
		}
		if countLike(sj, ctor, kind, attr, v) != 1 || !holds(&sj.Elements[k], ctor, kind, attr, v) {
			break // the value would not pick this element alone
		}
		seen[fold(v)] = true
		values = append(values, v)
		hi = j
	}
	if len(values) < 2 {
		return nil
	}
	expr, ok := c.lookList(i, values)
	if !ok {
		return nil
	}
	if reads := readsChosen(s, idx, expr); reads != "" || !shown(expr) {
		return nil
	}
	return &valueLoop{lo: i, hi: hi, iter: expr, values: values, body: func(v ast.Expr) ast.Expr {
		d := &ast.Call{Fun: ref(ctor)}
		for _, a := range kind {
			d.Args = append(d.Args, named(a.Name, str(a.Value)))
		}
		d.Args = append(d.Args, named(attr, v))
		return perform(action.Click, d)
	}}
}

// valueLoopAt returns the value loop that starts at op i, or nil.
func (c *compiler) valueLoopAt(i int) *valueLoop {
	for _, vl := range c.valueLoops {
		if vl.lo == i {
			return vl
		}
	}
	return nil
}

// valueLoopStmt emits a value loop: one step, done for every value.
func (c *compiler) valueLoopStmt(vl *valueLoop) ast.Stmt {
	in := c.infos[vl.lo]
	name := c.unique("value", "_item")
	examples := &ast.ListLit{}
	for _, v := range vl.values {
		examples.Elems = append(examples.Elems, str(v))
	}
	action := vl.body(ref(name)).(*ast.Call)
	action.Args = append(action.Args, named("example", examples))
	var events []string
	for j := vl.lo; j <= vl.hi; j++ {
		events = append(events, c.infos[j].Events...)
	}
	s := &ast.Step{Name: ast.Ident{Name: in.name}, Value: action}
	s.Comments.Trailing = &ast.Comment{Text: "# " + cite(events)}
	f := &ast.ForStmt{Var: ast.Ident{Name: name}, Iter: vl.iter, Body: &ast.Block{Stmts: []ast.Stmt{s}}}
	f.Comments.Leading = []ast.Comment{{Text: fmt.Sprintf("# iterative: the demonstration did this for %s, each named on the screen; the loop does it for every value the screen names", quoteAll(vl.values))}}
	c.evidence = append(c.evidence, Evidence{Step: in.name, Value: strings.Join(vl.values, ", "), Chosen: printer.ExprString(vl.iter),
		Why: fmt.Sprintf("ops %s–%s did one %s per value of a list the screen names", in.name, c.infos[vl.hi].name, in.Action)})
	return f
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for k, v := range vs {
		q[k] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// boxLoop is one checkbox ticked, named by a value the screen writes where
// it would write a list ("Select A and click Submit" — another instance
// says "Select A, B and click Submit"): check boxes are chosen as a set,
// so the step becomes a loop over split_list of that place. A value the
// screen quotes names one box and stays a single choice.
func (c *compiler) boxLoop(i int) *valueLoop {
	in := c.infos[i]
	if in.Action != action.Click || c.inLoop(i) || c.boxClick(i-1) || c.boxClick(i+1) {
		return nil // boxes ticked one after another and not named as a list: each its own choice
	}
	if _, ok := library["split_list"]; !ok {
		return nil
	}
	_, s, idx := findInSnapshot(c.tr, in.Target, in.Snapshot)
	if s == nil || idx < 0 || s.Elements[idx].Role != "checkbox" {
		return nil
	}
	attr, v := shownValue(&s.Elements[idx].Attributes)
	kind := kindAttrs(s, idx)
	if !meaningful(v) || strings.ContainsAny(v, ",;") || alike(s, "checkbox", kind) < 2 || countLike(s, "checkbox", kind, attr, v) != 1 {
		return nil
	}
	expr, ok := c.lookValue(i, v)
	if !ok || quoted(expr) || !shown(expr) || readsChosen(s, idx, expr) != "" {
		return nil
	}
	return &valueLoop{lo: i, hi: i, iter: call("split_list", expr), values: []string{v}, body: func(val ast.Expr) ast.Expr {
		d := &ast.Call{Fun: ref("checkbox")}
		for _, a := range kind {
			d.Args = append(d.Args, named(a.Name, str(a.Value)))
		}
		d.Args = append(d.Args, named(attr, val))
		return perform(action.Click, d)
	}}
}

// boxClick reports whether op j is a click on a checkbox.
func (c *compiler) boxClick(j int) bool {
	return j >= 0 && j < len(c.infos) && c.infos[j].Action == action.Click && c.infos[j].full != nil && c.infos[j].full.Role == "checkbox"
}
