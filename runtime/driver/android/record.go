package android

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// RecordOptions tune Record.
type RecordOptions struct {
	// App, when set, is launched before recording starts ("com.example.app"
	// or "com.example.app/.MainActivity") and becomes the trace's start;
	// otherwise the start is the app in front when recording begins.
	App string
	// Poll is how often the screen is dumped while no finger is down, so
	// the dump before a touch is recent and typing is seen; default 300 ms.
	Poll time.Duration
	// Warn, when set, is told about what the trace may lack: typing that
	// no dump saw because the screen changed right after it.
	Warn func(msg string)
}

// Gesture thresholds.
const (
	longPress   = 500 * time.Millisecond // a touch held this long is a long press
	doubleTap   = 300 * time.Millisecond // a second tap this soon after the first is a double tap
	tapSlopFrac = 0.03                   // a finger that moves less than this fraction of the screen width taps
)

// Record records what a person does on the device until ctx ends or the
// device stops answering, and returns the trace: touches from `getevent
// -lt`, scaled by the touchscreen's axis ranges from `getevent -lp` to the
// `wm size` pixels, each mapped to the element under the finger in the
// dump taken before it (the nearest clickable element, as Android
// dispatches the touch); typed text from the change of an editable field's
// value between two dumps; BACK, HOME, ENTER and app-switch keys. A touch
// held 500 ms is a long press (recorded as a rightclick: the context
// action); a swipe is a scroll event whose virtual position tells its
// direction (the compiler makes vertical ones scrolls, horizontal ones
// swipes).
//
// It always returns the trace recorded so far, valid, with the error that
// ended the recording early, if any (ctx's end is not an error).
//
// Known limits: touches outside the dumped window are not recorded, and
// the soft keyboard's taps on an app drawn under it are taken for taps on
// the app, so typing is only seen through the field's value; text typed
// into password fields is not recorded; multi-finger gestures are dropped.
func (d *Driver) Record(ctx context.Context, opts RecordOptions) (*trace.Trace, error) {
	tr := trace.New(trace.DriverAndroid)
	tr.Source = "cogflow record"
	tr.Recorded = time.Now().UTC().Truncate(time.Second)
	if opts.Poll <= 0 {
		opts.Poll = 300 * time.Millisecond
	}
	r := &recorder{d: d, tr: tr, opts: opts, start: time.Now(), snaps: map[*driver.Tree]string{}, lastTap: -1}
	setup, cancel := context.WithTimeout(ctx, d.life.Timeout())
	defer cancel()
	if err := r.setup(setup, opts.App); err != nil {
		return tr, fmt.Errorf("android: record: %w", err)
	}
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	stream, err := d.dev.ShellStream(lctx, "getevent -lt")
	if err != nil {
		return tr, fmt.Errorf("android: record: getevent: %w", deviceError(ctx, err))
	}
	defer stream.Close()
	events := make(chan inputEvent, 4096)
	ended := make(chan error, 1)
	go func() {
		err := readEvents(lctx, stream, events)
		close(events)
		ended <- err
	}()
	result, closed := r.loop(ctx, events, opts.Poll)
	if result != nil {
		result = fmt.Errorf("android: record: %w", result)
	}
	if closed && result == nil {
		// The stream ended before ctx did: the connection broke, or the
		// device closed it (a clean close looks like the command ending).
		err := <-ended
		if err == nil {
			err = errors.New("the device ended the event stream")
		}
		result = fmt.Errorf("android: record: getevent: %w", deviceError(ctx, err))
		if !errors.Is(result, ErrDeviceLost) {
			result = fmt.Errorf("%w: %w", ErrDeviceLost, result)
		}
	}
	if result == nil {
		// Typing after the last touch shows only in a last dump.
		fctx, cancel := context.WithTimeout(context.Background(), d.life.Timeout())
		result = r.refresh(fctx)
		cancel()
		if errors.Is(result, ErrDeviceLost) {
			result = nil // the device went away after the demonstration ended
		}
	}
	r.finish()
	if err := tr.Validate(); err != nil && result == nil {
		result = fmt.Errorf("android: record: the trace is invalid: %w", err)
	}
	return tr, result
}

// dumpRec is a dump and when it was requested, since the start.
type dumpRec struct {
	tree    *driver.Tree
	h       *hierarchy
	started time.Duration
	// lost are the warnings about focused fields this dump no longer
	// shows, held back because no touch or key had been read since the
	// dump before: the touch that changed the screen may still be on its
	// way from getevent (see late).
	lost []string
}

// maxHistory is how many dumps are kept to find the one before a touch.
const maxHistory = 8

