package goal

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Step is one thing the person did, as both the rules and the prompt see
// it: raw events folded (the keystrokes of one field are one "typed" step,
// a click that only focuses a field is dropped).
type Step struct {
	Event  string // the id of the event the step ends with ("e7")
	Verb   string // typed, chose, clicked (double-, right-, middle-), checked, pressed, opened, selected, copied, pasted, switched to, dragged, uploaded, answered
	Value  string // the text typed or pasted, the option chosen, the key pressed, the URL opened; empty for a secret
	Target string // the element, described: `textbox "Name"`; empty when none
	Label  string // the element's own label ("Name", "Submit"), unquoted
	Role   string // the element's role
	Secret bool   // a password field: Value is never kept
	// Param says the value is something the person chose: a typed or
	// pasted text, an option, a clicked item of a list, a checked box.
	Param bool
	// Context is what surrounds the element on the screen (its parent's
	// text, its list), for the prompt; capped.
	Context string
	// Page is the title (or URL) of the page or window the step happened on.
	Page string
	// key identifies the element (its ref, id or path), so that two
	// unlabelled fields are not one.
	key string
}

// contextCap bounds the surrounding text a step keeps.
const contextCap = 160

// Steps folds a trace's events into steps, in order.
func Steps(tr *trace.Trace) []Step {
	var out []Step
	page := shownURL(tr.Start.URL)
	for i := range tr.Events {
		e := &tr.Events[i]
		page = pageOf(tr, e, page)
		st, ok := step(e, i, tr)
		if !ok {
			continue
		}
		st.Page = page
		n := len(out)
		switch {
		case n > 0 && st.Verb == "typed" && out[n-1].Verb == "typed" && out[n-1].key == st.key:
			out[n-1] = st // the keystrokes of one field are one step: the last value wins
			continue
		case st.Verb == "typed":
			out = dropFocusClick(out, st.key)
		case n > 0 && (st.Verb == "clicked" || st.Verb == "checked") && out[n-1].Verb == "clicked" && out[n-1].Label == st.Label && st.Label != "" && out[n-1].key != st.key && out[n-1].Role != st.Role:
			out[n-1] = st // a click on a label and the click it passes to its control (two "Add" buttons stay two)
			continue
		case n > 0 && st.Verb == "copied" && out[n-1].Verb == "selected" && out[n-1].Value == st.Value:
			out[n-1] = st // selecting was the first half of copying
			continue
		}
		out = append(out, st)
	}
	return out
}

// amongLikes reports whether the event's target was one of several
// elements of its role under the same parent in its snapshot, or an item
// of a list: one picked among others.
func amongLikes(e *trace.Event, tr *trace.Trace) bool {
	if c := e.Target.Context; c != nil && c.List != nil && c.List.Size > 1 {
		return true
	}
	s, ok := tr.Snapshots[e.Snapshot]
	if !ok || e.Target.Ref == "" {
		return false
	}
	idx := -1
	for i := range s.Elements {
		if s.Elements[i].Ref == e.Target.Ref {
			idx = i
			break
		}
	}
	if idx < 0 || s.Elements[idx].Role == "" {
		return false
	}
	n := 0
	for _, x := range s.Elements {
		if x.Parent == s.Elements[idx].Parent && x.Role == s.Elements[idx].Role {
			n++
		}
	}
	return n > 1
}

// dropFocusClick drops the last click on the element when only key
// presses came after it: the click focused the field the typing went into.
func dropFocusClick(out []Step, key string) []Step {
	for j := len(out) - 1; j >= 0; j-- {
		switch {
		case out[j].Verb == "clicked" && out[j].key == key && key != "":
			return append(out[:j], out[j+1:]...)
		case out[j].Verb != "pressed":
			return out
		}
	}
	return out
}

// pageOf is the page an event happened on: its snapshot's title, the
// window a navigation or tab switch names, else the last one.
func pageOf(tr *trace.Trace, e *trace.Event, last string) string {
	if s, ok := tr.Snapshots[e.Snapshot]; ok && (s.Title != "" || s.URL != "") {
		return firstNonEmpty(s.Title, shownURL(s.URL))
	}
	if e.Kind == trace.KindNavigate || e.Kind == trace.KindTabSwitch {
		if e.Window != nil && e.Window.Title != "" {
			return e.Window.Title
		}
		if e.URL != "" {
			return shownURL(e.URL)
		}
	}
	return last
}

