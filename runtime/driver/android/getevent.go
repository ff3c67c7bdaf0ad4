package android

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// inputEvent is one line of `getevent -lt`:
// "[    1000.123456] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000007ff".
type inputEvent struct {
	at         time.Duration // since boot
	recv       time.Time     // when the line arrived here
	dev        string
	typ, code  string
	value      int64
	keyPressed int // for EV_KEY: 1 down, 0 up, 2 repeat; -1 otherwise
}

var eventLine = regexp.MustCompile(`^\[\s*(\d+)\.(\d+)\]\s+(\S+):\s+(\S+)\s+(\S+)\s+(\S+)\s*$`)

// parseEvent reads one labelled, timestamped getevent line; ok is false
// for other lines ("add device …", names, blank lines).
func parseEvent(line string) (inputEvent, bool) {
	m := eventLine.FindStringSubmatch(strings.TrimRight(line, "\r\n"))
	if m == nil {
		return inputEvent{}, false
	}
	sec, _ := strconv.ParseInt(m[1], 10, 64)
	frac := m[2]
	for len(frac) < 6 {
		frac += "0"
	}
	usec, _ := strconv.ParseInt(frac[:6], 10, 64)
	e := inputEvent{
		at:  time.Duration(sec)*time.Second + time.Duration(usec)*time.Microsecond,
		dev: m[3], typ: m[4], code: m[5], keyPressed: -1,
	}
	switch v := m[6]; v {
	case "DOWN":
		e.keyPressed, e.value = 1, 1
	case "UP":
		e.keyPressed, e.value = 0, 0
	case "REPEAT":
		e.keyPressed, e.value = 2, 2
	default:
		u, err := strconv.ParseUint(v, 16, 32)
		if err != nil {
			return inputEvent{}, false
		}
		e.value = int64(int32(uint32(u))) // tracking id -1 is ffffffff
	}
	return e, true
}

// axis is a touchscreen axis's range from `getevent -lp`.
type axis struct{ min, max int64 }

// touchAxes are the position axes of the touchscreen(s), by device path.
type touchAxes map[string][2]axis

var axisLine = regexp.MustCompile(`(ABS_MT_POSITION_X|ABS_MT_POSITION_Y|ABS_X|ABS_Y|0035|0036)\s*:\s*value\s+-?\d+,\s*min\s+(-?\d+),\s*max\s+(-?\d+)`)

// parseAxes reads `getevent -lp`: for each device, the ranges of its
// position axes. Multi-touch axes win over the legacy single-touch ones
// (a touchscreen reports both; a mouse-like device only ABS_X).
func parseAxes(out string) touchAxes {
	axes := touchAxes{}
	legacy := touchAxes{}
	dev := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "add device") {
			if i := strings.LastIndex(line, ": "); i >= 0 {
				dev = strings.TrimSpace(line[i+2:])
			}
			continue
		}
		m := axisLine.FindStringSubmatch(line)
		if m == nil || dev == "" {
			continue
		}
		lo, _ := strconv.ParseInt(m[2], 10, 64)
		hi, _ := strconv.ParseInt(m[3], 10, 64)
		target, k := axes, 0
		switch m[1] {
		case "ABS_MT_POSITION_Y", "0036":
			k = 1
		case "ABS_X":
			target = legacy
		case "ABS_Y":
			target, k = legacy, 1
		}
		a := target[dev]
		a[k] = axis{lo, hi}
		target[dev] = a
	}
	for dev, a := range legacy {
		if _, ok := axes[dev]; !ok && a[0].max > 0 && a[1].max > 0 {
			axes[dev] = a
		}
	}
	for dev, a := range axes {
		if a[0].max <= a[0].min || a[1].max <= a[1].min {
			delete(axes, dev)
		}
	}
	return axes
}

// screen maps raw touch positions to screen pixels: scaled from the axis
// range to the natural (rotation 0) size, as Android's input reader does,
// then turned by the display rotation.
type screen struct {
	w, h int // natural size in pixels (wm size)
}

func (s screen) point(a [2]axis, rx, ry int64, rotation int) (int, int) {
	x := float64(rx-a[0].min) * float64(s.w) / float64(a[0].max-a[0].min+1)
	y := float64(ry-a[1].min) * float64(s.h) / float64(a[1].max-a[1].min+1)
	xi, yi := int(math.Round(x)), int(math.Round(y))
	switch rotation {
	case 1: // 90°: the natural top edge is on the left
		return yi, s.w - xi
	case 2:
		return s.w - xi, s.h - yi
	case 3:
		return s.h - yi, xi
	}
	return xi, yi
}