// recorder builds a trace from gestures, keys and dumps.
type recorder struct {
	d     *Driver
	opts  RecordOptions
	tr    *trace.Trace
	start time.Time
	touch touchReader

	cur  *driver.Tree // the latest dump
	curH *hierarchy
	// history are the last dumps with when each was requested, to find
	// the one before a touch; offset turns device uptime into time since
	// start (the smallest delay seen: events only ever arrive late).
	history   []dumpRec
	offset    time.Duration
	offsetSet bool
	mark      int // events[mark:] happened after cur was taken
	snaps     map[*driver.Tree]string
	lastTap   int // index of the last tap's click event, -1 when the last event is something else
	lastUp    time.Duration
	scrollX   float64
	scrollY   float64
}

// setup reads the touchscreen's geometry, launches the app and takes the
// first dump.
func (r *recorder) setup(ctx context.Context, app string) error {
	out, err := r.d.dev.Shell(ctx, "getevent -lp")
	if err != nil {
		return fmt.Errorf("getevent -lp: %w", deviceError(ctx, err))
	}
	axes := parseAxes(string(out))
	if len(axes) == 0 {
		return fmt.Errorf("no touchscreen among the input devices (getevent -lp: %s)", firstLine(out))
	}
	out, err = r.d.dev.Shell(ctx, "wm size")
	if err != nil {
		return fmt.Errorf("wm size: %w", deviceError(ctx, err))
	}
	scr, err := parseWmSize(string(out))
	if err != nil {
		return err
	}
	r.touch = touchReader{axes: axes, scr: scr, rotation: func() int {
		if r.curH != nil {
			return r.curH.Rotation
		}
		return 0
	}}
	r.d.life.Lock()
	defer r.d.life.Unlock()
	if app != "" {
		if _, err := r.d.launch(ctx, app); err != nil {
			return err
		}
		if err := r.d.settle(ctx); err != nil {
			return err
		}
		r.tr.Start.App = app
	} else {
		r.tr.Start.App = r.d.foreground(ctx)
	}
	started := time.Since(r.start)
	h, _, err := r.d.dump(ctx)
	if err != nil {
		return err
	}
	r.curH, r.cur = h, normalize(h, time.Now())
	r.history = []dumpRec{{tree: r.cur, h: h, started: started}}
	return nil
}

// observed notes an event's arrival to estimate the device clock.
func (r *recorder) observed(e inputEvent) {
	if d := e.recv.Sub(r.start) - e.at; !r.offsetSet || d < r.offset {
		r.offset, r.offsetSet = d, true
	}
}

// before returns the last dump requested before a moment of the device's
// uptime: a dump requested after the finger went down may already show
// what the touch did.
func (r *recorder) before(at time.Duration) (*driver.Tree, *hierarchy) {
	local := at + r.offset
	for i := len(r.history) - 1; i >= 0; i-- {
		if r.history[i].started <= local {
			return r.history[i].tree, r.history[i].h
		}
	}
	return r.history[0].tree, r.history[0].h
}

var (
	focusedApp    = regexp.MustCompile(`mFocusedApp=.*?\bu\d+ ([\w.]+/[\w.$]+)`)
	resumed       = regexp.MustCompile(`mResumedActivity: .*?\bu\d+ ([\w.]+/[\w.$]+)`)
	launcherNames = regexp.MustCompile(`launcher|\.home\b|nexuslauncher|trebuchet`)
)

// foreground is the activity in front ("pkg/.Activity"), "" when it
// cannot be told or is the home screen (a workflow cannot launch home).
func (d *Driver) foreground(ctx context.Context) string {
	for _, q := range []struct {
		cmd string
		re  *regexp.Regexp
	}{{"dumpsys window", focusedApp}, {"dumpsys activity activities", resumed}} {
		out, err := d.dev.Shell(ctx, q.cmd)
		if err != nil {
			continue
		}
		if m := q.re.FindStringSubmatch(string(out)); m != nil {
			if launcherNames.MatchString(strings.ToLower(m[1])) {
				return ""
			}
			return m[1]
		}
	}
	return ""
}

// loop handles events and polls the screen until ctx ends or the stream
// does (closed).
func (r *recorder) loop(ctx context.Context, events <-chan inputEvent, poll time.Duration) (err error, closed bool) {
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, false
		case e, ok := <-events:
			if !ok {
				if ctx.Err() != nil {
					return nil, false
				}
				return nil, true // Record reads why from the reader
			}
			r.observed(e)
			g, k := r.touch.feed(e)
			var err error
			switch {
			case g != nil:
				err = r.gesture(ctx, g)
			case k != nil:
				err = r.key(ctx, k)
			}
			if err != nil && ctx.Err() == nil {
				return err, false
			}
		case <-tick.C:
			if r.touch.cur.active || len(events) > 0 {
				continue // a dump now could show what the touch did
			}
			if err := r.refresh(ctx); err != nil && ctx.Err() == nil {
				return err, false
			}
		}
	}
}

