package compiler

import (
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/trace"
)

// operation is one operation of the language extracted from raw events.
type operation struct {
	// Note says what the op could not say faithfully (a middle click
	// compiled as a left click); the compiler turns it into a warning.
	Note string
	// OptionKnown is set on a choice of a <select> option ("choose") when
	// Text is the option's text, not only its value.
	OptionKnown bool
	// Options are the options a list box (<select multiple>) had selected
	// after the choice, when more than its value says.
	Options []string
	// Action is the language's action: click, double_click, right_click,
	// type, copy, cut, paste, save, key, enter, select_text, open, new_tab,
	// switch_window, close_tab, drag, scroll.
	Action action.Name
	// Target is the element acted on (the drag source for drag), with the
	// event that observed it (for its snapshot).
	Target *trace.Target
	// Snapshot is the id of the snapshot Target refers to, if any.
	Snapshot string
	// Dest is the drop target of a drag.
	Dest         *trace.Target
	DestSnapshot string
	// Text is the op's text: the typed value, the copied, cut, pasted or
	// selected text, the key chord, the URL, the window title, the scroll
	// direction.
	Text string
	// Events are the ids of the trace events the op came from.
	Events []string
	// Wait and Viewport are the conditions of a wait and the size of a
	// set_viewport (replayed recordings).
	Wait     *trace.Wait
	Viewport *trace.Viewport
	// To is the position (x, y) a recording's scroll step scrolls to.
	To []float64
	// Button is the mouse button of a replayed recording's click when it
	// is not the primary one.
	Button string
}

// chordActions maps Ctrl+letter to its action; other chords become key.
var chordActions = map[string]action.Name{"c": action.Copy, "x": action.Cut, "v": action.Paste, "s": action.Save}

// fieldKey identifies an element across events without relying on refs.
func fieldKey(t *trace.Target) string {
	if t == nil {
		return ""
	}
	if t.ID != "" {
		return "#" + t.ID
	}
	// The path before the name: a contenteditable element's name is its
	// text, which every keystroke changes.
	if t.Path != "" {
		return t.Role + "|" + t.Path
	}
	if t.Ref != "" && t.Name == "" && t.Label == "" {
		return "@" + t.Ref // a target that names only its snapshot element
	}
	return t.Role + "|" + t.Name + "|" + t.Label
}

// extractOps turns the trace's raw events into operations by rules: clicks by
// kind, keystrokes and input on one field grouped into one type with the
// final value, key chords into copy/cut/paste/save/key, Enter into enter,
// selection into select_text, a navigation not caused by an event into
// open, tab events into new_tab/switch_window/close_tab, drag_start+drop
// into drag, scrolls into scroll. Events that are consequences (a navigate
// or submit caused by an earlier event, a modifier key press, a keystroke
// whose input event follows) are attached to the op they belong to.
func extractOps(tr *trace.Trace) []operation {
	x := &extractor{opOf: map[string]int{}, tabs: newTabState(), keys: tr.Source == trace.SourceDevTools}
	x.tr, x.echoed, x.lastURL = tr, map[int]bool{}, tr.Start.URL
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Cause != "" {
			if k, ok := x.opOf[e.Cause]; ok && e.Kind != trace.KindTabSwitch {
				if e.Kind == trace.KindTabOpen && e.Window != nil {
					x.tabs.opened(e.Window.ID, k, false) // a link that opens a tab
				}
				x.attach(k, e.ID)
				continue
			}
		}
		x.event(e)
	}
	if len(x.pending) > 0 && len(x.ops) > 0 {
		x.attach(len(x.ops) - 1)
	}
	if tr.Driver == trace.DriverBrowser || tr.Driver == "" {
		// On Android a swipe at the end turns a pager: it stays.
		x.ops = dropTrailingScrolls(x.ops)
	}
	out := make([]operation, 0, len(x.ops)) // not in place: a multiple choice becomes two ops
	for i, op := range x.ops {
		if op.Action == action.Drag && op.Dest == nil {
			continue // a drag never dropped is not an operation
		}
		if op.Action == action.Scroll && op.To == nil && i+1 < len(x.ops) && x.ops[i+1].Target != nil {
			// Scrolling to bring the next target into view: the runtime
			// does that itself, wherever the target is in the next run.
			x.ops[i+1].Events = append(op.Events, x.ops[i+1].Events...)
			continue
		}
		if next := i + 1; op.Action == action.Click && next < len(x.ops) && x.ops[next].Action == action.SelectText &&
			fieldKey(op.Target) != "" && fieldKey(op.Target) == fieldKey(x.ops[next].Target) {
			// Pressing the mouse in a paragraph and dragging over it is
			// how text is selected: the click is part of the selection.
			x.ops[next].Events = append(op.Events, x.ops[next].Events...)
			continue
		}
		if op.Action == action.Paste && op.Target == nil {
			op.Action = action.Key
			op.Text = "Ctrl+V"
		}
		if op.Action == action.Type && op.Text == "" && op.Target != nil {
			// Typing that leaves the field empty (its content selected and
			// deleted) is emptying it: type(field, "") would read as a
			// value the next run could change.
			op.Action = action.Clear
		}
		out = append(out, splitMultiChoice(op)...)
	}
	if len(x.notes) > 0 && len(out) > 0 {
		k := len(out) - 1
		out[k].Note = strings.Join(append(append([]string(nil), x.notes...), out[k].Note), "; ")
		out[k].Note = strings.TrimSuffix(out[k].Note, "; ")
	}
	return out
}

