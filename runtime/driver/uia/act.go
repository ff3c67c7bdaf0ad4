package uia

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Do performs one action, bounded by Action.Timeout (or the driver's),
// and waits until the window's tree is stable.
func (d *Driver) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	return driver.Call(ctx, d.life, a.Op, a.Timeout, func(ctx context.Context) (driver.Result, error) { return d.act(ctx, a) })
}

// act performs the action and then, unless it waited or closed a window,
// walks until the tree is stable, under Do's lock and time-out.
func (d *Driver) act(ctx context.Context, a driver.Action) (driver.Result, error) {
	res, err := d.do(ctx, a)
	if err == nil && a.Op != action.Wait && a.Op != action.CloseWindow {
		err = d.stable(ctx)
	}
	return res, err
}

func (d *Driver) do(ctx context.Context, a driver.Action) (driver.Result, error) {
	var r driver.Result
	var err error
	switch a.Op {
	case action.Click:
		_, err = d.click(ctx, a.Target)
	case action.DoubleClick, action.RightClick, action.Move:
		err = d.pointer(ctx, a.Op, a.Target)
	case action.Drag:
		err = d.drag(ctx, a.Target, a.Target2)
	case action.MultiSelect:
		err = d.multiSelect(ctx, a.Targets)
	case action.Type:
		r.Text, _, err = d.typeText(ctx, a.Target, a.Text)
	case action.Enter:
		err = d.key(ctx, "Enter", a.Target)
	case action.Key:
		err = d.key(ctx, a.Text, a.Target)
	case action.Save:
		err = d.key(ctx, "Ctrl+S", a.Target)
	case action.Copy, action.Cut:
		r.Text, err = d.copyCut(ctx, string(a.Op), a.Target, a.Text)
	case action.Paste:
		r.Text, err = d.paste(ctx, a.Target, a.Text)
	case action.SelectText:
		r.Text, err = d.selectText(ctx, a.Target, a.Text)
	case action.Scroll:
		err = d.scroll(ctx, a.Target, a.Text, a.Number)
	case action.SetValue, action.Invoke, action.Toggle, action.SelectItem, action.Expand, action.Collapse:
		err = d.doPattern(ctx, a)
	case action.MenuPath:
		err = d.menuPath(ctx, a.Path, a.Text)
	default:
		return d.doWindow(ctx, a)
	}
	return r, err
}

// doWindow performs the actions on windows and waiting.
func (d *Driver) doWindow(ctx context.Context, a driver.Action) (driver.Result, error) {
	var r driver.Result
	switch a.Op {
	case action.Open, action.OpenWindow, action.Launch:
		if strings.TrimSpace(a.Text) == "" {
			return r, errors.New("give the application to start: a path, a command or an AppUserModelID")
		}
		w, err := d.auto.Launch(ctx, a.Text)
		if err != nil {
			return r, err
		}
		d.window, r.Window = w.ID, &w
		return r, nil
	case action.SwitchWindow:
		w, err := d.findWindow(a.Text)
		if err != nil {
			return r, err
		}
		if err := d.auto.Activate(w.ID); err != nil {
			return r, err
		}
		d.window, r.Window = w.ID, &w
		return r, nil
	case action.CloseWindow:
		return r, d.closeWindow(a.Text)
	case action.Wait:
		return r, d.wait(ctx, a)
	}
	return r, fmt.Errorf("the uia driver does not perform %q", a.Op)
}