// attributes are a target's attributes, completed from its snapshot's
// element when the target gives only its ref.
func attributes(e *trace.Event, tr *trace.Trace) trace.Attributes {
	a := e.Target.Attributes
	s, ok := tr.Snapshots[e.Snapshot]
	if !ok {
		return a
	}
	el := s.ByRef(e.Target.Ref)
	if el == nil {
		return a
	}
	b := el.Attributes
	for _, f := range []struct{ dst, src *string }{{&a.Role, &b.Role}, {&a.Name, &b.Name}, {&a.Text, &b.Text},
		{&a.Label, &b.Label}, {&a.Placeholder, &b.Placeholder}, {&a.Value, &b.Value}, {&a.ID, &b.ID}} {
		if *f.dst == "" {
			*f.dst = *f.src
		}
	}
	a.Editable = a.Editable || b.Editable
	return a
}

// elementKey identifies a target: its ref in the snapshot, else its id,
// path or selector, else its description.
func elementKey(t *trace.Target, a trace.Attributes, desc string) string {
	switch {
	case t.Ref != "":
		return "ref " + t.Ref
	case a.ID != "":
		return "id " + a.ID
	case a.Path != "":
		return "path " + a.Path
	case t.CSS != "":
		return "css " + t.CSS
	}
	return "desc " + desc
}

// clipboardKey reports whether a keydown is the Ctrl (or Cmd) chord of a
// copy, cut or paste whose own event follows: that event is the step.
func clipboardKey(tr *trace.Trace, i int) bool {
	k := tr.Events[i].Key
	if !(k.Ctrl || k.Meta) || !strings.Contains("cvxCVX", k.Key) || len(k.Key) != 1 {
		return false
	}
	for j := i + 1; j < len(tr.Events) && j <= i+4; j++ {
		switch tr.Events[j].Kind {
		case trace.KindCopy, trace.KindCut, trace.KindPaste:
			return true
		}
	}
	return false
}

// step makes one event a step; ok is false for events the goal does not
// depend on (scrolling, hovering, focus, key releases, caused navigation).
func step(e *trace.Event, i int, tr *trace.Trace) (Step, bool) {
	st := Step{Event: e.ID}
	var attrs trace.Attributes
	if e.Target != nil {
		attrs = attributes(e, tr)
		st.Role, st.Label = attrs.Role, label(attrs, e.Target.Context)
		st.Target = describe(st.Role, st.Label)
		st.key = elementKey(e.Target, attrs, st.Target)
		st.Secret = e.Target.Secret
		st.Context = contextText(e.Target.Context)
	}
	switch e.Kind {
	case trace.KindInput, trace.KindPaste:
		if isToggle(st.Role) {
			return st, false // a checkbox's "on": the click on it is the step
		}
		st.Verb, st.Value, st.Param = "typed", firstNonEmpty(e.Value, e.Text), true
		if e.Kind == trace.KindPaste {
			st.Verb = "pasted"
		}
	case trace.KindChange:
		if e.Target == nil {
			return st, false
		}
		st.Verb, st.Value, st.Param = "chose", e.Value, true
		if isTextField(attrs) {
			st.Verb = "typed" // after input events it folds into them; alone (an import) it is the typing
		}
		if isToggle(st.Role) {
			return st, false // the click on it is the step
		}
	case trace.KindClick, trace.KindDblClick, trace.KindRightClick, trace.KindMiddleClick:
		st.Verb = map[trace.Kind]string{trace.KindClick: "clicked", trace.KindDblClick: "double-clicked",
			trace.KindRightClick: "right-clicked", trace.KindMiddleClick: "middle-clicked"}[e.Kind]
		if isToggle(st.Role) && e.Kind == trace.KindClick {
			st.Verb = "checked"
		}
		// A label is a choice unless it is a commit word (Submit, Search)
		// on a control that had no like siblings to be chosen among.
		st.Param = st.Label != "" && (!generic[strings.ToLower(st.Label)] || amongLikes(e, tr))
	case trace.KindKeyDown:
		k := e.Key
		if k == nil || len([]rune(k.Key)) == 1 && !k.Ctrl && !k.Meta && !k.Alt || modifierKeys[k.Key] || clipboardKey(tr, i) {
			return st, false // a character, or a clipboard chord: the input or clipboard event carries it
		}
		st.Verb, st.Value = "pressed", chord(k)
	case trace.KindNavigate:
		if e.Cause != "" || i == 0 || e.URL == tr.Start.URL {
			return st, false
		}
		st.Verb, st.Value = "opened", shownURL(e.URL)
	default:
		var ok bool
		if st, ok = otherStep(e, st); !ok {
			return st, false
		}
	}
	if st.Secret {
		st.Value, st.Param = "", false // a password never reaches a goal or a prompt
	}
	return st, true
}