// extractor holds extractOps's state between events.
type extractor struct {
	tr      *trace.Trace
	ops     []operation
	pending []string       // events waiting for the op they belong to
	opOf    map[string]int // event id → op index
	tabs    *tabState
	scrollY float64
	echoed  map[int]bool // paste ops whose own input event was seen
	notes   []string     // notes with no op of their own (a forward click)
	lastURL string       // the last address loaded
	// keys is set for imported recordings: their character key presses
	// come with no input events, so each is a key step of its own.
	keys bool
}

func (x *extractor) last() *operation {
	if len(x.ops) == 0 {
		return nil
	}
	return &x.ops[len(x.ops)-1]
}

// add appends an op made of the pending events and the event id.
func (x *extractor) add(op operation, id string) {
	op.Events = append(append(x.pending, op.Events...), id)
	x.pending = nil
	x.ops = append(x.ops, op)
	x.opOf[id] = len(x.ops) - 1
}

// attach gives the pending events and the given ones to op i.
func (x *extractor) attach(i int, ids ...string) {
	x.ops[i].Events = append(x.ops[i].Events, x.pending...)
	x.ops[i].Events = append(x.ops[i].Events, ids...)
	x.pending = nil
	for _, id := range ids {
		x.opOf[id] = i
	}
}

// attachLast attaches to the last op, or keeps the event pending when
// there is none yet.
func (x *extractor) attachLast(id string) {
	if len(x.ops) == 0 {
		x.pending = append(x.pending, id)
		return
	}
	x.attach(len(x.ops)-1, id)
}