// node finds the UIA node behind an element: in the last walk, else in a
// fresh one (the element may come from an observation made before an
// action replaced the walk), else by what identifies it — its id, or its
// role and name — when that is unique.
func (d *Driver) node(ctx context.Context, e *driver.Element) (*Node, error) {
	if e == nil {
		return nil, errors.New("the action needs a target element")
	}
	if n, ok := d.nodes[e.Ref]; ok {
		return n, nil
	}
	t, err := d.observe(ctx)
	if err != nil {
		return nil, err
	}
	if n, ok := d.nodes[e.Ref]; ok {
		return n, nil
	}
	var found *driver.Element
	for _, c := range t.Elements {
		same := (e.ID != "" && c.ID == e.ID && c.Role == e.Role) || (e.ID == "" && e.Name != "" && c.Name == e.Name && c.Role == e.Role)
		if !same {
			continue
		}
		if found != nil {
			found = nil
			break
		}
		found = c
	}
	if found == nil {
		return nil, fmt.Errorf("the element %s %q is gone from the window", e.Role, firstOf(e.Name, e.Text, e.ID))
	}
	return d.nodes[found.Ref], nil
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// clickPatterns are the API-first ways to click, in order of preference:
// the pattern a control's own click handler runs.
func clickPattern(n *Node) (PatternOp, bool) {
	switch {
	case n.Has(PatternInvoke):
		return OpInvoke, true
	case n.Has(PatternToggle):
		return OpToggle, true
	case n.Has(PatternSelectionItem):
		return OpSelect, true
	case n.Has(PatternExpandCollapse):
		if n.Expanded == 1 {
			return OpCollapse, true
		}
		return OpExpand, true
	}
	return 0, false
}

// click clicks an element API-first and reports how: the pattern's name,
// or "input" when it fell back to a synthesized click (no pattern, or the
// pattern call failed — some providers implement Invoke but fail it
// when their window is not in front).
func (d *Driver) click(ctx context.Context, e *driver.Element) (string, error) {
	n, err := d.node(ctx, e)
	if err != nil {
		return "", err
	}
	if op, ok := clickPattern(n); ok && n.Enabled {
		if err := d.auto.Pattern(n.Ref, op, ""); err == nil {
			return op.String(), nil
		}
	}
	x, y, err := d.point(n)
	if err != nil {
		return "", err
	}
	return "input", d.auto.Click(x, y, "left", 1)
}

// point is where pointer input aims at an element: scrolled into view
// first when it is off screen and can be, then UIA's clickable point or
// the bounds' center.
func (d *Driver) point(n *Node) (float64, float64, error) {
	if n.Offscreen && n.Has(PatternScrollItem) {
		if err := d.auto.Pattern(n.Ref, OpScrollIntoView, ""); err != nil {
			return 0, 0, err
		}
	}
	x, y, ok, err := d.auto.ClickablePoint(n.Ref)
	if err != nil {
		return 0, 0, err
	}
	if !ok {
		if n.Rect.W <= 0 || n.Rect.H <= 0 {
			return 0, 0, fmt.Errorf("%s %q has no place on the screen to click", n.Role(), n.Name)
		}
		x, y = n.Rect.Center()
	}
	return x, y, nil
}

// pointer performs the pointer-only actions.
func (d *Driver) pointer(ctx context.Context, op action.Name, e *driver.Element) error {
	n, err := d.node(ctx, e)
	if err != nil {
		return err
	}
	x, y, err := d.point(n)
	if err != nil {
		return err
	}
	switch op {
	case action.DoubleClick:
		return d.auto.Click(x, y, "left", 2)
	case action.RightClick:
		return d.auto.Click(x, y, "right", 1)
	}
	return d.auto.MoveTo(x, y)
}

func (d *Driver) drag(ctx context.Context, from, to *driver.Element) error {
	a, err := d.node(ctx, from)
	if err != nil {
		return err
	}
	b, err := d.node(ctx, to)
	if err != nil {
		return err
	}
	x1, y1, err := d.point(a)
	if err != nil {
		return err
	}
	x2, y2, err := d.point(b)
	if err != nil {
		return err
	}
	return d.auto.Drag(x1, y1, x2, y2)
}

// multiSelect selects the first target and adds the others, through
// SelectionItem; targets without it get Ctrl+clicks.
func (d *Driver) multiSelect(ctx context.Context, targets []*driver.Element) error {
	if len(targets) == 0 {
		return errors.New("multi_select needs at least one element")
	}
	for i, t := range targets {
		n, err := d.node(ctx, t)
		if err != nil {
			return err
		}
		op := OpAddToSelection
		if i == 0 {
			op = OpSelect
		}
		if n.Has(PatternSelectionItem) && d.auto.Pattern(n.Ref, op, "") == nil {
			continue
		}
		x, y, err := d.point(n)
		if err != nil {
			return err
		}
		if i > 0 {
			err = d.withCtrl(func() error { return d.auto.Click(x, y, "left", 1) })
		} else {
			err = d.auto.Click(x, y, "left", 1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// withCtrl runs f with Ctrl held: a chord with no key presses and holds
// nothing, so the hold is a key-down chord around f.
func (d *Driver) withCtrl(f func() error) error {
	if err := d.auto.Keys(Chord{Mods: []uint16{vkControl}, Hold: true}); err != nil {
		return err
	}
	ferr := f()
	if err := d.auto.Keys(Chord{Mods: []uint16{vkControl}, Release: true}); err != nil && ferr == nil {
		ferr = err
	}
	return ferr
}

// typeText replaces an element's content: ValuePattern.SetValue when the
// element supports it and is not read-only, else focus, select all and
// type. It reports the way taken ("set-value" or "keys").
func (d *Driver) typeText(ctx context.Context, e *driver.Element, text string) (string, string, error) {
	n, err := d.node(ctx, e)
	if err != nil {
		return "", "", err
	}
	if n.Has(PatternValue) && !n.ReadOnly && n.Enabled {
		if err := d.auto.Pattern(n.Ref, OpSetValue, text); err == nil {
			return text, "set-value", nil
		}
	}
	if err := d.focus(n); err != nil {
		return "", "", err
	}
	if err := d.auto.Keys(mustChord("Ctrl+A")); err != nil {
		return "", "", err
	}
	if text == "" {
		return "", "keys", d.auto.Keys(mustChord("Delete"))
	}
	return text, "keys", d.auto.Type(text)
}

// focus gives an element the keyboard focus: SetFocus, else a click.
func (d *Driver) focus(n *Node) error {
	if d.auto.Pattern(n.Ref, OpFocus, "") == nil {
		return nil
	}
	x, y, err := d.point(n)
	if err != nil {
		return err
	}
	return d.auto.Click(x, y, "left", 1)
}

// key presses a chord, in the element when given.
func (d *Driver) key(ctx context.Context, chord string, e *driver.Element) error {
	c, err := ParseChord(chord)
	if err != nil {
		return err
	}
	if e != nil {
		n, err := d.node(ctx, e)
		if err != nil {
			return err
		}
		if err := d.focus(n); err != nil {
			return err
		}
	}
	return d.auto.Keys(c)
}

// stable waits until two walks in a row give the same tree, bounded by
// the context: UIA has no "idle" signal a client can wait for that covers
// every framework, and a window that keeps changing (a clock, a progress
// bar) must not hang a step, so running out of time here is not an error.
func (d *Driver) stable(ctx context.Context) error {
	prev := ""
	for i := 0; i < 20; i++ {
		t, err := d.observe(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		fp := fingerprint(t)
		if fp == prev {
			return nil
		}
		prev = fp
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(d.settle):
		}
	}
	return nil
}

// fingerprint sums up what a person would see change.
func fingerprint(t *driver.Tree) string {
	var b strings.Builder
	for _, e := range t.Elements {
		fmt.Fprintf(&b, "%s|%s|%s|%s|%v|%v\n", e.Ref, e.Name, e.Value, e.Text, e.Checked, e.Bounds)
	}
	return b.String()
}