// otherStep makes the events that carry their own value a step: text
// selected or copied, a tab switched to, a drag, an upload, a dialog.
func otherStep(e *trace.Event, st Step) (Step, bool) {
	switch e.Kind {
	case trace.KindSelect, trace.KindCopy:
		st.Verb, st.Value = "selected", e.Text
		if e.Kind == trace.KindCopy {
			st.Verb = "copied"
		}
	case trace.KindTabSwitch:
		if e.Window == nil {
			return st, false
		}
		st.Verb, st.Value = "switched to", firstNonEmpty(e.Window.Title, shownURL(e.Window.URL))
	case trace.KindDragStart, trace.KindDrop:
		st.Verb = map[trace.Kind]string{trace.KindDragStart: "dragged", trace.KindDrop: "dropped onto"}[e.Kind]
	case trace.KindUpload:
		st.Verb, st.Value, st.Param = "uploaded", strings.Join(e.Files, ", "), true
	case trace.KindDialog:
		if e.Dialog == nil {
			return st, false
		}
		st.Verb, st.Value = "answered", fmt.Sprintf("%s %q: %s", e.Dialog.Type, e.Dialog.Message, map[bool]string{true: "accepted", false: "dismissed"}[e.Dialog.Accept])
		if e.Dialog.Prompt != "" {
			st.Value += fmt.Sprintf(" with %q", e.Dialog.Prompt)
		}
	default:
		return st, false
	}
	return st, true
}

// generic are button labels that commit or navigate rather than name a
// choice: clicking them is not a parameter of the goal.
var generic = map[string]bool{
	"submit": true, "search": true, "go": true, "next": true, "previous": true, "prev": true, "save": true,
	"send": true, "cancel": true, "close": true, "log in": true, "login": true, "sign in": true, "sign up": true,
	"start": true, "done": true, "apply": true, "continue": true, "back": true, "x": true, "×": true,
	"reply": true, "forward": true, "delete": true, "confirm": true, "update": true, "add": true, "create": true,
}

var modifierKeys = map[string]bool{"Shift": true, "Control": true, "Alt": true, "Meta": true, "CapsLock": true}

func chord(k *trace.Key) string {
	var parts []string
	for _, m := range []struct {
		on   bool
		name string
	}{{k.Ctrl, "Ctrl"}, {k.Alt, "Alt"}, {k.Shift && len([]rune(k.Key)) > 1, "Shift"}, {k.Meta, "Meta"}} {
		if m.on {
			parts = append(parts, m.name)
		}
	}
	return strings.Join(append(parts, k.Key), "+")
}

// isTextField reports whether an element takes typed text.
func isTextField(a trace.Attributes) bool {
	switch a.Role {
	case "textbox", "searchbox", "textarea", "spinbutton", "edit", "Edit", "EditText":
		return true
	}
	return a.Editable && !isToggle(a.Role)
}

// isToggle reports whether a role is a checkbox, radio button or switch.
func isToggle(role string) bool {
	switch strings.ToLower(role) {
	case "checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio":
		return true
	}
	return false
}

// label is what a person would call the element: its accessible name, its
// label, its text, its placeholder.
func label(a trace.Attributes, c *trace.Context) string {
	l := firstNonEmpty(a.Name, a.Label, a.Text, a.Placeholder)
	if l == "" && c != nil {
		l = c.Label
	}
	if l == "" && (a.Role == "button" || a.Role == "option") {
		l = a.Value
	}
	return capText(l, 80)
}

// describe is `role "label"`, or whichever of the two there is.
func describe(role, lbl string) string {
	switch {
	case lbl == "":
		return role
	case role == "":
		return fmt.Sprintf("%q", lbl)
	}
	return fmt.Sprintf("%s %q", role, lbl)
}

// contextText is the surrounding text of a target, capped.
func contextText(c *trace.Context) string {
	if c == nil {
		return ""
	}
	var parts []string
	if c.Headers != nil && (c.Headers.Column != "" || c.Headers.Row != "") {
		parts = append(parts, fmt.Sprintf("table cell, column %q, row %q", c.Headers.Column, c.Headers.Row))
	}
	if c.List != nil && c.List.Size > 1 {
		parts = append(parts, fmt.Sprintf("item %d of %d in a list (%s)", c.List.Index+1, c.List.Size, strings.Join(c.List.ItemTexts, " | ")))
	}
	if c.ParentText != "" {
		parts = append(parts, "in: "+c.ParentText)
	}
	return capText(strings.Join(parts, "; "), contextCap)
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}

// capText cuts s to at most n runes, marking the cut.
func capText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
