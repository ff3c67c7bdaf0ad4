package uia

import (
	"context"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// The API-first actions (AXIS): set_value, invoke, toggle, select_item,
// expand and collapse each call one control pattern of the target and
// nothing else. Unlike click and type, which fall back to input when a
// pattern is missing or fails, these fail when the element does not
// support their pattern: a workflow that asked for the pattern asked not
// to be clicked through. Each then reads the element again and fails
// unless it shows the state asked for (the value set, the toggle state,
// the selection, the expansion); invoke has no state to read, so the
// provider's success is its proof.

// patternOf is the pattern behind each API-first action and the name
// errors give it.
var patternOf = map[action.Name]struct {
	id            int
	name, instead string // instead: the input action that does it without the pattern
}{
	action.SetValue:   {PatternValue, "Value", "type"},
	action.Invoke:     {PatternInvoke, "Invoke", "click"},
	action.Toggle:     {PatternToggle, "Toggle", "click"},
	action.SelectItem: {PatternSelectionItem, "SelectionItem", "click"},
	action.Expand:     {PatternExpandCollapse, "ExpandCollapse", "click"},
	action.Collapse:   {PatternExpandCollapse, "ExpandCollapse", "click"},
}

// doPattern performs an API-first action on its target.
func (d *Driver) doPattern(ctx context.Context, a driver.Action) error {
	n, err := d.patternNode(ctx, a.Op, a.Target)
	if err != nil {
		return err
	}
	switch a.Op {
	case action.SetValue:
		return d.setValue(ctx, n, a.Text)
	case action.Invoke:
		return d.auto.Pattern(n.Ref, OpInvoke, "")
	case action.Toggle:
		return d.toggle(ctx, n, a.On)
	case action.SelectItem:
		return d.selectItem(ctx, n)
	case action.Expand:
		return d.expandCollapse(ctx, n, true)
	case action.Collapse:
		return d.expandCollapse(ctx, n, false)
	}
	return fmt.Errorf("the uia driver does not perform %q", a.Op)
}

// patternNode finds an action's target and checks that it supports the
// action's pattern and is enabled (a pattern call on a disabled element
// fails with UIA_E_ELEMENTNOTENABLED; saying so first is clearer).
func (d *Driver) patternNode(ctx context.Context, op action.Name, e *driver.Element) (*Node, error) {
	n, err := d.node(ctx, e)
	if err != nil {
		return nil, err
	}
	p := patternOf[op]
	if !n.Has(p.id) {
		return nil, fmt.Errorf("%s %q has no %s pattern (UI Automation), so %s cannot act on it; %s acts through input instead",
			n.Role(), describe(n), p.name, op, p.instead)
	}
	if !n.Enabled {
		return nil, fmt.Errorf("%s %q is disabled", n.Role(), describe(n))
	}
	return n, nil
}

// describe names a node in errors: its name, else its id or class.
func describe(n *Node) string { return firstOf(clean(n.Name), n.AutomationID, n.ClassName) }

// reread walks the window again and returns the node's fresh state: the
// properties of the last walk are what the element was before the action.
func (d *Driver) reread(ctx context.Context, n *Node) (*Node, error) {
	if _, err := d.observe(ctx); err != nil {
		return nil, err
	}
	if m, ok := d.nodes[n.Ref]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("%s %q is gone from the window after the action, so its effect cannot be checked", n.Role(), describe(n))
}

// setValue sets a value through ValuePattern.SetValue and checks that the
// element shows it. A password field never shows its value to UIA, so
// nothing can confirm it: set_value refuses one rather than report a
// value it cannot see (type() types into it).
func (d *Driver) setValue(ctx context.Context, n *Node, text string) error {
	if n.Password {
		return fmt.Errorf("%s %q is a password field, whose value UI Automation hides, so setting it cannot be confirmed; use type()", n.Role(), describe(n))
	}
	if n.ReadOnly {
		return fmt.Errorf("%s %q is read-only", n.Role(), describe(n))
	}
	if err := d.auto.Pattern(n.Ref, OpSetValue, text); err != nil {
		return fmt.Errorf("%s %q: %w", n.Role(), describe(n), err)
	}
	m, err := d.reread(ctx, n)
	if err != nil {
		return err
	}
	if lineEnds(m.Value) != lineEnds(text) {
		// The value itself is not quoted: it may be a secret.
		return fmt.Errorf("%s %q does not show the value set (the application changed or refused it)", n.Role(), describe(n))
	}
	return nil
}

// lineEnds spells Windows' and old Mac line ends as "\n": the only
// difference between the value set and the value shown that set_value
// accepts. Spaces count: a field that squeezed them (or dropped a line
// break) does not hold the value asked for.
func lineEnds(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// toggleStates name TogglePattern's states in errors.
var toggleStates = map[int]string{0: "off", 1: "on", 2: "indeterminate"}

func toggleName(s int) string {
	if name, ok := toggleStates[s]; ok {
		return name
	}
	return fmt.Sprintf("in state %d", s)
}

// toggle flips a toggle once (on nil), or toggles it until it is on or
// off as asked: a three-state check box goes off → on → indeterminate →
// off, so reaching a state may take two toggles, and a control that does
// not get there in three is reported with the state it is in.
func (d *Driver) toggle(ctx context.Context, n *Node, on *bool) error {
	m, err := d.reread(ctx, n)
	if err != nil {
		return err
	}
	before := m.ToggleState
	if _, known := toggleStates[before]; !known {
		// Toggling blind could leave it either way, and nothing would
		// tell which: refuse before the first call.
		return fmt.Errorf("%s %q does not report its toggle state (UI Automation), so toggling it cannot be confirmed", n.Role(), describe(n))
	}
	if on == nil {
		if err := d.auto.Pattern(n.Ref, OpToggle, ""); err != nil {
			return fmt.Errorf("%s %q: %w", n.Role(), describe(n), err)
		}
		if m, err = d.reread(ctx, n); err != nil {
			return err
		}
		if m.ToggleState == before {
			return fmt.Errorf("%s %q is still %s after toggling", n.Role(), describe(n), toggleName(before))
		}
		return nil
	}
	want := 0
	if *on {
		want = 1
	}
	for i := 0; i < 3 && m.ToggleState != want; i++ {
		if err := d.auto.Pattern(n.Ref, OpToggle, ""); err != nil {
			return fmt.Errorf("%s %q: %w", n.Role(), describe(n), err)
		}
		if m, err = d.reread(ctx, n); err != nil {
			return err
		}
	}
	if m.ToggleState != want {
		return fmt.Errorf("%s %q is %s, not %s, after toggling it from %s", n.Role(), describe(n),
			toggleName(m.ToggleState), toggleName(want), toggleName(before))
	}
	return nil
}

// selectItem selects an item through SelectionItemPattern.Select and
// checks that it is selected.
func (d *Driver) selectItem(ctx context.Context, n *Node) error {
	if err := d.auto.Pattern(n.Ref, OpSelect, ""); err != nil {
		return fmt.Errorf("%s %q: %w", n.Role(), describe(n), err)
	}
	m, err := d.reread(ctx, n)
	if err != nil {
		return err
	}
	if !m.Selected {
		return fmt.Errorf("%s %q is not selected after Select", n.Role(), describe(n))
	}
	return nil
}

// ExpandCollapseState values.
const (
	stateCollapsed = 0
	stateExpanded  = 1
	statePartially = 2
	stateLeaf      = 3
)

// expandCollapse expands (or collapses) an element unless it already is,
// and checks that it then is: expanded or partially expanded, or
// collapsed. A leaf node has nothing to expand.
func (d *Driver) expandCollapse(ctx context.Context, n *Node, expand bool) error {
	op, verb := OpCollapse, "collapse"
	if expand {
		op, verb = OpExpand, "expand"
	}
	done := func(s int) bool {
		if expand {
			return s == stateExpanded || s == statePartially
		}
		return s == stateCollapsed
	}
	m, err := d.reread(ctx, n)
	if err != nil {
		return err
	}
	if m.Expanded == stateLeaf {
		return fmt.Errorf("%s %q is a leaf: it has nothing to %s", n.Role(), describe(n), verb)
	}
	if done(m.Expanded) {
		return nil
	}
	if err := d.auto.Pattern(n.Ref, op, ""); err != nil {
		return fmt.Errorf("%s %q: %s: %w", n.Role(), describe(n), verb, err)
	}
	if m, err = d.reread(ctx, n); err != nil {
		return err
	}
	if !done(m.Expanded) {
		return fmt.Errorf("%s %q is %s after %s", n.Role(), describe(n), expandName(m.Expanded), op)
	}
	return nil
}

func expandName(s int) string {
	switch s {
	case stateCollapsed:
		return "collapsed"
	case stateExpanded:
		return "expanded"
	case statePartially:
		return "partially expanded"
	case stateLeaf:
		return "a leaf"
	}
	return "of unknown expansion"
}
