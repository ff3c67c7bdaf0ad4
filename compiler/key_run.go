package compiler

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// A press run is one key pressed again and again on one element (a slider
// stepped with the arrow keys, a counter with "+"), or one control clicked
// again and again (a calendar's "Next" until the month shows). The number
// of presses is what the demonstration's starting state needed, so on a
// new instance the same count lands somewhere else. When an element's text
// changed over the run to a value the screen named before it ("Select -7
// with the slider"), the run compiles to a loop that presses until the
// element shows that value (runLoop), bounded, and followed by an
// assertion: a loop that cannot reach the value stops the run loudly,
// never reports ok with the wrong value.

// pressRun is what a run of presses changed: the element that shows the
// value, the value the screen names, and the texts before and after.
type pressRun struct {
	start, end int
	shown      ast.Expr // the element's text, read live
	shownDesc  string
	want       ast.Expr // the value the screen names
	old, now   string
}

// runLoop returns the statements that replace what starts at op i: a
// number loop (loop_choice.go), a page search (page_search.go), or the
// press run starting at op i (a while per direction for a number and a key with an opposite,
// else an until; then an assert), and the run's last op; nil when op i
// starts no such run.
func (c *compiler) runLoop(i int, st *state) (stmts []ast.Stmt, end int) {
	if loop, end := c.numberLoopStmt(i); loop != nil {
		return []ast.Stmt{loop}, end
	}
	if stmts := c.pageSearch(i, st); stmts != nil {
		return stmts, i
	}
	r := c.pressRunAt(i)
	if r == nil {
		return nil, i
	}
	in := c.infos[i]
	count := r.end - r.start + 1
	bound := min(max(100, 4*count), 1000)
	opts := []*ast.Arg{}
	if bound != 100 {
		opts = append(opts, named("max", num(bound)))
	}
	body := func(k int, key string) *ast.Block {
		e := c.stepExpr(k, st)
		if call, ok := e.(*ast.Call); ok && key != "" && len(call.Args) > 0 {
			call.Args[0] = &ast.Arg{Value: str(key)}
		}
		s := &ast.Step{Name: ast.Ident{Name: c.infos[k].name}, Value: withTimeout(withButton(e, c.infos[k].Button), c.tr, c.infos[k].Events)}
		s.Comments.Trailing = &ast.Comment{Text: "# " + cite(c.infos[k].Events)}
		return &ast.Block{Stmts: []ast.Stmt{s}}
	}
	what := fmt.Sprintf("%q was pressed", in.Text)
	if in.Action != action.Key {
		what = fmt.Sprintf("%s was clicked", in.desc.String())
	}
	note := fmt.Sprintf("# %s %d times until %s showed %q, the value the screen names; another instance needs another count", what, count, r.shownDesc, r.now)
	c.warn(in.Events, "%s: %s %d times until %s showed %q, the value the screen names; it compiles to a loop that presses until the value shows", in.name, what, count, r.shownDesc, r.now)
	from, errOld := strconv.ParseFloat(r.old, 64)
	to, errNow := strconv.ParseFloat(r.now, 64)
	back, paired := oppositeKey[in.Text]
	if errNow == nil {
		r.want = signed(r.want)
	}
	var check ast.Expr = &ast.Binary{Op: "==", X: r.shown, Y: r.want}
	if in.Action == action.Key && paired && errOld == nil && errNow == nil && from != to {
		up, down := in.Text, back
		if to < from {
			up, down = back, in.Text
		}
		n := func(e ast.Expr) ast.Expr { return call("parse_number", e) }
		w1 := &ast.WhileStmt{Cond: &ast.Binary{Op: "<", X: n(r.shown), Y: n(r.want)}, Options: opts, Body: body(r.start, up)}
		w2 := &ast.WhileStmt{Cond: &ast.Binary{Op: ">", X: n(r.shown), Y: n(r.want)}, Options: opts, Body: body(r.start+1, down)}
		w1.Comments.Leading = []ast.Comment{{Text: note + "; " + up + " raises it, " + down + " lowers it"}}
		stmts = []ast.Stmt{w1, w2}
		check = &ast.Binary{Op: "==", X: n(r.shown), Y: n(r.want)}
	} else {
		u := &ast.WhileStmt{Until: true, Cond: &ast.Binary{Op: "==", X: r.shown, Y: r.want}, Options: opts, Body: body(r.start, "")}
		u.Comments.Leading = []ast.Comment{{Text: note}}
		stmts = []ast.Stmt{u}
	}
	stmts = append(stmts, &ast.Step{Name: ast.Ident{Name: c.unique("shows_value", "_")}, Value: &ast.Call{Fun: ref(string(action.Assert)), Args: []*ast.Arg{
		{Value: check},
		named("message", str(fmt.Sprintf("pressing did not bring %s to the value the screen names", r.shownDesc))),
	}}})
	return stmts, r.end
}

// signed lets the number patterns of a value read from the screen take
// a minus sign: a demonstration that moved to "55" learned "[0-9]+", and
// on an instance that asks for -7 that pattern would read 7, which the
// loop would then reach and call done.
func signed(e ast.Expr) ast.Expr {
	c, ok := e.(*ast.Call)
	if !ok {
		if b, ok := e.(*ast.Binary); ok {
			return &ast.Binary{Op: b.Op, X: signed(b.X), Y: signed(b.Y)}
		}
		return e
	}
	out := &ast.Call{Fun: c.Fun, Args: make([]*ast.Arg, len(c.Args))}
	for k, a := range c.Args {
		out.Args[k] = &ast.Arg{Name: a.Name, Value: signed(a.Value)}
	}
	if f, ok := c.Fun.(*ast.Ref); ok && f.Name == "regex" && len(c.Args) == 2 {
		if lit, ok := c.Args[0].Value.(*ast.StringLit); ok {
			pat := lit.Value
			if strings.HasPrefix(pat, "[0-9]+") {
				pat = "-?" + pat
			}
			out.Args[0] = &ast.Arg{Value: str(strings.ReplaceAll(pat, "([0-9]+", "(-?[0-9]+"))}
		}
	}
	return out
}