func (r *recorder) now() int64 {
	ms := time.Since(r.start).Milliseconds()
	if n := len(r.tr.Events); n > 0 && r.tr.Events[n-1].Time > ms {
		ms = r.tr.Events[n-1].Time
	}
	return ms
}

// snapshot names the tree in the trace, adding it on first use.
func (r *recorder) snapshot(t *driver.Tree) string {
	if id, ok := r.snaps[t]; ok {
		return id
	}
	id := fmt.Sprintf("s%d", len(r.snaps)+1)
	r.snaps[t] = id
	if r.tr.Snapshots == nil {
		r.tr.Snapshots = map[string]trace.Snapshot{}
	}
	r.tr.Snapshots[id] = driver.SnapshotOf(t)
	return id
}

// gesture records a finished touch against the dump before it, then dumps
// the screen it led to.
func (r *recorder) gesture(ctx context.Context, g *gesture) error {
	pre, preH := r.before(g.down)
	slop := tapSlopFrac * float64(r.touch.scr.w)
	if g.maxDist >= slop {
		r.swipe(g, pre, preH)
		return r.refresh(ctx)
	}
	i := hit(pre, preH, g.x0, g.y0)
	if i < 0 {
		return r.refresh(ctx) // the keyboard, a system bar: not the app
	}
	e := trace.Event{Time: r.now(), Kind: trace.KindClick, Button: trace.ButtonLeft,
		X: float64(g.x0), Y: float64(g.y0), Target: driver.TargetOf(pre, i)}
	el := pre.Elements[i]
	e.OffsetX, e.OffsetY = float64(g.x0)-el.Bounds.X, float64(g.y0)-el.Bounds.Y
	last := len(r.tr.Events) - 1
	switch {
	case g.up-g.down >= longPress:
		e.Kind, e.Button = trace.KindRightClick, trace.ButtonRight
	case r.lastTap >= 0 && r.lastTap == last && g.down-r.lastUp < doubleTap && sameTarget(r.tr.Events[last].Target, e.Target):
		// The second tap of a double tap: the first becomes the double tap.
		r.tr.Events[last].Kind = trace.KindDblClick
		r.lastTap = -1
		return r.refresh(ctx)
	}
	e.Snapshot = r.snapshot(pre)
	r.tr.Events = append(r.tr.Events, e)
	r.lastTap = -1
	if e.Kind == trace.KindClick {
		r.lastTap, r.lastUp = len(r.tr.Events)-1, g.up
	}
	r.late(g.down)
	return r.refresh(ctx)
}

// swipe records a swipe as a scroll of the scrollable element under the
// finger. The scroll position is virtual — the pixels the finger moved,
// summed, content-wise (the finger going up scrolls down) — and tells the
// compiler the direction: a change of y is a vertical scroll, of x a
// horizontal swipe (a carousel, a pager).
func (r *recorder) swipe(g *gesture, pre *driver.Tree, preH *hierarchy) {
	dx, dy := g.x1-g.x0, g.y1-g.y0
	if math.Abs(float64(dy)) >= math.Abs(float64(dx)) {
		r.scrollY -= float64(dy)
	} else {
		r.scrollX -= float64(dx)
	}
	e := trace.Event{Time: r.now(), Kind: trace.KindScroll, X: r.scrollX, Y: r.scrollY}
	if i := scrollableAt(pre, preH, g.x0, g.y0); i >= 0 {
		e.Target, e.Snapshot = driver.TargetOf(pre, i), r.snapshot(pre)
	}
	r.tr.Events = append(r.tr.Events, e)
	r.lastTap = -1
	r.late(g.down)
}

// androidKeys are the hardware keys a demonstration records, by their
// Linux names, as the Android key names traces use. Others (volume,
// power, a hardware keyboard's letters, whose effect shows in the field's
// value) are left out.
var androidKeys = map[string]string{
	"KEY_BACK": "BACK", "KEY_HOMEPAGE": "HOME", "KEY_HOME": "HOME", "KEY_ENTER": "ENTER",
	"KEY_KPENTER": "ENTER", "KEY_APPSELECT": "APP_SWITCH", "KEY_MENU": "MENU", "KEY_SEARCH": "SEARCH",
}

func (r *recorder) key(ctx context.Context, k *keyPress) error {
	name, ok := androidKeys[k.code]
	if !ok {
		return nil
	}
	e := trace.Event{Time: r.now(), Kind: trace.KindKeyDown, Key: &trace.Key{Key: name, Code: "KEYCODE_" + name}}
	for i, el := range r.cur.Elements {
		if el.Focus && el.Editable {
			e.Target, e.Snapshot = driver.TargetOf(r.cur, i), r.snapshot(r.cur)
			break
		}
	}
	r.tr.Events = append(r.tr.Events, e)
	r.lastTap = -1
	r.late(k.at)
	return r.refresh(ctx)
}

