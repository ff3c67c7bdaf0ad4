package adb_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver/android/adb"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

func newServer(t *testing.T) (*adbtest.Server, *adb.Client) {
	t.Helper()
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, &adb.Client{Addr: srv.Addr()}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestVersion(t *testing.T) {
	_, c := newServer(t)
	v, err := c.Version(ctx(t))
	if err != nil || v != 41 {
		t.Fatalf("Version() = %d, %v; want 41", v, err)
	}
}

func TestDevices(t *testing.T) {
	srv, c := newServer(t)
	srv.AddDevice("emulator-5556", "offline")
	got, err := c.Devices(ctx(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []adb.DeviceInfo{
		{Serial: "emulator-5554", State: "device", Product: "sdk_gphone64_x86_64", Model: "sdk_gphone64_x86_64", Device: "emu64xa", TransportID: "1"},
		{Serial: "emulator-5556", State: "offline", TransportID: "2"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Devices() =\n %+v\nwant\n %+v", got, want)
	}
}

func TestShell(t *testing.T) {
	srv, c := newServer(t)
	d := c.Device(srv.Serial)
	tests := []struct{ cmd, want string }{
		{"echo hi", "hi\n"},
		{"echo " + adb.QuoteShell("it's $HOME; a \"b\""), "it's $HOME; a \"b\"\n"},
		{"wm size", "Physical size: 1080x2400\n"},
		{"getprop ro.build.version.sdk", "33\n"},
		{"frobnicate --now", "/system/bin/sh: frobnicate: inaccessible or not found\n"},
		{"cat /sdcard/none", "cat: /sdcard/none: No such file or directory\n"},
		{"uiautomator dump && cat /sdcard/window_dump.xml | grep -c never || echo fallback", "UI hierchary dumped to: /sdcard/window_dump.xml\nfallback\n"},
	}
	for _, tt := range tests {
		got, err := d.Shell(ctx(t), tt.cmd)
		if err != nil || string(got) != tt.want {
			t.Errorf("Shell(%q) = %q, %v; want %q", tt.cmd, got, err, tt.want)
		}
	}
	if d.Serial() != srv.Serial {
		t.Errorf("Serial() = %q", d.Serial())
	}
}

func TestShellAnyDevice(t *testing.T) {
	_, c := newServer(t)
	got, err := c.Device("").Shell(ctx(t), "echo any")
	if err != nil || string(got) != "any\n" {
		t.Fatalf("Shell on the only device = %q, %v", got, err)
	}
}

func TestExecScreencap(t *testing.T) {
	srv, c := newServer(t)
	b, err := c.Device(srv.Serial).Exec(ctx(t), "screencap -p")
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("screencap -p is not a PNG: %v", err)
	}
	if r := img.Bounds(); r.Dx() != 1080 || r.Dy() != 2400 {
		t.Errorf("screenshot is %v, want 1080x2400", r)
	}
}

func TestDeviceErrors(t *testing.T) {
	tests := []struct {
		name    string
		extra   [][2]string // devices to add: serial, state
		serial  string
		wantIs  error
		wantMsg string
	}{
		{"unknown serial", nil, "nope", adb.ErrDeviceNotFound, "device 'nope' not found"},
		{"two devices, no serial", [][2]string{{"emulator-5556", "device"}}, "", adb.ErrMoreThanOneDevice, "more than one device/emulator"},
		{"offline", [][2]string{{"emulator-5556", "offline"}}, "emulator-5556", adb.ErrDeviceOffline, "device offline"},
		{"unauthorized", [][2]string{{"R58M", "unauthorized"}}, "R58M", adb.ErrDeviceUnauthorized, "device unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c := newServer(t)
			for _, d := range tt.extra {
				srv.AddDevice(d[0], d[1])
			}
			_, err := c.Device(tt.serial).Shell(ctx(t), "echo hi")
			if !errors.Is(err, tt.wantIs) {
				t.Fatalf("err = %v, want %v", err, tt.wantIs)
			}
			var fail *adb.FailError
			if !errors.As(err, &fail) || !strings.Contains(fail.Message, tt.wantMsg) {
				t.Errorf("err = %#v, want a FailError with %q", err, tt.wantMsg)
			}
		})
	}
}

func TestNoServer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c := &adb.Client{Addr: addr}
	_, err = c.Version(ctx(t))
	if !errors.Is(err, adb.ErrNoServer) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("err = %v, want ErrNoServer wrapping ECONNREFUSED", err)
	}
	for _, want := range []string{addr, "adb start-server", "--adb HOST:PORT"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := c.Device("x").Shell(ctx(t), "echo"); !errors.Is(err, adb.ErrNoServer) {
		t.Errorf("Shell err = %v, want ErrNoServer", err)
	}
}

// timeoutErr is what a dialer returns when its deadline passes.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "dial tcp: i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

// TestDialTimeout: a host that does not answer in time is not "no adb
// server" (whose advice is to start one).
func TestDialTimeout(t *testing.T) {
	c := &adb.Client{Addr: "10.255.255.1:5037", Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: timeoutErr{}}
	}}
	_, err := c.Version(ctx(t))
	if err == nil || errors.Is(err, adb.ErrNoServer) || !strings.Contains(err.Error(), "timed out") {
		t.Errorf("err = %v, want a timeout, not ErrNoServer", err)
	}
}