// oppositeKey pairs the keys that step a value one way with those that
// step it back.
var oppositeKey = map[string]string{
	"ArrowRight": "ArrowLeft", "ArrowLeft": "ArrowRight", "ArrowUp": "ArrowDown", "ArrowDown": "ArrowUp",
	"PageUp": "PageDown", "PageDown": "PageUp", "+": "-", "-": "+",
}

// pressRunAt returns the press run that starts at op i, or nil: at least
// two presses, not in an item loop, and an element whose text changed over
// the run to a value the screen named before it, other than by the element
// itself. Of several such elements the one with the shortest text wins:
// the value's own label (#val "55"), not the area around it ("55 Submit").
func (c *compiler) pressRunAt(i int) *pressRun {
	if c.literal || i < 0 || i >= len(c.infos) || c.inLoop(i) || !samePress(c.infos[i], c.infos[i]) {
		return nil
	}
	if i > 0 && samePress(c.infos[i-1], c.infos[i]) {
		return nil // not the run's start (a run may be the first op: a trace without navigation)
	}
	end := i
	for end+1 < len(c.infos) && samePress(c.infos[end+1], c.infos[i]) && !c.inLoop(end+1) && !c.folded[end+1] {
		end++
	}
	if end == i {
		return nil
	}
	before, after := c.runSnapshots(i, end)
	xb, xa := c.screenIndexOf(before), c.screenIndexOf(after)
	if xb == nil || xa == nil {
		return nil
	}
	// An element is the same before and after by its ref, or, when the
	// page drew it anew (a calendar's title), by its place.
	was, wasAt := map[string]string{}, map[string]string{}
	for k := range xb.snap.Elements {
		e := &xb.snap.Elements[k]
		if e.Ref != "" {
			was[e.Ref] = xb.texts[k]
		}
		if e.Path != "" {
			wasAt[e.Role+" "+e.Path] = xb.texts[k]
		}
	}
	oldText := func(k int) (string, bool) {
		e := &xa.snap.Elements[k]
		if old, ok := was[e.Ref]; ok && e.Ref != "" {
			return old, true
		}
		old, ok := wasAt[e.Role+" "+e.Path]
		return old, ok && e.Path != ""
	}
	var changed []int
	for k := range xa.snap.Elements {
		if inCell(xa.snap, k) || interactiveRole(&xa.snap.Elements[k]) {
			continue // a control, or a grid's cell (a calendar's days), is not the value the control steps
		}
		if old, seen := oldText(k); seen && xa.texts[k] != "" && xa.texts[k] != old && len(xa.texts[k]) <= 40 {
			changed = append(changed, k)
		}
	}
	sort.SliceStable(changed, func(a, b int) bool { return len(xa.texts[changed[a]]) < len(xa.texts[changed[b]]) })
	for _, k := range changed {
		desc, _ := sourceDesc(c.tr, xa, k)
		if desc == nil {
			continue
		}
		now := xa.texts[k]
		want, ok := c.datePartValue(i, now) // a calendar's month: more specific than the search
		if !ok {
			want, ok = c.screenValue(i, now)
		}
		if !ok || strings.Contains(printer.ExprString(want), desc.String()) {
			continue // the value is not named elsewhere, or only by the element itself
		}
		return &pressRun{start: i, end: end, shown: &ast.Member{X: desc.Expr(), Name: ast.Ident{Name: xa.member[k]}},
			shownDesc: desc.String(), want: want, old: first(oldText(k)), now: now}
	}
	return nil
}

// samePress reports whether a and b press the same key on the same
// element, or click the same control.
func samePress(a, b *info) bool {
	if a.Target == nil || b.Target == nil || a.Action != b.Action {
		return false
	}
	switch a.Action {
	case action.Key:
		return a.Text == b.Text && a.Target.Ref != "" && a.Target.Ref == b.Target.Ref
	case action.Click:
		if a.Target.Ref != "" && a.Target.Ref == b.Target.Ref {
			return true
		}
		return a.desc != nil && b.desc != nil && a.desc.Unique && b.desc.Unique && a.desc.String() == b.desc.String()
	}
	return false
}

// runSnapshots returns the snapshot before op start and the first one
// after op end: the next op's, or the last event's.
func (c *compiler) runSnapshots(start, end int) (before, after string) {
	if ids := c.snapshotsBefore(start); len(ids) > 0 {
		before = ids[0]
	}
	if end+1 < len(c.infos) {
		if ids := c.snapshotsBefore(end + 1); len(ids) > 0 {
			after = ids[0]
		}
	}
	return before, after
}

func first(s string, _ bool) string { return s }

// inCell reports whether element k of s is, or lies inside, a table cell.
func inCell(s *trace.Snapshot, k int) bool {
	for n := 0; k >= 0 && k < len(s.Elements) && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		if s.Elements[k].Cell != nil {
			return true
		}
	}
	return false
}
