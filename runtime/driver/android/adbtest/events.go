package adbtest

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// The simulated input devices, as getevent lists them. The touchscreen's
// axes run to 4095, not to the screen size, so a recorder must scale raw
// positions to pixels as Android does: px = raw * ScreenWidth / (TouchMax+1).
const (
	TouchMax    = 4095
	touchDevice = "/dev/input/event2"
	keysDevice  = "/dev/input/event1"
	powerDevice = "/dev/input/event0"
)

// Event type and code numbers (linux/input-event-codes.h) for the labels
// getevent prints.
var evTypes = map[string]uint16{"EV_SYN": 0, "EV_KEY": 1, "EV_ABS": 3}

var evCodes = map[string]uint16{
	"SYN_REPORT": 0, "BTN_TOUCH": 0x14a, "ABS_MT_SLOT": 0x2f, "ABS_MT_TOUCH_MAJOR": 0x30,
	"ABS_MT_POSITION_X": 0x35, "ABS_MT_POSITION_Y": 0x36, "ABS_MT_TRACKING_ID": 0x39,
	"ABS_MT_PRESSURE": 0x3a, "KEY_BACKSPACE": 14, "KEY_ENTER": 28, "KEY_VOLUMEDOWN": 114,
	"KEY_VOLUMEUP": 115, "KEY_POWER": 116, "KEY_BACK": 158, "KEY_HOMEPAGE": 172, "KEY_APPSELECT": 0x244,
}

// event is one input_event of a device.
type event struct {
	dev, typ, code string
	value          int32
}

// format prints e as `getevent` does: with stamps ([uptime] first, -t)
// and labels (-l), fixed-width columns with trailing blanks, values in hex,
// key values as DOWN/UP.
func (e event) format(ts time.Duration, labels, stamps bool) string {
	prefix := e.dev + ": "
	if stamps {
		prefix = fmt.Sprintf("[%8d.%06d] %s", ts/time.Second, (ts%time.Second)/time.Microsecond, prefix)
	}
	if !labels {
		return prefix + fmt.Sprintf("%04x %04x %08x\n", evTypes[e.typ], evCodes[e.code], uint32(e.value))
	}
	val := fmt.Sprintf("%08x", uint32(e.value))
	if e.typ == "EV_KEY" {
		val = map[int32]string{0: "UP", 1: "DOWN", 2: "REPEAT"}[e.value]
	}
	return prefix + fmt.Sprintf("%-12.12s %-20.20s %-20.20s\n", e.typ, e.code, val)
}

// stamped is an event with the uptime at which it happened.
type stamped struct {
	ts time.Duration
	event
}

// report is the events of one moment, ended by SYN_REPORT.
type report struct {
	after  time.Duration // since the previous report of the gesture
	events []event
}

// eventHub fans gestures out to every open `getevent` stream of a device
// and keeps their timestamps monotonic.
type eventHub struct {
	mu       sync.Mutex
	subs     map[*subscriber]struct{}
	booted   time.Time // uptime 0; timestamps are uptime, as in getevent
	last     time.Duration
	tracking int32
}

// subscriber is one getevent stream; each element is one gesture.
type subscriber struct {
	ch chan []stamped
}

func newEventHub() *eventHub {
	// A device that has been up for a while prints timestamps like
	// "[    1000.123456]"; zero would hide width bugs in a parser.
	return &eventHub{subs: map[*subscriber]struct{}{}, booted: time.Now().Add(-1000 * time.Second)}
}

func (h *eventHub) subscribe() *subscriber {
	s := &subscriber{ch: make(chan []stamped, 256)}
	h.mu.Lock()
	h.subs[s] = struct{}{}
	h.mu.Unlock()
	return s
}

func (h *eventHub) unsubscribe(s *subscriber) {
	h.mu.Lock()
	delete(h.subs, s)
	h.mu.Unlock()
}

func (h *eventHub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// publish stamps a gesture's reports and hands them to every stream. A
// stream that has fallen 256 gestures behind loses the gesture rather than
// blocking the test.
func (h *eventHub) publish(reports []report) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ts := max(time.Since(h.booted), h.last+time.Microsecond)
	var out []stamped
	for i, r := range reports {
		if i > 0 {
			ts += r.after
		}
		for _, e := range r.events {
			out = append(out, stamped{ts, e})
		}
		out = append(out, stamped{ts, event{r.events[0].dev, "EV_SYN", "SYN_REPORT", 0}})
	}
	h.last = ts
	for s := range h.subs {
		select {
		case s.ch <- out:
		default:
		}
	}
}

