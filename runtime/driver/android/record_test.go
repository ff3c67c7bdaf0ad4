package android

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
	"github.com/cogflow/cogflow/runtime/trace"
)

// getevent -lp of a phone whose touchscreen reports in screen pixels
// (max 1079×2399) next to a pen digitizer with legacy axes, as a real
// device prints it (trailing blanks included).
const geteventLP = `add device 1: /dev/input/event4
  name:     "uinput-fpc"
  events:
    KEY (0001): KEY_UP               KEY_DOWN             KEY_LEFT             KEY_RIGHT           
  input props:
    <none>
add device 2: /dev/input/event2
  name:     "fts_ts"
  events:
    KEY (0001): KEY_WAKEUP           BTN_TOOL_FINGER      BTN_TOUCH           
    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                ABS_MT_TOUCH_MAJOR    : value 0, min 0, max 255, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 0
                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
  input props:
    INPUT_PROP_DIRECT
add device 3: /dev/input/event5
  name:     "stylus"
  events:
    ABS (0003): ABS_X                 : value 0, min 0, max 20966, fuzz 0, flat 0, resolution 100
                ABS_Y                 : value 0, min 0, max 15725, fuzz 0, flat 0, resolution 100
`

func TestParseAxes(t *testing.T) {
	axes := parseAxes(geteventLP)
	if len(axes) != 2 {
		t.Fatalf("axes of %d devices: %v", len(axes), axes)
	}
	if a := axes["/dev/input/event2"]; a[0].max != 1079 || a[1].max != 2399 {
		t.Errorf("touchscreen axes %v", a)
	}
	if a := axes["/dev/input/event5"]; a[0].max != 20966 || a[1].max != 15725 {
		t.Errorf("stylus axes %v", a)
	}
	s, err := parseWmSize("Physical size: 1080x2400\nOverride size: 720x1600\n")
	if err != nil || s.w != 720 || s.h != 1600 {
		t.Errorf("wm size: %+v, %v", s, err)
	}
	if _, err := parseWmSize("cmd: Can't find service: window\n"); err == nil {
		t.Error("no error for a wm size without a size")
	}
}

func TestTouchReader(t *testing.T) {
	axes := parseAxes(geteventLP)
	tr := touchReader{axes: axes, scr: screen{1080, 2400}, rotation: func() int { return 0 }}
	lines := `add device 2: /dev/input/event2
  name:     "fts_ts"
[   81234.500000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   000001a4            
[   81234.500000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000021c            
[   81234.500000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000150            
[   81234.500000] /dev/input/event2: EV_KEY       BTN_TOUCH            DOWN                
[   81234.500000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000            
[   81234.516000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    0000021e            
[   81234.516000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000            
[   81234.580000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff            
[   81234.580000] /dev/input/event2: EV_KEY       BTN_TOUCH            UP                  
[   81234.580000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000            
[   81235.000000] /dev/input/event1: EV_KEY       KEY_BACK             DOWN                
[   81235.080000] /dev/input/event1: EV_KEY       KEY_BACK             UP                  
`
	var gestures []*gesture
	var keys []*keyPress
	for _, line := range strings.Split(lines, "\n") {
		e, ok := parseEvent(line)
		if !ok {
			continue
		}
		g, k := tr.feed(e)
		if g != nil {
			gestures = append(gestures, g)
		}
		if k != nil {
			keys = append(keys, k)
		}
	}
	if len(gestures) != 1 || len(keys) != 1 {
		t.Fatalf("%d gestures, %d keys", len(gestures), len(keys))
	}
	g := gestures[0]
	// 0x21c = 540 of 1080 axis units on a 1080 px screen; 0x150 = 336.
	if g.x0 != 540 || g.y0 != 336 || g.x1 != 542 || g.up-g.down != 80*time.Millisecond {
		t.Errorf("gesture %+v", *g)
	}
	if keys[0].code != "KEY_BACK" {
		t.Errorf("key %+v", *keys[0])
	}
}

