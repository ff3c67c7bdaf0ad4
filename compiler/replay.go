package compiler

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Steps of replayed recordings (DevTools Recorder imports) that are not a
// person's input: a hover, a wait for elements or a page condition, a
// viewport resize, and a step's own timeout.

// replayOp turns a hover, wait or viewport event into its op.
func replayOp(e *trace.Event) operation {
	switch e.Kind {
	case trace.KindHover:
		return operation{Action: action.Move, Target: e.Target, Snapshot: e.Snapshot}
	case trace.KindViewport:
		return operation{Action: action.SetViewport, Viewport: e.Viewport}
	}
	if e.Wait != nil && e.Target == nil {
		return operation{Action: action.WaitScript, Text: e.Wait.Expression}
	}
	return operation{Action: action.Wait, Target: e.Target, Snapshot: e.Snapshot, Wait: e.Wait}
}

// replayExpr builds the call of a replay op; nil for other ops.
func replayExpr(op operation, tgt func() ast.Expr) ast.Expr {
	switch op.Action {
	case action.Move:
		return perform(action.Move, tgt())
	case action.SetViewport:
		if op.Viewport == nil {
			return nil
		}
		return perform(action.SetViewport, num(op.Viewport.Width), num(op.Viewport.Height))
	case action.WaitScript:
		return perform(action.WaitScript, str(op.Text))
	case action.Scroll:
		if op.To == nil {
			return nil
		}
		c := perform(action.Scroll)
		if op.Target != nil {
			c.Args = append(c.Args, &ast.Arg{Value: tgt()})
		}
		c.Args = append(c.Args, named("x", numf(op.To[0])), named("y", numf(op.To[1])))
		return c
	case action.WaitNavigation:
		return perform(action.WaitNavigation, str(op.Text))
	case action.Wait:
		if op.Wait == nil || op.Target == nil {
			return nil
		}
		c := perform(action.Wait, tgt())
		if op.Wait.Count > 1 || (op.Wait.Count > 0 && op.Wait.Compare != "") {
			c.Args = append(c.Args, named("count", num(op.Wait.Count)))
		}
		if op.Wait.Compare != "" && op.Wait.Compare != ">=" {
			c.Args = append(c.Args, named("compare", str(op.Wait.Compare)))
		}
		if op.Wait.Hidden {
			c.Args = append(c.Args, named("hidden", &ast.BoolLit{Value: true}))
		}
		return c
	}
	return nil
}

// withTimeout adds timeout: (seconds) to a step whose events carry one.
func withTimeout(e ast.Expr, tr *trace.Trace, events []string) ast.Expr {
	c, ok := e.(*ast.Call)
	if !ok || tr == nil {
		return e
	}
	var ms int64
	for _, id := range events {
		for i := range tr.Events {
			if tr.Events[i].ID == id && tr.Events[i].Timeout > ms {
				ms = tr.Events[i].Timeout
			}
		}
	}
	if ms <= 0 {
		return e
	}
	c.Args = append(c.Args, named("timeout", &ast.NumberLit{Raw: strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64)}))
	return c
}

// withButton adds click's button: for a click with another mouse button
// than the primary one.
func withButton(e ast.Expr, button string) ast.Expr {
	if c, ok := e.(*ast.Call); ok && button != "" && button != trace.ButtonLeft {
		c.Args = append(c.Args, named("button", str(button)))
	}
	return e
}

// frameList is a frame: attribute's list literal.
func frameList(path []int) ast.Expr {
	l := &ast.ListLit{}
	for _, n := range path {
		l.Elems = append(l.Elems, num(n))
	}
	return l
}

// navigationWaits follows each op of an imported recording that asserted
// a navigation (the Recorder's assertedEvents, imported as a navigate event
// the op's event caused) with a wait_navigation for that address, as a
// replayer waits for it: a click in a frame that navigates the frame is not
// done when the click is.
func navigationWaits(tr *trace.Trace, ops []operation) []operation {
	if tr.Source != trace.SourceDevTools {
		return ops
	}
	byID := map[string]*trace.Event{}
	for i := range tr.Events {
		byID[tr.Events[i].ID] = &tr.Events[i]
	}
	var out []operation
	for _, op := range ops {
		out = append(out, op)
		if op.Action == action.Open {
			continue
		}
		for _, id := range op.Events {
			if e := byID[id]; e != nil && e.Kind == trace.KindNavigate && e.Cause != "" && e.URL != "" && !showsTyped(tr, e.URL) {
				out = append(out, operation{Action: action.WaitNavigation, Text: e.URL, Events: []string{id}})
				out[len(out)-2].Events = without(out[len(out)-2].Events, id)
			}
		}
	}
	return out
}

// showsTyped reports whether an address carries a value the recording
// typed (a search's ?q=…). Such an address is data: a run with another
// input loads another one, so waiting for the recorded address would fail
// it. The step that caused the navigation still waits for it to begin.
func showsTyped(tr *trace.Trace, addr string) bool {
	u, err := url.QueryUnescape(addr)
	if err != nil {
		u = addr
	}
	u = strings.ToLower(strings.ReplaceAll(u, "+", " "))
	for _, e := range tr.Events {
		if e.Kind != trace.KindInput && e.Kind != trace.KindChange {
			continue
		}
		if v := strings.ToLower(strings.TrimSpace(e.Value)); len([]rune(v)) >= 3 && strings.Contains(u, v) {
			return true
		}
	}
	return false
}

func without(ids []string, id string) []string {
	var out []string
	for _, x := range ids {
		if x != id {
			out = append(out, x)
		}
	}
	return out
}

func numf(f float64) *ast.NumberLit {
	return &ast.NumberLit{Raw: strconv.FormatFloat(f, 'f', -1, 64)}
}

// selectorName names an anchor described by a css selector alone after
// the selector's last part: "my-widget >>> button.go" → "button.go".
func selectorName(d *targetDesc) string {
	css := d.Get("css")
	if css == "" {
		return ""
	}
	parts := strings.FieldsFunc(css, func(r rune) bool { return r == ' ' || r == '>' || r == '+' || r == '~' })
	if len(parts) == 0 {
		return ""
	}
	last := parts[len(parts)-1]
	if i := strings.IndexAny(last, "[:"); i > 0 {
		last = last[:i]
	}
	return last
}
