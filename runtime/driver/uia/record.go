package uia

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The recorder's logic: low-level hook events (hooks_windows.go) in, trace
// events out. A mouse button press becomes a click on the element under
// the pointer (ElementFromPoint), with a snapshot of the foreground window
// taken then; a key press becomes a keydown on the focused element, and
// typing into a field becomes input events whose final value is read from
// the field when the typing ends (a click, Enter, Tab, the end of the
// recording). It is pure Go over the automation interface, so tests drive
// it with synthetic hook events over snapshot trees.

// DefaultStopChord ends a recording when RecordOptions.StopChord is empty.
// The recorder swallows it: the application never sees it.
const DefaultStopChord = "Ctrl+Shift+X"

// dblClickTime and dblClickDist decide when a second press is the second
// half of a double click (the Windows defaults: 500 ms, 4 pixels).
const (
	dblClickTime = 500 * time.Millisecond
	dblClickDist = 4
)

// errStop is returned by handle when the stop chord was pressed.
var errStop = errors.New("uia: record: stop chord pressed")

// hookEvent is one low-level input event as the hooks report it.
type hookEvent struct {
	Mouse                  bool   // a mouse button press; otherwise a key press
	Button                 string // left, right, middle
	X, Y                   int    // screen pixels
	VK                     uint16 // virtual key
	Char                   string // what the key types with the current layout, "" for none
	Ctrl, Alt, Shift, Meta bool
	Time                   time.Time
}

// recorder turns hook events into a trace.
type recorder struct {
	auto  automation
	tr    *trace.Trace
	start time.Time
	stop  Chord
	snaps int

	lastClick    int // index of the last click event, -1 after other events
	lastClickAt  time.Time
	lastX, lastY int

	typing *trace.Target // the field being typed into
}

func newRecorder(a automation, stopChord string, start time.Time) (*recorder, error) {
	if stopChord == "" {
		stopChord = DefaultStopChord
	}
	r := &recorder{auto: a, tr: trace.New(trace.DriverUIA), start: start, lastClick: -1}
	r.tr.Source = "cogflow record"
	r.tr.Recorded = start.UTC().Truncate(time.Millisecond)
	if !strings.EqualFold(stopChord, "none") {
		c, err := ParseChord(stopChord)
		if err != nil {
			return nil, err
		}
		if len(c.Mods) == 0 {
			return nil, fmt.Errorf("uia: record: the stop chord %q needs a modifier", stopChord)
		}
		r.stop = c
	}
	return r, nil
}

// add appends an event with the next id.
func (r *recorder) add(e trace.Event, at time.Time) {
	e.ID = fmt.Sprintf("e%d", len(r.tr.Events)+1)
	e.Time = max(0, at.Sub(r.start).Milliseconds())
	if n := len(r.tr.Events); n > 0 && e.Time < r.tr.Events[n-1].Time {
		e.Time = r.tr.Events[n-1].Time // hook times may step back a little
	}
	r.tr.Events = append(r.tr.Events, e)
}

// handle records one hook event.
func (r *recorder) handle(ev hookEvent) error {
	if ev.Mouse {
		return r.press(ev)
	}
	return r.key(ev)
}