var wmSize = regexp.MustCompile(`(Physical|Override) size:\s*(\d+)x(\d+)`)

// parseWmSize reads `wm size`; an override (set by `wm size WxH`) wins.
func parseWmSize(out string) (screen, error) {
	var s screen
	for _, m := range wmSize.FindAllStringSubmatch(out, -1) {
		w, _ := strconv.Atoi(m[2])
		h, _ := strconv.Atoi(m[3])
		if s.w == 0 || m[1] == "Override" {
			s = screen{w, h}
		}
	}
	if s.w == 0 {
		return s, fmt.Errorf("cannot read the screen size from `wm size`: %q", firstLine([]byte(out)))
	}
	return s, nil
}

// gesture is one finger's touch from down to up, in screen pixels.
type gesture struct {
	down, up             time.Duration
	x0, y0, x1, y1       int
	maxDist              float64 // farthest from the start
	dev                  string
	rawX, rawY           int64
	haveX, haveY, active bool
	placed               bool // x0, y0 are set
}

// key is a hardware key press.
type keyPress struct {
	at   time.Duration
	code string // Linux name: KEY_BACK
}

// touchReader assembles getevent lines into gestures and key presses. It
// follows the first finger only: multi-finger gestures (pinch) are not
// part of the language.
type touchReader struct {
	axes     touchAxes
	scr      screen
	rotation func() int
	cur      gesture
	slot     int64
}

// feed takes one event and returns a finished gesture or key press.
func (t *touchReader) feed(e inputEvent) (*gesture, *keyPress) {
	a, isTouch := t.axes[e.dev]
	switch {
	case e.typ == "EV_KEY" && !isTouch && e.keyPressed == 1:
		return nil, &keyPress{at: e.at, code: e.code}
	case !isTouch:
		return nil, nil
	}
	g := &t.cur
	switch {
	case e.typ == "EV_ABS" && e.code == "ABS_MT_SLOT":
		t.slot = e.value
	case t.slot != 0:
		// another finger
	case e.typ == "EV_ABS" && e.code == "ABS_MT_TRACKING_ID" && e.value >= 0:
		*g = gesture{down: e.at, dev: e.dev, active: true}
	case e.typ == "EV_ABS" && (e.code == "ABS_MT_POSITION_X" || e.code == "ABS_X"):
		g.rawX, g.haveX = e.value, true
	case e.typ == "EV_ABS" && (e.code == "ABS_MT_POSITION_Y" || e.code == "ABS_Y"):
		g.rawY, g.haveY = e.value, true
	case e.typ == "EV_KEY" && e.code == "BTN_TOUCH" && e.keyPressed == 1 && !g.active:
		*g = gesture{down: e.at, dev: e.dev, active: true, rawX: g.rawX, rawY: g.rawY, haveX: g.haveX, haveY: g.haveY}
	case e.typ == "EV_SYN" && e.code == "SYN_REPORT" && g.active && g.haveX && g.haveY:
		x, y := t.scr.point(a, g.rawX, g.rawY, t.rotation())
		if !g.placed {
			g.x0, g.y0, g.placed = x, y, true
		}
		g.x1, g.y1 = x, y
		g.maxDist = math.Max(g.maxDist, math.Hypot(float64(x-g.x0), float64(y-g.y0)))
	case (e.typ == "EV_ABS" && e.code == "ABS_MT_TRACKING_ID" && e.value < 0) ||
		(e.typ == "EV_KEY" && e.code == "BTN_TOUCH" && e.keyPressed == 0):
		if !g.active {
			return nil, nil
		}
		g.active, g.up = false, e.at
		done := *g
		if !done.placed {
			return nil, nil
		}
		return &done, nil
	}
	return nil, nil
}

// readEvents sends parsed events from r until it ends or ctx does.
func readEvents(ctx context.Context, r io.Reader, out chan<- inputEvent) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		if e, ok := parseEvent(sc.Text()); ok {
			e.recv = time.Now()
			select {
			case out <- e:
			case <-ctx.Done():
				return nil
			}
		}
	}
	return sc.Err()
}
