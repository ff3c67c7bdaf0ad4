// Package compiler turns a recorded demonstration (a trace) into a workflow
// file. This package holds the rule-based core, each stage testable alone:
// operation extraction (Extract), element enrichment (Describe), structure
// dependencies and the task type (in Compile), and emission of a formatted
// *ast.File. Steps that need judgement get a TODO placeholder dependency and
// a warning; no LLM is called here.
package compiler

import (
	"strings"

	"github.com/cogflow/cogflow/compiler/trace"
)

// Op is one operation of the language extracted from raw events.
type Op struct {
	// Action is the language's action: click, double_click, right_click,
	// type, copy, cut, paste, save, key, enter, select_text, open, new_tab,
	// switch_window, close_tab, drag, scroll.
	Action string
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
}

// modifierKeys are keys that are only ever part of a chord.
var modifierKeys = map[string]bool{"Control": true, "Shift": true, "Alt": true, "Meta": true, "CapsLock": true}

// chordActions maps Ctrl+letter to its action; other chords become key.
var chordActions = map[string]string{"c": "copy", "x": "cut", "v": "paste", "s": "save"}

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
	return t.Role + "|" + t.Name + "|" + t.Label
}

// Extract turns the trace's raw events into operations by rules: clicks by
// kind, keystrokes and input on one field grouped into one type with the
// final value, key chords into copy/cut/paste/save/key, Enter into enter,
// selection into select_text, a navigation not caused by an event into
// open, tab events into new_tab/switch_window/close_tab, drag_start+drop
// into drag, scrolls into scroll. Events that are consequences (a navigate
// or submit caused by an earlier event, a modifier key press, a keystroke
// whose input event follows) are attached to the op they belong to.
func Extract(tr *trace.Trace) []Op {
	var ops []Op
	var pending []string
	opOf := map[string]int{} // event id → op index
	last := func() *Op {
		if len(ops) == 0 {
			return nil
		}
		return &ops[len(ops)-1]
	}
	add := func(op Op, id string) {
		op.Events = append(append(pending, op.Events...), id)
		pending = nil
		ops = append(ops, op)
		opOf[id] = len(ops) - 1
	}
	attach := func(i int, id string) {
		ops[i].Events = append(ops[i].Events, pending...)
		ops[i].Events = append(ops[i].Events, id)
		pending = nil
		opOf[id] = i
	}
	var openedTab string // window id of a tab a new_tab op opened
	var scrollY float64
	for i := range tr.Events {
		e := &tr.Events[i]
		if e.Cause != "" {
			if k, ok := opOf[e.Cause]; ok && e.Kind != trace.KindTabSwitch {
				attach(k, e.ID)
				continue
			}
		}
		l := last()
		switch e.Kind {
		case trace.KindClick, trace.KindMiddleClick:
			add(Op{Action: "click", Target: e.Target, Snapshot: e.Snapshot}, e.ID)
		case trace.KindDblClick:
			add(Op{Action: "double_click", Target: e.Target, Snapshot: e.Snapshot}, e.ID)
		case trace.KindRightClick:
			add(Op{Action: "right_click", Target: e.Target, Snapshot: e.Snapshot}, e.ID)
		case trace.KindInput:
			value := e.Value
			if l != nil && l.Action == "type" && fieldKey(l.Target) == fieldKey(e.Target) {
				if value == "" {
					value = l.Text + e.Text
				}
				l.Text = value
				attach(len(ops)-1, e.ID)
				continue
			}
			if value == "" {
				value = e.Text
			}
			if l != nil && l.Action == "click" && fieldKey(l.Target) == fieldKey(e.Target) {
				l.Action, l.Text = "type", value
				attach(len(ops)-1, e.ID)
				continue
			}
			add(Op{Action: "type", Target: e.Target, Snapshot: e.Snapshot, Text: value}, e.ID)
		case trace.KindChange:
			if l != nil && (l.Action == "type" || l.Action == "paste") && fieldKey(l.Target) == fieldKey(e.Target) {
				attach(len(ops)-1, e.ID)
				continue
			}
			if e.Target != nil && (e.Target.Role == "checkbox" || e.Target.Role == "radio" || e.Target.Role == "switch") {
				if l != nil && l.Action == "click" && fieldKey(l.Target) == fieldKey(e.Target) {
					attach(len(ops)-1, e.ID)
				} else {
					add(Op{Action: "click", Target: e.Target, Snapshot: e.Snapshot}, e.ID)
				}
				continue
			}
			add(Op{Action: "type", Target: e.Target, Snapshot: e.Snapshot, Text: e.Value}, e.ID)
		case trace.KindKeyDown:
			if e.Key == nil || modifierKeys[e.Key.Key] || e.Key.Repeat {
				pending = append(pending, e.ID)
				continue
			}
			k := e.Key
			if k.Ctrl || k.Meta {
				low := strings.ToLower(k.Key)
				if a, ok := chordActions[low]; ok && !k.Shift && !k.Alt {
					add(Op{Action: a, Target: e.Target, Snapshot: e.Snapshot}, e.ID)
				} else {
					add(Op{Action: "key", Target: e.Target, Snapshot: e.Snapshot, Text: chord(k)}, e.ID)
				}
				continue
			}
			switch {
			case k.Key == "Enter" || k.Key == "ENTER":
				add(Op{Action: "enter", Target: e.Target, Snapshot: e.Snapshot}, e.ID)
			case len([]rune(k.Key)) == 1 || k.Key == "Backspace" || k.Key == "Delete" || k.Key == "Unidentified":
				// A character or edit: its input event carries the result.
				pending = append(pending, e.ID)
			default:
				add(Op{Action: "key", Target: e.Target, Snapshot: e.Snapshot, Text: chord(k)}, e.ID)
			}
		case trace.KindKeyUp, trace.KindFocus:
			if l != nil {
				attach(len(ops)-1, e.ID)
			} else {
				pending = append(pending, e.ID)
			}
		case trace.KindSelect:
			add(Op{Action: "select_text", Target: e.Target, Snapshot: e.Snapshot, Text: e.Text}, e.ID)
		case trace.KindCopy, trace.KindCut:
			a := string(e.Kind)
			if l != nil && l.Action == a && l.Text == "" {
				l.Text = e.Text
				if l.Target == nil {
					l.Target, l.Snapshot = e.Target, e.Snapshot
				}
				attach(len(ops)-1, e.ID)
				continue
			}
			add(Op{Action: a, Target: e.Target, Snapshot: e.Snapshot, Text: e.Text}, e.ID)
		case trace.KindPaste:
			text := e.Text
			if text == "" {
				text = e.Value
			}
			if l != nil && l.Action == "paste" && l.Text == "" {
				l.Text, l.Target, l.Snapshot = text, e.Target, e.Snapshot
				attach(len(ops)-1, e.ID)
				continue
			}
			add(Op{Action: "paste", Target: e.Target, Snapshot: e.Snapshot, Text: text}, e.ID)
		case trace.KindNavigate:
			if l != nil && l.Action == "new_tab" && l.Text == "" {
				l.Text = e.URL
				attach(len(ops)-1, e.ID)
				continue
			}
			add(Op{Action: "open", Text: e.URL}, e.ID)
		case trace.KindTabOpen:
			op := Op{Action: "new_tab"}
			if e.Window != nil {
				if e.Window.URL != "about:blank" {
					op.Text = e.Window.URL
				}
				openedTab = e.Window.ID
			}
			add(op, e.ID)
		case trace.KindTabSwitch:
			if l != nil && l.Action == "new_tab" && (e.Window == nil || e.Window.ID == "" || e.Window.ID == openedTab) && e.Cause == "" {
				attach(len(ops)-1, e.ID)
				continue
			}
			title := ""
			if e.Window != nil {
				title = e.Window.Title
				if title == "" {
					title = e.Window.URL
				}
			}
			if title == "" {
				pending = append(pending, e.ID)
				continue
			}
			add(Op{Action: "switch_window", Text: title}, e.ID)
		case trace.KindTabClose:
			add(Op{Action: "close_tab"}, e.ID)
		case trace.KindScroll:
			dir := "down"
			if e.Y < scrollY {
				dir = "up"
			}
			scrollY = e.Y
			if l != nil && l.Action == "scroll" && l.Text == dir {
				attach(len(ops)-1, e.ID)
				continue
			}
			add(Op{Action: "scroll", Text: dir}, e.ID)
		case trace.KindDragStart:
			add(Op{Action: "drag", Target: e.Target, Snapshot: e.Snapshot}, e.ID)
		case trace.KindDrop:
			if l != nil && l.Action == "drag" && l.Dest == nil {
				l.Dest, l.DestSnapshot = e.Target, e.Snapshot
				attach(len(ops)-1, e.ID)
				continue
			}
			pending = append(pending, e.ID)
		case trace.KindSubmit:
			if l != nil {
				attach(len(ops)-1, e.ID)
			} else {
				pending = append(pending, e.ID)
			}
		default:
			pending = append(pending, e.ID)
		}
	}
	if len(pending) > 0 && len(ops) > 0 {
		ops[len(ops)-1].Events = append(ops[len(ops)-1].Events, pending...)
	}
	// A drag never dropped is not an operation.
	out := ops[:0]
	for _, op := range ops {
		if op.Action == "drag" && op.Dest == nil {
			continue
		}
		if op.Action == "paste" && op.Target == nil {
			op.Action = "key"
			op.Text = "Ctrl+V"
		}
		out = append(out, op)
	}
	return out
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