// event turns one event that is not a consequence of another into an op,
// or attaches it to the op it belongs to.
func (x *extractor) event(e *trace.Event) {
	l := x.last()
	switch e.Kind {
	case trace.KindClick, trace.KindMiddleClick:
		if e.Kind == trace.KindMiddleClick || e.Button == trace.ButtonMiddle || e.Button == trace.ButtonBack || e.Button == trace.ButtonForward {
			x.button(e)
			return
		}
		if x.labelForward(e) || x.optionClick(e) {
			return
		}
		x.add(operation{Action: action.Click, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
	case trace.KindDblClick:
		x.add(operation{Action: action.DoubleClick, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
	case trace.KindRightClick:
		x.add(operation{Action: action.RightClick, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
	case trace.KindInput:
		x.input(e)
	case trace.KindChange:
		x.change(e)
	case trace.KindKeyDown:
		x.keyDown(e)
	case trace.KindKeyUp, trace.KindFocus, trace.KindSubmit:
		x.attachLast(e.ID)
	case trace.KindSelect:
		if l != nil && l.Action == action.Key && l.Text == "Ctrl+A" && len(x.pending) == 0 {
			x.attach(len(x.ops)-1, e.ID) // the selection Ctrl+A made
			return
		}
		x.add(operation{Action: action.SelectText, Target: e.Target, Snapshot: e.Snapshot, Text: e.Text}, e.ID)
	case trace.KindUpload:
		x.upload(e)
	case trace.KindCopy, trace.KindCut:
		a := action.Copy
		if e.Kind == trace.KindCut {
			a = action.Cut
		}
		if l != nil && l.Action == a && l.Text == "" {
			l.Text = e.Text
			if l.Target == nil {
				l.Target, l.Snapshot = e.Target, e.Snapshot
			}
			x.attach(len(x.ops)-1, e.ID)
			return
		}
		x.add(operation{Action: a, Target: e.Target, Snapshot: e.Snapshot, Text: e.Text}, e.ID)
	case trace.KindPaste:
		text := e.Text
		if text == "" {
			text = e.Value
		}
		if l != nil && l.Action == action.Paste && l.Text == "" && !x.echoed[len(x.ops)-1] {
			l.Text, l.Target, l.Snapshot = text, e.Target, e.Snapshot
			x.attach(len(x.ops)-1, e.ID)
			return
		}
		x.add(operation{Action: action.Paste, Target: e.Target, Snapshot: e.Snapshot, Text: text}, e.ID)
	case trace.KindNavigate:
		x.navigate(e)
	case trace.KindTabOpen:
		x.tabOpen(e)
	case trace.KindTabSwitch:
		x.tabSwitch(e)
	case trace.KindTabClose:
		x.tabClose(e)
	case trace.KindScroll:
		if x.keys { // a recording's scroll step sets a position
			x.add(operation{Action: action.Scroll, Target: e.Target, Snapshot: e.Snapshot, To: []float64{e.X, e.Y}}, e.ID)
			return
		}
		dir := "down"
		if e.Y < x.scrollY {
			dir = "up"
		}
		x.scrollY = e.Y
		if l != nil && l.Action == action.Scroll && l.Text == dir {
			x.attach(len(x.ops)-1, e.ID)
			return
		}
		x.add(operation{Action: action.Scroll, Text: dir}, e.ID)
	case trace.KindHover, trace.KindWait, trace.KindViewport:
		x.add(replayOp(e), e.ID)
	case trace.KindDragStart:
		x.add(operation{Action: action.Drag, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
	case trace.KindDrop:
		if l != nil && l.Action == action.Drag && l.Dest == nil {
			l.Dest, l.DestSnapshot = e.Target, e.Snapshot
			x.attach(len(x.ops)-1, e.ID)
			return
		}
		x.pending = append(x.pending, e.ID)
	default:
		x.pending = append(x.pending, e.ID)
	}
}

// input folds typing into one type op per field with the final value.
func (x *extractor) input(e *trace.Event) {
	full := x.full(e)
	switch {
	case isCheckable(full):
		x.toggle(e)
		return
	case isChooser(full):
		x.choose(e)
		return
	case x.pasteEcho(e):
		x.echoed[len(x.ops)-1] = true
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	l := x.last()
	value := e.Value
	if l != nil && l.Action == action.Type && fieldKey(l.Target) == fieldKey(e.Target) {
		if value == "" {
			value = l.Text + e.Text
		}
		l.Text = value
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	if value == "" {
		value = e.Text
	}
	if l != nil && l.Action == action.Click && fieldKey(l.Target) == fieldKey(e.Target) {
		l.Action, l.Text = action.Type, value
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	x.add(operation{Action: action.Type, Target: e.Target, Snapshot: e.Snapshot, Text: value}, e.ID)
}

// change is the commit of typing, a toggled checkbox or a picked value.
func (x *extractor) change(e *trace.Event) {
	l := x.last()
	if l != nil && (l.Action == action.Type || l.Action == action.Paste) && fieldKey(l.Target) == fieldKey(e.Target) {
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	if x.typedEarlier(e.Target) && l != nil {
		// The person's keystrokes into this field are an earlier type;
		// a value set since, with no keystrokes of its own, is the
		// effect of what came after (an autocomplete's suggestion
		// chosen fills the field in): it belongs to that op, and the
		// value typed stays the one the person typed.
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	if isCheckable(x.full(e)) {
		x.toggle(e)
		return
	}
	if isChooser(x.full(e)) {
		x.choose(e)
		return
	}
	x.add(operation{Action: action.Type, Target: e.Target, Snapshot: e.Snapshot, Text: e.Value}, e.ID)
}

// typedEarlier reports whether an op so far typed into the field t, from
// the person's own keystrokes (input events): a recording imported from
// the DevTools Recorder has no keystrokes, its change is what it typed.
func (x *extractor) typedEarlier(t *trace.Target) bool {
	if x.keys || t == nil {
		return false
	}
	for i := range x.ops {
		if x.ops[i].Action == action.Type && fieldKey(x.ops[i].Target) == fieldKey(t) {
			return true
		}
	}
	return false
}

// keyDown makes chords into clipboard/save/key ops and Enter into enter;
// characters wait for the input event that carries their result.
func (x *extractor) keyDown(e *trace.Event) {
	k := e.Key
	if k == nil || trace.ModifierKey(k.Key) || k.Repeat {
		x.pending = append(x.pending, e.ID)
		return
	}
	if k.Ctrl || k.Meta {
		if a, ok := chordActions[strings.ToLower(k.Key)]; ok && !k.Shift && !k.Alt {
			x.add(operation{Action: a, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
		} else {
			x.add(operation{Action: action.Key, Target: e.Target, Snapshot: e.Snapshot, Text: chord(k)}, e.ID)
		}
		return
	}
	switch {
	case k.Key == "Enter" || k.Key == "ENTER":
		x.add(operation{Action: action.Enter, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
	case x.keys && k.Key != "Unidentified":
		x.add(operation{Action: action.Key, Target: e.Target, Snapshot: e.Snapshot, Text: chord(k)}, e.ID)
	case len([]rune(k.Key)) == 1 || k.Key == "Backspace" || k.Key == "Delete" || k.Key == "Unidentified":
		x.pending = append(x.pending, e.ID)
	default:
		x.add(operation{Action: action.Key, Target: e.Target, Snapshot: e.Snapshot, Text: chord(k)}, e.ID)
	}
}

// chord renders a key and its modifiers as "Ctrl+Shift+A".
func chord(k *trace.Key) string {
	var parts []string
	if k.Ctrl {
		parts = append(parts, "Ctrl")
	}
	if k.Alt {
		parts = append(parts, "Alt")
	}
	if k.Shift {
		parts = append(parts, "Shift")
	}
	if k.Meta {
		parts = append(parts, "Meta")
	}
	key := k.Key
	if len([]rune(key)) == 1 {
		key = strings.ToUpper(key)
	}
	return strings.Join(append(parts, key), "+")
}