// refresh dumps the screen and records the fields whose value changed
// since the last dump as input events. Typing into the field that had the
// focus at the last dump happened before any touch recorded since (a
// touch elsewhere moves the focus), so its input goes before them.
func (r *recorder) refresh(ctx context.Context) error {
	started := time.Since(r.start)
	r.d.life.Lock()
	h, _, err := r.d.dump(ctx)
	r.d.life.Unlock()
	if err != nil {
		if errors.Is(err, ErrNoHierarchy) || ctx.Err() != nil {
			return nil // try again at the next poll
		}
		return err
	}
	next := normalize(h, time.Now())
	prev := r.cur
	seen := r.history[len(r.history)-1].started // when prev was requested
	var lost []string
	for i, old := range prev.Elements {
		if !old.Editable {
			continue
		}
		j := sameField(next, old)
		if j < 0 && old.Focus {
			lost = append(lost, fmt.Sprintf("the screen changed while %s had the focus: text typed into it after "+
				"%.1f s was not seen (pause a moment after typing before the next touch)", describe(old),
				float64(seen)/float64(time.Second)))
		}
		if j < 0 || next.Elements[j].Value == old.Value {
			continue
		}
		if !old.Focus && !next.Elements[j].Focus {
			continue // the app changed it (a form cleared, a value formatted), not typing
		}
		val := next.Elements[j].Value
		e := trace.Event{Kind: trace.KindInput, Value: val, Text: val,
			Target: driver.TargetOf(prev, i), Snapshot: r.snapshot(prev)}
		if strings.HasPrefix(val, old.Value) {
			e.Text = val[len(old.Value):]
		}
		at := len(r.tr.Events)
		if old.Focus && r.mark < at {
			at = r.mark
		}
		r.insert(at, e)
	}
	if r.mark < len(r.tr.Events) {
		for _, m := range lost {
			r.warn("%s", m)
		}
		lost = nil
	}
	r.cur, r.curH, r.mark = next, h, len(r.tr.Events)
	r.history = append(r.history, dumpRec{tree: next, h: h, started: started, lost: lost})
	if len(r.history) > maxHistory {
		r.history = r.history[1:]
	}
	return nil
}

// late tells the warnings held back by the dumps requested after a touch
// or key, recorded now, began at device uptime at: a poll took them before
// the event was read from getevent (the stream lags the screen), so the
// change they saw may be the event's doing, and the typing lost with it.
// Any such dump counts, not only the first: the app reacts when the finger
// lifts, and the event's time is an estimate.
func (r *recorder) late(at time.Duration) {
	local := at + r.offset
	for i := range r.history {
		if r.history[i].started > local {
			for _, m := range r.history[i].lost {
				r.warn("%s", m)
			}
			r.history[i].lost = nil
		}
	}
}

// warn tells the person about something the trace may lack.
func (r *recorder) warn(format string, args ...any) {
	if r.opts.Warn != nil {
		r.opts.Warn(fmt.Sprintf(format, args...))
	}
}

// insert puts e at index at, timed with the event it precedes.
func (r *recorder) insert(at int, e trace.Event) {
	evs := r.tr.Events
	if at >= len(evs) {
		e.Time = r.now()
		r.tr.Events = append(evs, e)
		return
	}
	e.Time = evs[at].Time
	evs = append(evs, trace.Event{})
	copy(evs[at+1:], evs[at:])
	evs[at] = e
	r.tr.Events = evs
	r.lastTap = -1
}

// sameField finds a field of t that is the field old of an earlier dump:
// by resource-id, else by path.
func sameField(t *driver.Tree, old *driver.Element) int {
	for _, match := range []func(e *driver.Element) bool{
		func(e *driver.Element) bool { return old.ID != "" && e.ID == old.ID },
		func(e *driver.Element) bool { return old.ID == "" && e.Path == old.Path },
	} {
		found := -1
		for j, e := range t.Elements {
			if e.Editable && match(e) {
				if found >= 0 {
					found = -2 // ambiguous: a list of fields with one id
					break
				}
				found = j
			}
		}
		if found >= 0 {
			return found
		}
	}
	return -1
}

// sameTarget reports whether two targets of different dumps are the same
// element: refs change when the screen around it does.
func sameTarget(a, b *trace.Target) bool {
	if a == nil || b == nil || a.Role != b.Role {
		return false
	}
	if a.ID != "" || b.ID != "" {
		return a.ID == b.ID
	}
	return a.Path == b.Path && a.Name == b.Name
}

// finish names the events in order.
func (r *recorder) finish() {
	for i := range r.tr.Events {
		r.tr.Events[i].ID = fmt.Sprintf("e%d", i+1)
	}
}