func TestCustomDial(t *testing.T) {
	srv, _ := newServer(t)
	dials := 0
	c := &adb.Client{Addr: "adb.example:5037", Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials++
		if addr != "adb.example:5037" || network != "tcp" {
			t.Errorf("Dial(%q, %q)", network, addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, "tcp", srv.Addr())
	}}
	if v, err := c.Version(ctx(t)); err != nil || v != 41 || dials != 1 {
		t.Errorf("Version() = %d, %v after %d dials", v, err, dials)
	}
}

func TestProtocolError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		io.WriteString(c, "HTTP/1.1 400 Bad Request\r\n\r\n")
		c.Close()
	}()
	_, err = (&adb.Client{Addr: ln.Addr().String()}).Version(ctx(t))
	if !errors.Is(err, adb.ErrProtocol) {
		t.Fatalf("err = %v, want ErrProtocol", err)
	}
}

func TestEmptyCommand(t *testing.T) {
	srv, c := newServer(t)
	d := c.Device(srv.Serial)
	if _, err := d.Shell(ctx(t), ""); err == nil {
		t.Error("Shell(\"\") succeeded; it would start an interactive shell")
	}
	if _, err := d.ShellStream(ctx(t), ""); err == nil {
		t.Error("ShellStream(\"\") succeeded")
	}
}

// waitRequest waits until the server has read a request with prefix.
func waitRequest(t *testing.T, srv *adbtest.Server, prefix string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if slices.ContainsFunc(srv.Requests(), func(r string) bool { return strings.HasPrefix(r, prefix) }) {
			return
		}
	}
	t.Fatalf("server never read %q; requests: %q", prefix, srv.Requests())
}

func TestConnectionLostMidCommand(t *testing.T) {
	srv, c := newServer(t)
	errc := make(chan error, 1)
	go func() {
		_, err := c.Device(srv.Serial).Shell(ctx(t), "sleep 10")
		errc <- err
	}()
	waitRequest(t, srv, "shell:sleep")
	srv.DropConnections()
	select {
	case err := <-errc:
		if !errors.Is(err, adb.ErrConnectionLost) {
			t.Fatalf("err = %v, want ErrConnectionLost", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Shell did not return after the connection was dropped")
	}
}

func TestContextCancelClosesConnection(t *testing.T) {
	srv, c := newServer(t)
	cx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Device(srv.Serial).Shell(cx, "sleep 10")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want DeadlineExceeded", err)
	}
	if time.Since(start) > 3*time.Second {
		t.Errorf("Shell took %v after its context ended", time.Since(start))
	}
	if _, err := c.Version(cx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Version with an ended context: %v", err)
	}
}

func TestVanishedDevice(t *testing.T) {
	srv, c := newServer(t)
	srv.VanishDevice()
	devs, err := c.Devices(ctx(t))
	if err != nil || len(devs) != 0 {
		t.Errorf("Devices() = %v, %v; want none", devs, err)
	}
	_, err = c.Device(srv.Serial).Shell(ctx(t), "echo hi")
	if !errors.Is(err, adb.ErrDeviceNotFound) || !strings.Contains(err.Error(), "device 'emulator-5554' not found") {
		t.Errorf("err = %v, want device 'emulator-5554' not found", err)
	}
	srv.RestoreDevice()
	if out, err := c.Device(srv.Serial).Shell(ctx(t), "echo back"); err != nil || string(out) != "back\n" {
		t.Errorf("after RestoreDevice: %q, %v", out, err)
	}
}

// readUntil reads lines from r until one contains want, returning them all.
func readUntil(t *testing.T, r *bufio.Reader, want string) []string {
	t.Helper()
	var lines []string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading until %q: %v (got %q)", want, err, lines)
		}
		lines = append(lines, line)
		if strings.Contains(line, want) {
			return lines
		}
	}
}

func TestShellStreamGetevent(t *testing.T) {
	srv, c := newServer(t)
	s, err := c.Device(srv.Serial).ShellStream(ctx(t), "getevent -lt")
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(s)
	readUntil(t, r, `"sim_touchscreen"`)
	srv.PlayTap(540, 1200)
	lines := readUntil(t, r, "BTN_TOUCH            UP")
	text := strings.Join(lines, "")
	for _, want := range []string{"ABS_MT_POSITION_X    00000800", "ABS_MT_POSITION_Y    00000800",
		"EV_KEY       BTN_TOUCH            DOWN", "ABS_MT_TRACKING_ID   ffffffff"} {
		if !strings.Contains(text, want) {
			t.Errorf("getevent output lacks %q:\n%s", want, text)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Read(make([]byte, 10)); err != io.EOF {
		t.Errorf("Read after Close = %v, want io.EOF", err)
	}
	if !srv.WaitGetevent(0, time.Second) {
		t.Error("getevent kept running on the device after Close")
	}
}

func TestShellStreamLost(t *testing.T) {
	srv, c := newServer(t)
	s, err := c.Device(srv.Serial).ShellStream(ctx(t), "getevent -lt")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !srv.WaitGetevent(1, 5*time.Second) {
		t.Fatal("getevent did not start")
	}
	srv.DropConnections()
	_, err = io.ReadAll(s)
	if !errors.Is(err, adb.ErrConnectionLost) {
		t.Fatalf("ReadAll after drop: %v, want ErrConnectionLost", err)
	}
}
