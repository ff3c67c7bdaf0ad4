package compiler

import (
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// androidKeyNames turn the Android key names a recorder writes
// (KEYCODE_ without the prefix) into the language's key names; BACK
// becomes the back() action instead.
var androidKeyNames = map[string]string{
	"HOME": "Home", "APP_SWITCH": "AppSwitch", "MENU": "Menu", "SEARCH": "Search",
	"DEL": "Backspace", "FORWARD_DEL": "Delete", "ESCAPE": "Escape", "TAB": "Tab",
	"VOLUME_UP": "VolumeUp", "VOLUME_DOWN": "VolumeDown", "POWER": "Power",
}

// androidOps adapts the operations of an Android trace: the app the
// recording started in becomes a first launch step (API-first: an intent
// instead of taps through the launcher, and a run starts where the
// demonstration did), Android key names become the language's, and
// horizontal swipes become swipe steps.
func androidOps(tr *trace.Trace, ops []operation) []operation {
	if tr.Driver != trace.DriverAndroid {
		return ops
	}
	for i := range ops {
		op := &ops[i]
		if op.Action != action.Key {
			continue
		}
		switch name := strings.ToUpper(op.Text); {
		case name == "BACK":
			op.Action, op.Text, op.Target, op.Snapshot = action.Back, "", nil, ""
		case androidKeyNames[name] != "":
			op.Text = androidKeyNames[name]
		}
	}
	ops = androidSwipes(tr, ops)
	if tr.Start.App == "" {
		return ops
	}
	launch := operation{Action: action.Launch, Text: tr.Start.App, Events: []string{"start"}}
	return append([]operation{launch}, ops...)
}

// androidSwipes splits the scroll operations of an Android trace by what
// each scroll event did. The recorder's scroll position is virtual: a
// change of x is a horizontal swipe (a carousel, a pager), which becomes
// its own swipe("left"/"right") step on the element swiped; changes of y
// stay scrolls, merged while the direction holds. (extractOps grouped the
// events by vertical direction only.)
func androidSwipes(tr *trace.Trace, ops []operation) []operation {
	var out []operation
	var x, y float64
	for _, op := range ops {
		if op.Action != action.Scroll {
			out = append(out, op)
			continue
		}
		var group []operation
		var pending []string // events attached to the op that are not scrolls
		for _, id := range op.Events {
			e := tr.Event(id)
			if e == nil || e.Kind != trace.KindScroll {
				pending = append(pending, id)
				continue
			}
			next := scrollOp(e, e.X-x, e.Y-y)
			x, y = e.X, e.Y
			if n := len(group); n > 0 && next.Action == action.Scroll && group[n-1].Action == action.Scroll && group[n-1].Text == next.Text {
				group[n-1].Events = append(group[n-1].Events, append(pending, id)...)
			} else {
				next.Events = append(pending, id)
				group = append(group, next)
			}
			pending = nil
		}
		if len(group) == 0 {
			out = append(out, op)
			continue
		}
		group[len(group)-1].Events = append(group[len(group)-1].Events, pending...)
		out = append(out, group...)
	}
	return out
}

// scrollOp is the operation of one scroll event that moved the virtual
// position by (dx, dy): content-wise, so x growing is the finger going left.
func scrollOp(e *trace.Event, dx, dy float64) operation {
	switch {
	case dx*dx > dy*dy && dx > 0:
		return operation{Action: action.Swipe, Text: "left", Target: e.Target, Snapshot: e.Snapshot}
	case dx*dx > dy*dy:
		return operation{Action: action.Swipe, Text: "right", Target: e.Target, Snapshot: e.Snapshot}
	case dy < 0:
		return operation{Action: action.Scroll, Text: "up"}
	}
	return operation{Action: action.Scroll, Text: "down"}
}

// swipeExpr builds a swipe step: the direction, and the element swiped
// when the recorder saw one.
func (c *compiler) swipeExpr(i int, st *state) ast.Expr {
	in := c.infos[i]
	sw := perform(action.Swipe, str(in.Text))
	if in.Target != nil {
		sw.Args = append(sw.Args, named("target", c.targetExpr(i, in.full, in.desc, st, in.Snapshot)))
	}
	return sw
}
