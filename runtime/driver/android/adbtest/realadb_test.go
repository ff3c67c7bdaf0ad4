package adbtest

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// These tests run Debian's adb command (1.0.41) against the simulated
// server, so that the server speaks what the real client expects. They
// skip only when adb is not installed (tools/install-deps.sh installs it).

func adbPath(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("adb")
	if err != nil {
		t.Skip("adb is not on PATH; run tools/install-deps.sh (Debian package adb) to test against the real client")
	}
	return p
}

// adbCmd prepares `adb -H 127.0.0.1 -P PORT args…` with an environment that
// cannot point it at another server or device.
func adbCmd(ctx context.Context, t *testing.T, s *Server, args ...string) *exec.Cmd {
	full := append([]string{"-H", "127.0.0.1", "-P", strconv.Itoa(s.Port())}, args...)
	cmd := exec.CommandContext(ctx, adbPath(t), full...)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "ANDROID_SERIAL", "ADB_SERVER_SOCKET", "ANDROID_ADB_SERVER_PORT", "ANDROID_ADB_SERVER_ADDRESS", "HOME", "ADB_TRACE":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "HOME="+t.TempDir())
	return cmd
}

// runADB runs adb and returns stdout, stderr and whether it exited 0.
func runADB(t *testing.T, s *Server, args ...string) (string, string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := adbCmd(ctx, t, s, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if strings.Contains(errb.String(), "daemon") {
		t.Fatalf("adb %q tried to start its own server: %s", args, errb.String())
	}
	return out.String(), errb.String(), err == nil
}

func TestRealADBDevices(t *testing.T) {
	s := start(t)
	s.AddDevice("emulator-5556", "offline")
	out, errOut, ok := runADB(t, s, "devices", "-l")
	want := "List of devices attached\n" +
		"emulator-5554          device product:sdk_gphone64_x86_64 model:sdk_gphone64_x86_64 device:emu64xa transport_id:1\n" +
		"emulator-5556          offline transport_id:2\n\n"
	if !ok || out != want {
		t.Errorf("adb devices -l:\n got %q\nwant %q\nstderr %q", out, want, errOut)
	}
	if reqs := s.Requests(); !slices.Equal(reqs, []string{"host:version", "host:devices-l"}) {
		t.Errorf("adb devices sent %q", reqs)
	}
}

func TestRealADBShell(t *testing.T) {
	s := start(t)
	serial := []string{"-s", s.Serial}
	tests := []struct {
		name   string
		args   []string
		want   string // substring of stdout
		screen string
	}{
		{"echo", []string{"shell", "echo", "hi"}, "hi\n", ScreenLauncher},
		{"dump launcher", []string{"shell", "uiautomator", "dump", "/dev/tty"}, `text="Contacts" resource-id="" class="android.widget.TextView" package="com.android.launcher3"`, ScreenLauncher},
		{"tap icon", []string{"shell", "input", "tap", "675", "2025"}, "", ScreenList},
		{"tap search", []string{"shell", "input tap 540 315"}, "", ScreenList},
		// adb joins its arguments with spaces: the device's shell splits
		// them again, so only "Bob" reaches `input text`.
		{"type", []string{"shell", "input", "text", "Bob Smith"}, "", ScreenList},
		{"dump list", []string{"shell", "uiautomator dump /dev/tty"}, `text="Bob" resource-id="com.example.contacts:id/search"`, ScreenList},
		{"focus", []string{"shell", "dumpsys window | grep mCurrentFocus"}, "com.example.contacts/com.example.contacts.MainActivity}", ScreenList},
		{"back", []string{"shell", "input", "keyevent", "KEYCODE_BACK"}, "", ScreenLauncher},
		{"exec-out", []string{"exec-out", "screencap", "-p"}, "\x89PNG\r\n\x1a\n", ScreenLauncher},
		{"get-state", []string{"get-state"}, "device\n", ScreenLauncher},
		{"content query", []string{"shell", "content query --uri content://contacts/phones --projection name --where \"name LIKE 'b%'\""},
			"Row: 0 name=Bob Smith\n", ScreenLauncher},
		{"intent", []string{"shell", "am", "start", "-W", "-a", "android.intent.action.DIAL", "-d", "tel:5550100"},
			"Activity: com.android.dialer/.main.impl.MainActivity\n", ScreenDialer},
	}
	for _, tt := range tests {
		out, errOut, ok := runADB(t, s, append(serial, tt.args...)...)
		if !ok || !strings.Contains(out, tt.want) {
			t.Errorf("%s: adb %q: ok=%v stdout %.300q stderr %q, want %q", tt.name, tt.args, ok, out, errOut, tt.want)
		}
		if got := s.App().Screen(); got != tt.screen {
			t.Errorf("%s: screen %q, want %q", tt.name, got, tt.screen)
		}
	}
	if !strings.HasSuffix(runOK(t, s, "shell", "uiautomator", "dump", "/dev/tty"), "</hierarchy>UI hierchary dumped to: /dev/tty\n") {
		t.Error("dump to /dev/tty does not end as on a device")
	}
	_, errOut, ok := runADB(t, s, "-s", "nope", "shell", "echo")
	if ok || !strings.Contains(errOut, "device 'nope' not found") {
		t.Errorf("unknown serial: ok=%v stderr %q", ok, errOut)
	}
	if !slices.Contains(s.Requests(), "host:tport:serial:"+s.Serial) {
		t.Errorf("adb did not switch transports with host:tport: %q", s.Requests())
	}
	if !slices.Contains(s.Requests(), "shell,v2,TERM=xterm,raw:echo hi") {
		t.Errorf("adb did not use shell protocol v2: %q", s.Requests())
	}
}

// TestRealADBExitStatus checks that shell v2 carries stderr and the exit
// status to the adb command, as from a real device.
func TestRealADBExitStatus(t *testing.T) {
	s := start(t)
	tests := []struct {
		cmd      string
		status   int
		stdout   string
		inStderr string
	}{
		{"true", 0, "", ""},
		{"false", 1, "", ""},
		{"echo out; nosuch", 127, "out\n", "nosuch: inaccessible or not found"},
		{"cat /sdcard/none || echo fallback", 0, "fallback\n", "No such file"},
	}
	for _, tt := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := adbCmd(ctx, t, s, "-s", s.Serial, "shell", tt.cmd)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		cmd.Run()
		cancel()
		if got := cmd.ProcessState.ExitCode(); got != tt.status || out.String() != tt.stdout || !strings.Contains(errb.String(), tt.inStderr) {
			t.Errorf("adb shell %q: status %d stdout %q stderr %q; want %d, %q, stderr with %q",
				tt.cmd, got, out.String(), errb.String(), tt.status, tt.stdout, tt.inStderr)
		}
	}
}

