package adbtest

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestEventFormat(t *testing.T) {
	ts := 1234*time.Second + 567890*time.Microsecond
	tests := []struct {
		e              event
		labels, stamps bool
		want           string
	}{
		{event{touchDevice, "EV_ABS", "ABS_MT_POSITION_X", 0x7ff}, true, true,
			"[    1234.567890] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000007ff            \n"},
		{event{touchDevice, "EV_ABS", "ABS_MT_TRACKING_ID", -1}, true, true,
			"[    1234.567890] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff            \n"},
		{event{touchDevice, "EV_KEY", "BTN_TOUCH", 1}, true, false,
			"/dev/input/event2: EV_KEY       BTN_TOUCH            DOWN                \n"},
		{event{keysDevice, "EV_KEY", "KEY_BACK", 0}, true, true,
			"[    1234.567890] /dev/input/event1: EV_KEY       KEY_BACK             UP                  \n"},
		{event{touchDevice, "EV_SYN", "SYN_REPORT", 0}, false, true,
			"[    1234.567890] /dev/input/event2: 0000 0000 00000000\n"},
		{event{touchDevice, "EV_ABS", "ABS_MT_POSITION_Y", 2048}, false, false,
			"/dev/input/event2: 0003 0036 00000800\n"},
	}
	for _, tt := range tests {
		if got := tt.e.format(ts, tt.labels, tt.stamps); got != tt.want {
			t.Errorf("format(%v, labels %v, stamps %v)\n got %q\nwant %q", tt.e, tt.labels, tt.stamps, got, tt.want)
		}
	}
}

func TestRawScaling(t *testing.T) {
	tests := []struct{ x, y, rx, ry int32 }{
		{0, 0, 0, 0}, {540, 1200, 2048, 2048}, {1079, 2399, 4092, 4094}, {2000, -5, 4095, 0},
	}
	for _, tt := range tests {
		if rx, ry := rawX(int(tt.x)), rawY(int(tt.y)); rx != tt.rx || ry != tt.ry {
			t.Errorf("raw(%d,%d) = (%d,%d), want (%d,%d)", tt.x, tt.y, rx, ry, tt.rx, tt.ry)
		}
		// Android's mapping back, px = raw * size / (max+1), rounded, lands on the pixel.
		if px := (int(tt.rx)*ScreenWidth + (TouchMax+1)/2) / (TouchMax + 1); tt.x >= 0 && tt.x < ScreenWidth && px != int(tt.x) {
			t.Errorf("x %d → raw %d → %d", tt.x, tt.rx, px)
		}
	}
}

var lineRE = regexp.MustCompile(`^\[ *(\d+)\.(\d{6})\] (/dev/input/event\d): (EV_\w+) +(\w+) +(\w+)\s*$`)

// TestPublishSequence checks a tap's events, their order and that
// timestamps never go back, across gestures.
func TestPublishSequence(t *testing.T) {
	h := newEventHub()
	sub := h.subscribe()
	h.publish(h.touch([][2]int{{540, 1200}}))
	h.publish(press("KEY_BACK"))
	h.publish(h.touch([][2]int{{10, 10}, {20, 20}}))
	var got []string
	var last time.Duration
	for range 3 {
		for _, e := range <-sub.ch {
			line := e.format(e.ts, true, true)
			m := lineRE.FindStringSubmatch(line)
			if m == nil {
				t.Fatalf("line %q does not look like getevent -lt", line)
			}
			if e.ts < last {
				t.Errorf("timestamp went back at %q", line)
			}
			last = e.ts
			got = append(got, strings.Join(m[3:], " "))
		}
	}
	want := []string{
		"/dev/input/event2 EV_ABS ABS_MT_TRACKING_ID 00000000",
		"/dev/input/event2 EV_ABS ABS_MT_POSITION_X 00000800",
		"/dev/input/event2 EV_ABS ABS_MT_POSITION_Y 00000800",
		"/dev/input/event2 EV_KEY BTN_TOUCH DOWN",
		"/dev/input/event2 EV_SYN SYN_REPORT 00000000",
		"/dev/input/event2 EV_ABS ABS_MT_TRACKING_ID ffffffff",
		"/dev/input/event2 EV_KEY BTN_TOUCH UP",
		"/dev/input/event2 EV_SYN SYN_REPORT 00000000",
		"/dev/input/event1 EV_KEY KEY_BACK DOWN",
		"/dev/input/event1 EV_SYN SYN_REPORT 00000000",
		"/dev/input/event1 EV_KEY KEY_BACK UP",
		"/dev/input/event1 EV_SYN SYN_REPORT 00000000",
		"/dev/input/event2 EV_ABS ABS_MT_TRACKING_ID 00000001",
	}
	if len(got) < len(want) {
		t.Fatalf("got %d events, want at least %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("event %d = %q, want %q", i, got[i], w)
		}
	}
	h.unsubscribe(sub)
	if h.count() != 0 {
		t.Error("unsubscribe left the stream registered")
	}
}
