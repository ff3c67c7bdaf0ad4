package adbtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T) *Server {
	t.Helper()
	s, err := NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func dial(t *testing.T, s *Server) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	t.Cleanup(func() { c.Close() })
	return c
}

func hexFrame(req string) string { return fmt.Sprintf("%04x%s", len(req), req) }

// exchange sends the requests on one connection and returns all the
// server wrote until it closed the connection.
func exchange(t *testing.T, s *Server, reqs ...string) string {
	t.Helper()
	c := dial(t, s)
	for _, r := range reqs {
		io.WriteString(c, hexFrame(r))
	}
	b, err := io.ReadAll(c)
	if err != nil {
		t.Fatalf("%q: %v", reqs, err)
	}
	return string(b)
}

func TestHostProtocol(t *testing.T) {
	long := fmt.Sprintf("%-22s device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n", "emulator-5554")
	tests := []struct {
		reqs []string
		want string
	}{
		{[]string{"host:version"}, "OKAY00040029"},
		{[]string{"host:kill"}, "OKAY"},
		{[]string{"host:devices"}, "OKAY" + hexFrame("emulator-5554\tdevice\n")},
		{[]string{"host:devices-l"}, "OKAY" + hexFrame(long)},
		{[]string{"host:host-features"}, "OKAY" + hexFrame(features)},
		{[]string{"host:features"}, "OKAY" + hexFrame(features)},
		{[]string{"host-serial:emulator-5554:get-state"}, "OKAY0006device"},
		{[]string{"host-transport-id:1:get-serialno"}, "OKAY000demulator-5554"},
		{[]string{"host-serial:nope:features"}, "FAIL" + hexFrame("device 'nope' not found")},
		{[]string{"host:frobnicate"}, "FAIL" + hexFrame("unknown host service")},
		{[]string{"host:transport:nope"}, "FAIL" + hexFrame("device 'nope' not found")},
		{[]string{"host:transport-usb"}, "FAIL" + hexFrame("no devices found")},
		{[]string{"host:tport:serial:emulator-5554", "shell:echo hi"}, "OKAY\x01\x00\x00\x00\x00\x00\x00\x00OKAYhi\n"},
		{[]string{"host:tport:any", "exec:echo 'a b'"}, "OKAY\x01\x00\x00\x00\x00\x00\x00\x00OKAYa b\n"},
		{[]string{"host:transport-any", "shell,TERM=xterm,raw:echo v1"}, "OKAYOKAYv1\n"},
		{[]string{"host:transport:emulator-5554", "shell,v2,raw:echo hi; ls"},
			"OKAYOKAY\x01\x03\x00\x00\x00hi\n\x02\x2e\x00\x00\x00/system/bin/sh: ls: inaccessible or not found\n\x03\x01\x00\x00\x00\x7f"},
		{[]string{"host:transport-id:1", "sync:"}, "OKAYFAIL" + hexFrame("closed")},
		{[]string{"host:transport-any", "shell:"}, "OKAYFAIL" + hexFrame("interactive shell is not simulated")},
	}
	s := start(t)
	for _, tt := range tests {
		if got := exchange(t, s, tt.reqs...); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.reqs, got, tt.want)
		}
	}
}

func TestBadFraming(t *testing.T) {
	s := start(t)
	c := dial(t, s)
	io.WriteString(c, "zzzzhost:version")
	if b, _ := io.ReadAll(c); len(b) != 0 {
		t.Errorf("answer to a bad length: %q", b)
	}
	if got := exchange(t, s, "host:version"); got != "OKAY00040029" {
		t.Errorf("server broken after bad framing: %q", got)
	}
}

// openGetevent starts `getevent -lt` on a raw connection and reads past the
// device list, after which played gestures reach the stream.
func openGetevent(t *testing.T, s *Server) *bufio.Reader {
	t.Helper()
	c := dial(t, s)
	io.WriteString(c, hexFrame("host:transport:"+s.Serial)+hexFrame("shell:getevent -lt"))
	r := bufio.NewReader(c)
	var st [8]byte
	if _, err := io.ReadFull(r, st[:]); err != nil || string(st[:]) != "OKAYOKAY" {
		t.Fatalf("getevent start: %q %v", st, err)
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(line, `"sim_touchscreen"`) {
			return r
		}
	}
}

func readLines(t *testing.T, r *bufio.Reader, n int) string {
	t.Helper()
	var b strings.Builder
	for range n {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after %q: %v", b.String(), err)
		}
		b.WriteString(line)
	}
	return b.String()
}