func TestScreenPoint(t *testing.T) {
	a := [2]axis{{0, 4095}, {0, 4095}}
	s := screen{1080, 2400}
	tests := []struct {
		rx, ry   int64
		rotation int
		x, y     int
	}{
		{2048, 2048, 0, 540, 1200},
		{0, 0, 0, 0, 0},
		{4095, 4095, 0, 1080, 2400}, // the last unit is the far edge
		{1024, 2048, 1, 1200, 810},  // landscape: natural y is screen x
		{1024, 2048, 2, 810, 1200},
		{1024, 2048, 3, 1200, 270},
	}
	for _, tc := range tests {
		x, y := s.point(a, tc.rx, tc.ry, tc.rotation)
		if abs(x-tc.x) > 1 || abs(y-tc.y) > 1 {
			t.Errorf("point(%d,%d rot %d) = %d,%d; want %d,%d", tc.rx, tc.ry, tc.rotation, x, y, tc.x, tc.y)
		}
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// session records on a simulated device in the background.
type session struct {
	srv  *adbtest.Server
	done chan struct{}
	tr   *trace.Trace
	err  error
	stop context.CancelFunc
}

func startRecording(t *testing.T, opts RecordOptions) *session {
	t.Helper()
	return startRecordingOn(t, opts, nil)
}

// startRecordingOn records through wrap(device) when wrap is set.
func startRecordingOn(t *testing.T, opts RecordOptions, wrap func(Device) Device) *session {
	t.Helper()
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	dopts := driver.Options{RemoteURL: srv.Addr()}
	dev, err := Connect(context.Background(), dopts)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		dev = wrap(dev)
	}
	d := New(dev, dopts)
	ctx, cancel := context.WithCancel(context.Background())
	s := &session{srv: srv, done: make(chan struct{}), stop: cancel}
	go func() {
		s.tr, s.err = d.Record(ctx, opts)
		close(s.done)
	}()
	if !srv.WaitGetevent(1, 10*time.Second) {
		t.Fatal("no getevent stream")
	}
	time.Sleep(pause)
	return s
}

const pause = 350 * time.Millisecond

func (s *session) tap(xy ...int) {
	s.srv.PlayTap(xy[0], xy[1])
	time.Sleep(pause)
}

func (s *session) end(t *testing.T) *trace.Trace {
	t.Helper()
	time.Sleep(pause)
	s.stop()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Record did not return")
	}
	return s.tr
}