// press records a mouse button press: a click on the element under the
// pointer, in a snapshot of the foreground window; a second press at the
// same place soon after turns the click into a double click.
func (r *recorder) press(ev hookEvent) error {
	if i := r.lastClick; i >= 0 && ev.Button == "left" && r.tr.Events[i].Button == "left" &&
		ev.Time.Sub(r.lastClickAt) <= dblClickTime &&
		math.Abs(float64(ev.X-r.lastX)) <= dblClickDist && math.Abs(float64(ev.Y-r.lastY)) <= dblClickDist {
		r.tr.Events[i].Kind = trace.KindDblClick
		r.lastClick = -1
		return nil
	}
	r.lastClick = -1
	if err := r.flush(ev.Time); err != nil {
		return err
	}
	target, snap, err := r.at(ev.X, ev.Y)
	if err != nil {
		return err
	}
	kind := map[string]trace.Kind{"left": trace.KindClick, "right": trace.KindRightClick, "middle": trace.KindMiddleClick}[ev.Button]
	if kind == "" {
		return nil // back/forward buttons: not actions of the language
	}
	e := trace.Event{Kind: kind, Button: ev.Button, Target: target, Snapshot: snap,
		X: float64(ev.X), Y: float64(ev.Y), OffsetX: float64(ev.X) - target.Bounds.X, OffsetY: float64(ev.Y) - target.Bounds.Y}
	if ev.Ctrl || ev.Alt || ev.Shift || ev.Meta {
		e.Key = &trace.Key{Ctrl: ev.Ctrl, Alt: ev.Alt, Shift: ev.Shift, Meta: ev.Meta}
	}
	r.add(e, ev.Time)
	r.lastClick, r.lastClickAt, r.lastX, r.lastY = len(r.tr.Events)-1, ev.Time, ev.X, ev.Y
	return nil
}

// at describes the element at a point: found in a walk of the foreground
// window (with its context and a snapshot), or on its own when the walk
// does not hold it (a popup menu, another window not yet in front).
func (r *recorder) at(x, y int) (*trace.Target, string, error) {
	n, err := r.auto.FromPoint(x, y)
	if err != nil {
		return nil, "", fmt.Errorf("uia: record: element at %d,%d: %w", x, y, err)
	}
	target, snap := r.locate(n)
	return target, snap, nil
}

// locate finds a node in a snapshot of the foreground window and of the
// popup menus open over it (Win32 shows a menu in a window of its own):
// each popup is a root of its own after the window's elements, so a click
// in a menu has a snapshot that shows which menu it is in.
func (r *recorder) locate(n *Node) (*trace.Target, string) {
	if root, err := r.auto.Walk("", DefaultLimits); err == nil && root != nil {
		els := Normalize(root)
		if popups, err := r.auto.Popups(DefaultLimits); err == nil {
			refs := map[string]bool{}
			for _, e := range els {
				refs[e.Ref] = true
			}
			for i, p := range popups {
				offset := len(els)
				for _, e := range Normalize(p) {
					if e.Parent >= 0 {
						e.Parent += offset
					}
					if refs[e.Ref] { // a path ref ("p:…") the window has too: refs are unique in a snapshot
						e.Ref = fmt.Sprintf("popup%d:%s", i+1, e.Ref)
					}
					refs[e.Ref] = true
					els = append(els, e)
				}
			}
		}
		tree := &driver.Tree{Title: clean(root.Name), Elements: els}
		for i, e := range els {
			if e.Ref == n.Ref {
				r.snaps++
				id := fmt.Sprintf("s%d", r.snaps)
				if r.tr.Snapshots == nil {
					r.tr.Snapshots = map[string]trace.Snapshot{}
				}
				r.tr.Snapshots[id] = driver.SnapshotOf(tree)
				return driver.TargetOf(tree, i), id
			}
		}
	}
	el := element(n)
	el.Parent, el.Path = -1, segment(n)
	el.Text = capText(textOf(n, kids(n)))
	return driver.TargetOf(&driver.Tree{Elements: []*driver.Element{el}}, 0), ""
}