func TestPlayGestures(t *testing.T) {
	s := start(t)
	r1, r2 := openGetevent(t, s), openGetevent(t, s)
	s.PlayTap(675, 2025) // the Contacts icon
	for _, r := range []*bufio.Reader{r1, r2} {
		got := readLines(t, r, 8)
		for _, want := range []string{"ABS_MT_POSITION_X    00000a00", "ABS_MT_POSITION_Y    00000d80", "BTN_TOUCH            DOWN", "BTN_TOUCH            UP"} {
			if !strings.Contains(got, want) {
				t.Errorf("tap on a stream lacks %q:\n%s", want, got)
			}
		}
	}
	if s.App().Screen() != ScreenList {
		t.Fatalf("PlayTap on the icon: screen %s", s.App().Screen())
	}
	s.PlayTap(540, 315) // search field
	s.PlayText("bob")
	readLines(t, r1, 8)
	if err := s.PlayKey("KEYCODE_BACK"); err != nil {
		t.Fatal(err)
	}
	if got := readLines(t, r1, 4); !strings.Contains(got, "/dev/input/event1: EV_KEY       KEY_BACK             DOWN") {
		t.Errorf("back key on getevent:\n%s", got)
	}
	if s.App().Screen() != ScreenLauncher {
		t.Errorf("PlayKey BACK: screen %s", s.App().Screen())
	}
	if err := s.PlayKey("KEYCODE_NOPE"); err == nil {
		t.Error("PlayKey accepted an unknown key")
	}
	s.PlaySwipe(540, 2000, 540, 400)
	if got := readLines(t, r1, 5+6*3+3); strings.Count(got, "SYN_REPORT") != 8 {
		t.Errorf("swipe: want 8 reports:\n%s", got)
	}
}

func TestPlayTextReachesField(t *testing.T) {
	s := start(t)
	s.App().Start()
	s.PlayTap(540, 315)
	s.PlayText("Zoë")
	if !strings.Contains(s.App().Dump(), `text="Zoë" resource-id="com.example.contacts:id/search"`) {
		t.Error("typed text is not the search field's text")
	}
}

func TestCloseEndsStreams(t *testing.T) {
	s, err := NewServer(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := openGetevent(t, s)
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return while a getevent stream was open")
	}
	if _, err := r.ReadString('\n'); err == nil {
		t.Error("stream still open after Close")
	}
	s.Close() // twice is harmless
	if _, err := net.Dial("tcp", s.Addr()); err == nil {
		t.Error("server still accepts after Close")
	}
}

func TestRequestsAndFiles(t *testing.T) {
	s := start(t)
	exchange(t, s, "host:transport:emulator-5554", "shell:uiautomator dump /sdcard/a.xml")
	want := []string{"host:transport:emulator-5554", "shell:uiautomator dump /sdcard/a.xml"}
	if got := s.Requests(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Requests() = %q", got)
	}
	if got := s.Files(); len(got) != 1 || got[0] != "/sdcard/a.xml" {
		t.Errorf("Files() = %q", got)
	}
}

func TestFailNextDumps(t *testing.T) {
	s := start(t)
	s.FailNextDumps(2)
	for i, want := range []string{"ERROR: could not get idle state.\n", "ERROR: could not get idle state.\n", "UI hierchary dumped to: /sdcard/window_dump.xml\n"} {
		if out, _ := sh(s.primary, "uiautomator dump"); out != want {
			t.Errorf("dump %d: %q, want %q", i, out, want)
		}
	}
}

// TestListen: a server at a given address (as `cogflow demo android`
// starts one) answers there with the app it was given, a taken address is
// an error, and Close frees the port.
func TestListen(t *testing.T) {
	app := NewApp()
	s, err := Listen("127.0.0.1:0", app)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.App() != app {
		t.Error("the server does not run the app it was given")
	}
	if got := exchange(t, s, "host:devices"); got != "OKAY"+hexFrame("emulator-5554\tdevice\n") {
		t.Errorf("host:devices: %q", got)
	}
	if _, err := Listen(s.Addr(), nil); err == nil || !strings.Contains(err.Error(), "adbtest:") {
		t.Errorf("a second server at %s: err %v, want adbtest: …", s.Addr(), err)
	}
	s.Close()
	if c, err := net.DialTimeout("tcp", s.Addr(), time.Second); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after Close", s.Addr())
	}
}
