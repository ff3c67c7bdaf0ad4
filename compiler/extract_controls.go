package compiler

import (
	"net/url"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Controls that take no typing, and events that are the effect of another
// one. A browser fires input and change on a checkbox, a radio or a
// <select> when the person clicks it or picks an option: those events say
// what the click did, they are not typing. A paste fires its own input
// event. The extractor folds each such event into the op that caused it.

// checkable roles toggle (or pick) on a click; their value ("on") is no
// text.
var checkable = map[string]bool{"checkbox": true, "radio": true, "switch": true, "menuitemcheckbox": true, "menuitemradio": true}

// choosers are the roles of a <select>: a change there picks an option.
var choosers = map[string]bool{"combobox": true, "listbox": true}

func isCheckable(t *trace.Target) bool { return t != nil && checkable[t.Role] }

// isChooser reports whether t is a list of options (a <select>); a text
// box with a list (an ARIA combobox the person types into) is editable
// text and stays typing.
func isChooser(t *trace.Target) bool { return t != nil && choosers[t.Role] && !t.Editable }

// toggle folds an input or change event on a checkbox or radio into the
// click that caused it: the last op when it is a click on the same
// control, or a click on its label right before (nothing in between).
// Without one (a keyboard toggle with Space) the event is the click.
func (x *extractor) toggle(e *trace.Event) {
	if l := x.last(); l != nil && l.Action == action.Click && x.causedBy(len(x.ops)-1, e) {
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	x.add(operation{Action: action.Click, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
}

// causedBy reports whether op k (a click) caused the toggle or choice e:
// it acted on the same control, or it is the event right before e with
// no other event between them (a click on the control's <label>).
func (x *extractor) causedBy(k int, e *trace.Event) bool {
	op := x.ops[k]
	if fieldKey(op.Target) == fieldKey(e.Target) {
		return true
	}
	return len(x.pending) == 0 && len(op.Events) > 0 && op.Events[len(op.Events)-1] == x.prevID(e)
}

// prevID is the id of the event right before e in the trace.
func (x *extractor) prevID(e *trace.Event) string {
	for i := range x.tr.Events {
		if x.tr.Events[i].ID == e.ID {
			if i == 0 {
				return ""
			}
			return x.tr.Events[i-1].ID
		}
	}
	return ""
}

// choose turns an input or change event on a <select> into the choice of
// the option it picked. The click that opened the list and the keys that
// moved in it are part of the choice.
func (x *extractor) choose(e *trace.Event) {
	text, known := optionText(x.tr, e)
	var options []string
	if full := x.full(e); full != nil && full.Role == "listbox" {
		options = selectedOptions(x.tr, e)
	}
	// A list box scrolled between two picks: the scroll is part of it.
	if n := len(x.ops); n >= 2 && x.ops[n-1].Action == action.Scroll && x.ops[n-2].Action == "choose" && fieldKey(x.ops[n-2].Target) == fieldKey(e.Target) {
		x.ops[n-2].Events = append(x.ops[n-2].Events, x.ops[n-1].Events...)
		x.ops = x.ops[:n-1]
	}
	if l := x.last(); l != nil && l.Action == "choose" && fieldKey(l.Target) == fieldKey(e.Target) {
		if known || !l.OptionKnown {
			l.Text, l.OptionKnown = text, known
		}
		if options != nil {
			l.Options = options
		}
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	// The click that opened the list, and keys pressed in it, belong to
	// the choice.
	var before []string
	for len(x.ops) > 0 {
		l := x.last()
		if (l.Action != action.Click && l.Action != action.Key && l.Action != action.Enter) || fieldKey(l.Target) != fieldKey(e.Target) {
			break
		}
		before = append(l.Events, before...)
		x.ops = x.ops[:len(x.ops)-1]
	}
	for _, id := range before {
		delete(x.opOf, id)
	}
	x.pending = append(before, x.pending...)
	x.add(operation{Action: "choose", Target: e.Target, Snapshot: e.Snapshot, Text: text, OptionKnown: known, Options: options}, e.ID)
}

// chooseExpr is the step of a choice: a click on the option, found by its
// text within the <select>. When only the option's value is known (an
// imported recording has no snapshot) the select's value is set by type,
// which the browser driver matches against the options' values too.
func (c *compiler) chooseExpr(i int, st *state) ast.Expr {
	in := c.infos[i]
	sel := c.targetExpr(i, in.full, in.desc, st, in.Snapshot)
	if !in.OptionKnown {
		return perform(action.Type, sel, str(in.Text))
	}
	if opt, ok := c.optionByValue(i, in.Text, sel); ok {
		return perform(action.Click, opt)
	}
	return perform(action.Click, &ast.Call{Fun: ref("option"), Args: []*ast.Arg{named("name", str(in.Text)), named("within", sel)}})
}

// optionText is the text of the option a <select> event picked: the
// selected option of the event's snapshot, or the select's own text (a
// closed <select> shows its option's text); known is false when only the
// event's value (the option's value attribute) is there.
func optionText(tr *trace.Trace, e *trace.Event) (text string, known bool) {
	if s, ok := tr.Snapshots[e.Snapshot]; ok && e.Target != nil && e.Target.Ref != "" {
		sel := -1
		for i := range s.Elements {
			if s.Elements[i].Ref == e.Target.Ref {
				sel = i
				break
			}
		}
		if sel >= 0 {
			for i := range s.Elements {
				o := &s.Elements[i]
				if o.Role == "option" && o.Checked && under(&s, i, sel) {
					return firstNonEmpty(o.Name, o.Text), true
				}
			}
			if t := s.Elements[sel].Text; t != "" {
				return t, true
			}
		}
	}
	return e.Value, false
}

// pasteEcho reports whether an input event is the paste's own: the first
// input on the field of the paste op just before it.
func (x *extractor) pasteEcho(e *trace.Event) bool {
	l := x.last()
	if l == nil || l.Action != action.Paste || x.echoed[len(x.ops)-1] {
		return false
	}
	return l.Target == nil || fieldKey(l.Target) == fieldKey(e.Target)
}

// button handles a click with the middle, back or forward button: a middle
// click on a link opens it in a new tab and stays where it was; back goes
// back. Whatever the language cannot say is compiled as near as it can
// and noted, never silently as a left click.
func (x *extractor) button(e *trace.Event) {
	if x.tr.Source == trace.SourceDevTools {
		// A replayed recording clicks with the button it recorded: the
		// page may listen for that very button (mousedown's button).
		b := e.Button
		if e.Kind == trace.KindMiddleClick || b == "" {
			b = trace.ButtonMiddle
		}
		x.add(operation{Action: action.Click, Target: e.Target, Snapshot: e.Snapshot, Button: b}, e.ID)
		return
	}
	switch e.Button {
	case trace.ButtonBack:
		x.add(operation{Action: action.Back}, e.ID)
		return
	case trace.ButtonForward:
		x.pending = append(x.pending, e.ID)
		x.notes = append(x.notes, "a click with the forward button ("+e.ID+") has no action in the language and is left out; the page it showed is not reached by this workflow unless a later step opens it")
		return
	}
	// The middle button.
	href := ""
	if full := x.full(e); full != nil {
		href = absURL(x.pageURL(e), full.Href)
	}
	back := x.tabs.names[x.tabs.active]
	if back == "" {
		if s, ok := x.tr.Snapshots[e.Snapshot]; ok {
			back = s.Title
		}
	}
	why := ""
	switch full, _, _ := findInSnapshot(x.tr, e.Target, e.Snapshot); {
	case href == "":
		why = "the element has no link address to open in a new tab"
	case back == "":
		why = "the title of the tab it was made in is unknown, so the workflow could not come back to it"
	case listOf(full) != nil:
		// An item of a list is a choice the next run makes again; a fixed
		// address would replay the demonstrated item forever.
		why = "it chose an item of a list, which the next run must choose again"
	}
	if why != "" {
		x.add(operation{Action: action.Click, Target: e.Target, Snapshot: e.Snapshot,
			Note: "a middle click (" + e.ID + ") is compiled as a left click, which opens a link in the same tab: " + why}, e.ID)
		return
	}
	// new_tab switches to the new tab; the person stayed on the page, so
	// the workflow switches back.
	x.add(operation{Action: action.NewTab, Text: href}, e.ID)
	x.add(operation{Action: action.SwitchWindow, Text: back}, e.ID)
}

// pageURL is the address of the page an event happened on.
func (x *extractor) pageURL(e *trace.Event) string {
	if s, ok := x.tr.Snapshots[e.Snapshot]; ok && s.URL != "" {
		return s.URL
	}
	if e.URL != "" {
		return e.URL
	}
	return x.lastURL
}

// absURL resolves an href as written in the page against the page's
// address; "" when it is no web address (javascript:, #fragment only).
func absURL(base, href string) string {
	if href == "" {
		return ""
	}
	h, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if b, err := url.Parse(base); err == nil && base != "" {
		h = b.ResolveReference(h)
	}
	if h.Scheme != "http" && h.Scheme != "https" && h.Scheme != "file" {
		return ""
	}
	return h.String()
}

// dropTrailingScrolls removes scrolls after the last op that acts: no
// later step needs what they brought into view. Their events go to the op
// before them. A scroll to a recorded position (an imported recording's
// scroll step) is an effect of its own and stays.
func dropTrailingScrolls(ops []operation) []operation {
	n := len(ops)
	for n > 0 && ops[n-1].Action == action.Scroll && ops[n-1].To == nil {
		n--
	}
	if n == len(ops) || n == 0 {
		return ops
	}
	for _, op := range ops[n:] {
		ops[n-1].Events = append(ops[n-1].Events, op.Events...)
	}
	return ops[:n]
}

// isSecret reports whether t is a password field: the trace marks it, or
// its value is masked (all bullets).
func isSecret(t *trace.Target) bool {
	if t == nil {
		return false
	}
	return t.Secret || masked(t.Value)
}

// masked reports whether s is a masked value: one or more bullets only.
func masked(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != '•' && r != '●' && r != '*' {
			return false
		}
	}
	return true
}

// secretExpr is the text typed into a password field: a secret input
// with no default (what was typed is never written into the workflow,
// masked or not), shared by every field the same text went into (a
// password and its confirmation).
func (c *compiler) secretExpr(text string, t *trace.Target, st *state) ast.Expr {
	for _, s := range st.secrets {
		if s.value == text {
			return ref(s.name)
		}
	}
	base := identName(labelOf(t))
	if labelOf(t) == "" {
		base = "password"
	}
	name := c.unique(base, "_secret")
	c.inputs = append(c.inputs, &ast.InputDecl{Name: ast.Ident{Name: name}, Type: &ast.TypeExpr{Name: "secret"}})
	st.secrets = append(st.secrets, source{name: name, value: text})
	return ref(name)
}

// full is the event's target completed from its snapshot.
func (x *extractor) full(e *trace.Event) *trace.Target {
	t, _, _ := findInSnapshot(x.tr, e.Target, e.Snapshot)
	return t
}

// labelForward folds the click a browser sends to a control when the
// person clicks its <label>: the label's click is reported first, then the
// control's own click at the same point, with nothing between them. Two
// clicks in the workflow would toggle a checkbox twice; the control's
// click is kept (it is the better description) with both clicks' events.
func (x *extractor) labelForward(e *trace.Event) bool {
	l := x.last()
	full := x.full(e)
	if l == nil || l.Action != action.Click || full == nil || len(x.pending) > 0 || len(l.Events) != 1 || l.Events[0] != x.prevID(e) {
		return false
	}
	if !isCheckable(full) && !isField(full) {
		return false
	}
	prev := x.tr.Event(l.Events[0])
	lab := x.full(prev)
	if prev == nil || lab == nil || isField(lab) || prev.X != e.X || prev.Y != e.Y {
		return false
	}
	inside := lab.Path != "" && strings.HasPrefix(full.Path, lab.Path+"/")
	named := lab.Text != "" && (full.Label == lab.Text || full.Name == lab.Text)
	if !inside && !named {
		return false
	}
	l.Target, l.Snapshot = e.Target, e.Snapshot
	x.attach(len(x.ops)-1, e.ID)
	return true
}

// optionClick folds a click on an option of the list box a choice was
// just made in: a list box reports its input and change on the mouse
// press, before the click that made them.
func (x *extractor) optionClick(e *trace.Event) bool {
	l := x.last()
	full := x.full(e)
	if l == nil || l.Action != "choose" || full == nil || full.Role != "option" || !x.inSelect(e, l.Target) {
		return false
	}
	x.attach(len(x.ops)-1, e.ID)
	return true
}

// inSelect reports whether the element of event e lies inside sel (a
// target of the same snapshot family: refs stay while an element lives).
func (x *extractor) inSelect(e *trace.Event, sel *trace.Target) bool {
	if sel == nil || e.Target == nil {
		return false
	}
	if sel.Ref != "" && e.Target.Ref == sel.Ref {
		return true
	}
	s, ok := x.tr.Snapshots[e.Snapshot]
	if !ok || e.Target.Ref == "" || sel.Ref == "" {
		return false
	}
	for i := range s.Elements {
		if s.Elements[i].Ref != e.Target.Ref {
			continue
		}
		for k, n := s.Elements[i].Parent, 0; k >= 0 && k < len(s.Elements) && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
			if s.Elements[k].Ref == sel.Ref {
				return true
			}
		}
	}
	return false
}

// selectedOptions lists the texts of the options selected in the <select>
// of event e, in document order, from the event's snapshot.
func selectedOptions(tr *trace.Trace, e *trace.Event) []string {
	s, ok := tr.Snapshots[e.Snapshot]
	if !ok || e.Target == nil || e.Target.Ref == "" {
		return nil
	}
	sel := -1
	for i := range s.Elements {
		if s.Elements[i].Ref == e.Target.Ref {
			sel = i
			break
		}
	}
	if sel < 0 {
		return nil
	}
	var out []string
	for i := range s.Elements {
		if o := &s.Elements[i]; o.Role == "option" && o.Checked && under(&s, i, sel) {
			out = append(out, firstNonEmpty(o.Name, o.Text))
		}
	}
	return out
}

// splitMultiChoice turns the choice of several options of a list box
// (<select multiple>) into two ops: a click on the first option, which
// leaves it the only one selected, then multi_select of the others, which
// adds them: the same selection whatever was selected before.
func splitMultiChoice(op operation) []operation {
	if op.Action != "choose" || len(op.Options) < 2 {
		return []operation{op}
	}
	first, rest := op, op
	first.Text, first.Options = op.Options[0], nil
	rest.Action, rest.Options, rest.Text = "multi_choose", op.Options[1:], ""
	rest.Events = op.Events[len(op.Events)-1:]
	return []operation{first, rest}
}

// multiChooseExpr is multi_select of the options of a list box.
func (c *compiler) multiChooseExpr(i int, st *state) ast.Expr {
	in := c.infos[i]
	sel := c.targetExpr(i, in.full, in.desc, st, in.Snapshot)
	list := &ast.ListLit{}
	for _, o := range in.Options {
		list.Elems = append(list.Elems, &ast.Call{Fun: ref("option"), Args: []*ast.Arg{named("name", str(o)), named("within", sel)}})
	}
	return perform(action.MultiSelect, list)
}