// key records a key press on the focused element.
func (r *recorder) key(ev hookEvent) error {
	if isModifier(ev.VK) {
		return nil
	}
	r.lastClick = -1 // a key between two presses: no double click
	if r.isStop(ev) {
		if err := r.flush(ev.Time); err != nil {
			return err
		}
		return errStop
	}
	name := KeyName(ev.VK, ev.Shift)
	typed := ev.Char != "" && !ev.Ctrl && !ev.Alt && !ev.Meta && ev.VK != vkReturn && ev.VK != vkTab
	if name == "" || (typed && len([]rune(ev.Char)) == 1 && name != " ") {
		name = ev.Char
	}
	if name == "" {
		return nil // a key with no name and no text: nothing a workflow can press
	}
	ends := ev.VK == vkReturn || ev.VK == vkTab || ev.VK == vkEscape || ev.Ctrl || ev.Alt || ev.Meta
	if ends {
		if err := r.flush(ev.Time); err != nil {
			return err
		}
	}
	var target *trace.Target
	snap := ""
	if n, err := r.auto.Focused(); err == nil && n != nil {
		// One walk per field, not per key: the keys after the first in
		// the same field reuse its description.
		if r.typing != nil && r.typing.Ref == n.Ref {
			target = r.typing
		} else {
			target, snap = r.locate(n)
		}
	}
	e := trace.Event{Kind: trace.KindKeyDown, Target: target, Snapshot: snap,
		Key: &trace.Key{Key: name, Ctrl: ev.Ctrl, Alt: ev.Alt, Shift: ev.Shift, Meta: ev.Meta}}
	if typed {
		e.Text = ev.Char
	}
	r.add(e, ev.Time)
	if typed && target != nil && target.Editable {
		r.add(trace.Event{Kind: trace.KindInput, Target: target, Text: ev.Char}, ev.Time)
		r.typing = target
	} else if (ev.VK == vkBack || ev.VK == vkDelete) && target != nil && target.Editable && r.typing == nil {
		r.typing = target
	}
	return nil
}

// isStop reports whether a key press is the stop chord.
func (r *recorder) isStop(ev hookEvent) bool {
	if r.stop.Key == 0 && r.stop.Rune == 0 {
		return false
	}
	want := map[uint16]bool{}
	for _, m := range r.stop.Mods {
		want[m] = true
	}
	if want[vkControl] != ev.Ctrl || want[vkShift] != ev.Shift || want[vkMenu] != ev.Alt || want[vkLWin] != ev.Meta {
		return false
	}
	if r.stop.Key != 0 {
		return ev.VK == r.stop.Key
	}
	return ev.Char == string(r.stop.Rune)
}

// flush ends a run of typing: the field's value now is the input's final
// value, so deletions and autocompletion are recorded as they ended.
func (r *recorder) flush(at time.Time) error {
	if r.typing == nil {
		return nil
	}
	t := r.typing
	r.typing = nil
	n, err := r.auto.Focused()
	if err != nil || n == nil || n.Ref != t.Ref || n.Password {
		return nil // focus moved on; the typed text stands for the value
	}
	r.add(trace.Event{Kind: trace.KindInput, Target: t, Value: clean(n.Value)}, at)
	return nil
}

// RecordOptions tune Record.
type RecordOptions struct {
	// StopChord ends the recording, like "Ctrl+Shift+X" (the default);
	// "none" disables it (then only the context ends it).
	StopChord string
	// App is started before recording (a path, a command or an
	// AppUserModelID) and becomes the trace's start; empty records from
	// the windows already open.
	App string
	// Warn hears about events that could not be recorded (a click where
	// UI Automation finds no element); they are left out, and the
	// recording goes on.
	Warn func(error)
}

// record runs a recording: hook events in until the stop chord, the end
// of the events or of the context; the trace of what was recorded is
// returned in every case. An event that cannot be recorded is left out
// and reported to opts.Warn.
func record(ctx context.Context, a automation, events <-chan hookEvent, opts RecordOptions, start time.Time) (*trace.Trace, error) {
	r, err := newRecorder(a, opts.StopChord, start)
	if err != nil {
		return nil, err
	}
	r.tr.Start.App = opts.App
	last := start
	for {
		select {
		case <-ctx.Done():
			return r.finish(last), nil
		case ev, ok := <-events:
			if !ok {
				return r.finish(last), nil
			}
			last = ev.Time
			if err := r.handle(ev); err != nil {
				if errors.Is(err, errStop) {
					return r.finish(last), nil
				}
				if opts.Warn != nil {
					opts.Warn(err)
				}
			}
		}
	}
}

// finish ends the recording and returns the trace.
func (r *recorder) finish(at time.Time) *trace.Trace {
	_ = r.flush(at)
	return r.tr
}