// rawX and rawY convert pixels to the touchscreen's axis units.
func rawX(x int) int32 {
	return int32(min(TouchMax, max(0, (x*(TouchMax+1)+ScreenWidth/2)/ScreenWidth)))
}
func rawY(y int) int32 {
	return int32(min(TouchMax, max(0, (y*(TouchMax+1)+ScreenHeight/2)/ScreenHeight)))
}

// touch is the reports of one finger going down at the first point, moving
// through the others and lifting, 16 ms apart (60 Hz), lifted 60 ms after
// the last move.
func (h *eventHub) touch(points [][2]int) []report {
	h.mu.Lock()
	id := h.tracking
	h.tracking++
	h.mu.Unlock()
	abs := func(code string, v int32) event { return event{touchDevice, "EV_ABS", code, v} }
	down := report{events: []event{
		abs("ABS_MT_TRACKING_ID", id),
		abs("ABS_MT_POSITION_X", rawX(points[0][0])),
		abs("ABS_MT_POSITION_Y", rawY(points[0][1])),
		{touchDevice, "EV_KEY", "BTN_TOUCH", 1},
	}}
	out := []report{down}
	for _, p := range points[1:] {
		out = append(out, report{after: 16 * time.Millisecond, events: []event{
			abs("ABS_MT_POSITION_X", rawX(p[0])), abs("ABS_MT_POSITION_Y", rawY(p[1]))}})
	}
	return append(out, report{after: 60 * time.Millisecond, events: []event{
		abs("ABS_MT_TRACKING_ID", -1), {touchDevice, "EV_KEY", "BTN_TOUCH", 0}}})
}

// press is the reports of a hardware key pressed and released.
func press(key string) []report {
	return []report{
		{events: []event{{keysDevice, "EV_KEY", key, 1}}},
		{after: 80 * time.Millisecond, events: []event{{keysDevice, "EV_KEY", key, 0}}},
	}
}

// axis is an absolute axis of an input device and its maximum.
type axis struct {
	name string
	max  int
}

// inputDevices describes the devices for `getevent -p`: name, keys, axes,
// input properties.
var inputDevices = []struct {
	path, name string
	keys       []string
	axes       []axis
	props      []string
}{
	{powerDevice, "gpio-keys", []string{"KEY_VOLUMEDOWN", "KEY_VOLUMEUP", "KEY_POWER"}, nil, nil},
	{keysDevice, "sim_nav_keys", []string{"KEY_BACKSPACE", "KEY_ENTER", "KEY_BACK", "KEY_HOMEPAGE", "KEY_APPSELECT"}, nil, nil},
	{touchDevice, "sim_touchscreen", []string{"BTN_TOUCH"}, []axis{
		{"ABS_MT_SLOT", 9}, {"ABS_MT_TOUCH_MAJOR", 255}, {"ABS_MT_POSITION_X", TouchMax},
		{"ABS_MT_POSITION_Y", TouchMax}, {"ABS_MT_TRACKING_ID", 65535}, {"ABS_MT_PRESSURE", 255},
	}, []string{"INPUT_PROP_DIRECT"}},
}

// deviceHeader is what getevent prints as it opens each device; with
// possible it adds the capability listing of -p.
func deviceHeader(possible, labels bool) string {
	var b strings.Builder
	for i, d := range inputDevices {
		fmt.Fprintf(&b, "add device %d: %s\n  name:     %q\n", i+1, d.path, d.name)
		if !possible {
			continue
		}
		b.WriteString("  events:\n")
		writeCaps(&b, "KEY", 1, d.keys, nil, labels)
		writeCaps(&b, "ABS", 3, nil, d.axes, labels)
		b.WriteString("  input props:\n")
		if len(d.props) == 0 {
			b.WriteString("    <none>\n")
		}
		for _, p := range d.props {
			fmt.Fprintf(&b, "    %s\n", p)
		}
	}
	return b.String()
}

// writeCaps prints one event type's capabilities as getevent -p does: four
// keys per line, one axis per line with its ranges.
func writeCaps(b *strings.Builder, label string, typ int, keys []string, axes []axis, labels bool) {
	names := keys
	for _, ax := range axes {
		names = append(names, ax.name)
	}
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(b, "    %s (%04x):", label, typ)
	for i, name := range names {
		if i > 0 && (axes != nil || i%4 == 0) {
			b.WriteString("\n               ")
		}
		if labels {
			fmt.Fprintf(b, " %-20s ", name)
		} else {
			fmt.Fprintf(b, " %04x ", evCodes[name])
		}
		if axes != nil {
			fmt.Fprintf(b, " : value 0, min 0, max %d, fuzz 0, flat 0, resolution 0", axes[i].max)
		}
	}
	b.WriteString("\n")
}
