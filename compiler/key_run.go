package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

// keyRunCheck guards a run of one key pressed again and again on one
// element: a slider stepped with the arrow keys, a counter with "+". The
// number of presses is what the demonstration's starting state needed,
// so on a new instance the same count lands somewhere else and the run
// would report ok with the wrong value. When an element's text changed
// over the run to a value the screen named before it ("Select -7 with
// the slider"), the run is followed by an assertion that the element
// shows that value, so a wrong count stops the run loudly. Pressing until
// the value shows needs a loop (`until`), which the language does not
// have yet; the warning says so.
//
// It returns nil unless op i ends such a run.
func (c *compiler) keyRunCheck(i int) ast.Expr {
	if c.literal || i < 0 || i >= len(c.infos) {
		return nil
	}
	start := i
	for start > 0 && sameKeyPress(c.infos[start-1], c.infos[i]) {
		start--
	}
	if i-start < 1 || !sameKeyPress(c.infos[i], c.infos[i]) {
		return nil
	}
	if i+1 < len(c.infos) && sameKeyPress(c.infos[i+1], c.infos[i]) {
		return nil // the run goes on
	}
	before, after := c.runSnapshots(start, i)
	xb, xa := c.screenIndexOf(before), c.screenIndexOf(after)
	if xb == nil || xa == nil {
		return nil
	}
	was := map[string]string{}
	for k := range xb.snap.Elements {
		if ref := xb.snap.Elements[k].Ref; ref != "" {
			was[ref] = xb.texts[k]
		}
	}
	for k := range xa.snap.Elements {
		id, now := xa.snap.Elements[k].Ref, xa.texts[k]
		old, seen := was[id]
		if id == "" || !seen || now == "" || now == old || len(now) > 40 {
			continue
		}
		desc, _ := sourceDesc(c.tr, xa, k)
		if desc == nil {
			continue
		}
		shown := &ast.Member{X: desc.Expr(), Name: ast.Ident{Name: xa.member[k]}}
		want, ok := c.screenValue(start, now)
		if !ok || strings.Contains(printer.ExprString(want), desc.String()) {
			continue // the value is not named elsewhere, or only by the element itself
		}
		in := c.infos[i]
		c.warn(in.Events,
			"%s: %q was pressed %d times until %s showed %q, the value the screen names; another instance needs another count, so the run stops there when the value differs (pressing until the value shows needs a loop)",
			in.name, in.Text, i-start+1, desc.String(), now)
		return &ast.Call{Fun: ref(string(action.Assert)), Args: []*ast.Arg{
			{Value: &ast.Binary{Op: "==", X: shown, Y: want}},
			named("message", str(fmt.Sprintf("pressing %s %d times, as demonstrated, did not bring %s to the value the screen names", in.Text, i-start+1, desc.String()))),
		}}
	}
	return nil
}

// sameKeyPress reports whether a and b press the same key on the same
// element.
func sameKeyPress(a, b *info) bool {
	if a.Action != action.Key || b.Action != action.Key || a.Text != b.Text || a.Target == nil || b.Target == nil {
		return false
	}
	return a.Target.Ref != "" && a.Target.Ref == b.Target.Ref
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