func runOK(t *testing.T, s *Server, args ...string) string {
	t.Helper()
	out, errOut, ok := runADB(t, s, args...)
	if !ok {
		t.Fatalf("adb %q failed: %s", args, errOut)
	}
	return out
}

// TestRealADBGetevent records a tap with `adb shell getevent -lt`, as the
// Android recorder does through the server.
func TestRealADBGetevent(t *testing.T) {
	s := start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := adbCmd(ctx, t, s, "-s", s.Serial, "shell", "getevent", "-lt")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	r := bufio.NewReader(stdout)
	var got strings.Builder
	for !strings.Contains(got.String(), `"sim_touchscreen"`) {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("getevent header: %v (got %q)", err, got.String())
		}
		got.WriteString(line)
	}
	s.PlayTap(675, 2025)
	got.Reset()
	for !strings.Contains(got.String(), "BTN_TOUCH            UP") {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("getevent tap: %v (got %q)", err, got.String())
		}
		got.WriteString(line)
	}
	for _, want := range []string{"/dev/input/event2: EV_ABS       ABS_MT_POSITION_X    00000a00", "EV_KEY       BTN_TOUCH            DOWN"} {
		if !strings.Contains(got.String(), want) {
			t.Errorf("adb shell getevent -lt lacks %q:\n%s", want, got.String())
		}
	}
	if s.App().Screen() != ScreenList {
		t.Errorf("screen after the played tap: %s", s.App().Screen())
	}
}