func summary(tr *trace.Trace) string {
	var out []string
	for _, e := range tr.Events {
		s := string(e.Kind)
		if e.Target != nil {
			s += ":" + first(e.Target.ID, e.Target.Name)
		}
		if e.Key != nil {
			s += ":" + e.Key.Key
		}
		if e.Value != "" {
			s += "=" + e.Value
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestRecord(t *testing.T) {
	s := startRecording(t, RecordOptions{App: "com.example.contacts", Poll: 100 * time.Millisecond})
	s.tap(200, 493)                               // the first row (399–588): Alice Johnson's detail
	if err := s.srv.PlayKey("BACK"); err != nil { // back to the list
		t.Fatal(err)
	}
	time.Sleep(pause)
	s.tap(540, 315) // the search field
	s.srv.PlayText("bob")
	// No pause: the next touch comes before the recorder's next dump, so
	// the typing is only seen after it, and must still come first.
	s.srv.PlaySwipe(540, 1800, 540, 900) // scroll (one result: nothing moves)
	time.Sleep(pause)
	tr := s.end(t)
	if s.err != nil {
		t.Fatalf("record: %v", s.err)
	}
	// The list is not scrollable with four contacts: the scroll has no
	// target.
	want := "click:contact_row keydown:BACK click:search input:search=bob scroll"
	if got := summary(tr); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
	}
	if tr.Start.App != "com.example.contacts" || tr.Driver != "android" {
		t.Errorf("start %q, driver %q", tr.Start.App, tr.Driver)
	}
	if err := tr.Validate(); err != nil {
		t.Error(err)
	}
	if c := tr.Events[0].Target.Context; c == nil || c.List == nil || c.List.Index != 0 || c.List.Size != 4 ||
		len(c.List.ItemTexts) != 4 || c.List.ItemTexts[0] != "Alice Johnson +1 555-0100" {
		t.Errorf("the row's list context: %+v", c.List)
	}
}

func TestRecordGestures(t *testing.T) {
	s := startRecording(t, RecordOptions{Poll: 100 * time.Millisecond})
	if s.tr != nil {
		t.Fatal("ended early")
	}
	// The launcher is in front: the start is not an app to launch.
	s.tap(675, 2000)        // the Contacts icon
	s.tap(954, 2148)        // Add contact
	s.srv.PlayTap(540, 861) // Save twice, fast: a double tap
	s.srv.PlayTap(540, 861)
	time.Sleep(pause)
	s.srv.PlaySwipe(900, 1200, 200, 1210) // a swipe to the left: x grows by 700
	time.Sleep(pause)
	tr := s.end(t)
	if s.err != nil {
		t.Fatalf("record: %v", s.err)
	}
	if tr.Start.App != "" {
		t.Errorf("start app %q, want none (the home screen)", tr.Start.App)
	}
	want := "click:Contacts click:fab_add dblclick:save scroll"
	if n := len(tr.Events); n > 0 && (tr.Events[n-1].X != 700 || tr.Events[n-1].Y != 0) {
		t.Errorf("the swipe's virtual position: %v,%v", tr.Events[n-1].X, tr.Events[n-1].Y)
	}
	if got := summary(tr); got != want {
		t.Errorf("events:\n%s\nwant:\n%s", got, want)
		for _, e := range tr.Events {
			t.Logf("%s %s %+v", e.ID, e.Kind, e.Target.Attributes)
		}
	}
}

func TestRecordConnectionDropped(t *testing.T) {
	s := startRecording(t, RecordOptions{App: "com.example.contacts/.MainActivity", Poll: 100 * time.Millisecond})
	s.tap(954, 2148)
	s.srv.DropConnections()
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		t.Fatal("Record did not end when the connection dropped")
	}
	// The reset reaches the getevent stream or a dump first, whichever
	// was talking to the device.
	if !errors.Is(s.err, ErrDeviceLost) || !strings.HasPrefix(s.err.Error(), "android: record: ") {
		t.Errorf("error %v", s.err)
	}
	if got := summary(s.tr); got != "click:fab_add" {
		t.Errorf("the trace recorded before the drop: %q", got)
	}
	if err := s.tr.Validate(); err != nil {
		t.Error(err)
	}
}

func TestForeground(t *testing.T) {
	tests := []struct{ window, activities, want string }{
		{"  mCurrentFocus=Window{8f3a1e u0 com.android.settings/com.android.settings.Settings}\n" +
			"  mFocusedApp=ActivityRecord{c1d5e8a u0 com.android.settings/.Settings t42}\n", "", "com.android.settings/.Settings"},
		// A dialog of another window has the focus: the activity below
		// still counts.
		{"  mCurrentFocus=Window{1 u0 PopupWindow:3f2a}\n  mFocusedApp=ActivityRecord{2 u0 com.example.app/.Main t7}\n", "", "com.example.app/.Main"},
		{"", "    mResumedActivity: ActivityRecord{9 u0 org.mozilla.firefox/.App t3}\n", "org.mozilla.firefox/.App"},
		// The home screen is not an app a workflow launches.
		{"  mFocusedApp=ActivityRecord{3 u0 com.google.android.apps.nexuslauncher/.NexusLauncherActivity t1}\n", "", ""},
		{"", "", ""},
	}
	for _, tc := range tests {
		d := New(&fakeDevice{answer: func(cmd string) ([]byte, error) {
			if cmd == "dumpsys window" {
				return []byte(tc.window), nil
			}
			return []byte(tc.activities), nil
		}}, driver.Options{})
		if got := d.foreground(context.Background()); got != tc.want {
			t.Errorf("foreground = %q, want %q", got, tc.want)
		}
	}
}

// Text typed right before a touch that changes the screen is seen by no
// dump: the recorder cannot add it, and says so, whichever comes first:
// the recorder reading the touch from getevent, or a poll dumping the
// screen the touch led to (getevent lags the screen: a dump may show the
// new screen before the touch that opened it is read).
func TestRecordWarnsLostTyping(t *testing.T) {
	for _, tc := range []struct {
		name string
		lag  bool // hold getevent's output until a dump has seen the list
	}{
		{"as it comes", false},
		{"the dump first", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var warnings []string
			lag := &laggingDevice{lastDone: -1}
			s := startRecordingOn(t, RecordOptions{App: "com.example.contacts/.MainActivity", Poll: 100 * time.Millisecond,
				Warn: func(m string) { mu.Lock(); warnings = append(warnings, m); mu.Unlock() }},
				func(d Device) Device { lag.Device = d; return lag })
			s.tap(954, 2148) // Add contact
			s.tap(540, 336)  // Name
			if tc.lag {
				lag.hold()
			}
			s.srv.PlayTextThenTap("Ada", 540, 861) // Save at once: the form is gone before a dump sees "Ada"
			if tc.lag {
				// The screen changed when PlayTextThenTap returned: a
				// dump requested from now on shows the list.
				if !lag.waitDump(lag.requested(), 10*time.Second) {
					t.Fatal("no dump while getevent was held")
				}
				lag.release()
			}
			tr := s.end(t)
			if got := summary(tr); got != "click:fab_add click:name_input click:save" {
				t.Errorf("events %q", got)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(warnings) != 1 || !strings.Contains(warnings[0], `textbox "Name"`) ||
				!strings.Contains(warnings[0], "pause a moment") {
				t.Errorf("warnings %q", warnings)
			}
		})
	}
}

// laggingDevice is a device whose getevent output can be held back while
// dumps go on, and which counts its dumps.
type laggingDevice struct {
	Device
	mu       sync.Mutex
	held     chan struct{} // closed by release; nil when not held
	nDumps   int           // dumps requested
	lastDone int           // number of the last dump answered, -1 before any
}

func (l *laggingDevice) Shell(ctx context.Context, cmd string) ([]byte, error) {
	if cmd != dumpCmd {
		return l.Device.Shell(ctx, cmd)
	}
	l.mu.Lock()
	n := l.nDumps
	l.nDumps++
	l.mu.Unlock()
	out, err := l.Device.Shell(ctx, cmd)
	l.mu.Lock()
	l.lastDone = max(l.lastDone, n)
	l.mu.Unlock()
	return out, err
}

func (l *laggingDevice) ShellStream(ctx context.Context, cmd string) (io.ReadCloser, error) {
	rc, err := l.Device.ShellStream(ctx, cmd)
	if err != nil {
		return nil, err
	}
	return &laggingStream{ReadCloser: rc, dev: l, closed: make(chan struct{})}, nil
}

func (l *laggingDevice) hold() {
	l.mu.Lock()
	l.held = make(chan struct{})
	l.mu.Unlock()
}

func (l *laggingDevice) release() {
	l.mu.Lock()
	close(l.held)
	l.held = nil
	l.mu.Unlock()
}

func (l *laggingDevice) requested() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.nDumps
}

// waitDump waits until dump number n (counting from 0) or a later one has
// been answered.
func (l *laggingDevice) waitDump(n int, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		l.mu.Lock()
		done := l.nDumps > n && l.lastDone >= n
		l.mu.Unlock()
		if done {
			return true
		}
	}
	return false
}

// laggingStream passes on what it read only when its device is not held.
type laggingStream struct {
	io.ReadCloser
	dev       *laggingDevice
	closeOnce sync.Once
	closed    chan struct{}
}

func (s *laggingStream) Read(p []byte) (int, error) {
	n, err := s.ReadCloser.Read(p)
	s.dev.mu.Lock()
	held := s.dev.held
	s.dev.mu.Unlock()
	if held != nil {
		select {
		case <-held:
		case <-s.closed:
		}
	}
	return n, err
}

func (s *laggingStream) Close() error {
	s.closeOnce.Do(func() { close(s.closed) })
	return s.ReadCloser.Close()
}
