package main

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// waitLog waits until re matches what log holds and returns its
// submatches; it fails when the command exits or nothing matches in time.
func waitLog(t *testing.T, log *lockedBuffer, re *regexp.Regexp, exited <-chan int) []string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if m := re.FindStringSubmatch(log.String()); m != nil {
			return m
		}
		select {
		case code := <-exited:
			t.Fatalf("the command exited with %d:\n%s", code, log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("nothing matches %s:\n%s", re, log.String())
		}
	}
}

// TestDemoAndroid serves the simulated phone as `demo android` does, runs
// the Android example with the command line it prints, finds the contact
// on the phone, and stops the server the way Ctrl-C does.
func TestDemoAndroid(t *testing.T) {
	isolateConfig(t)
	app := adbtest.NewApp()
	oldPhone, oldSignals := demoPhone, demoSignals
	defer func() { demoPhone, demoSignals = oldPhone, oldSignals }()
	demoPhone = func() *adbtest.App { return app }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	demoSignals = func() (context.Context, context.CancelFunc) { return ctx, cancel }

	var stdout, stderr lockedBuffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
	exited := make(chan int, 1)
	go func() { exited <- c.main([]string{"demo", "android", "--addr", "127.0.0.1:0"}) }()

	m := waitLog(t, &stderr, regexp.MustCompile(`run the Android example on it: cogflow (run (\S+) --adb (\S+) --serial (\S+))\n`), exited)
	args, example, addr := strings.Fields(m[1]), m[2], m[3]
	if example != androidExample || m[4] != adbtest.DefaultSerial || !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Errorf("printed run line %q: want %s --adb 127.0.0.1:PORT --serial %s", m[1], androidExample, adbtest.DefaultSerial)
	}
	// The printed path is the repository's, relative to its root.
	args[1] = filepath.Join("..", "..", filepath.FromSlash(example))
	runCtx, cancelRun := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelRun()
	r := runWith(runCtx, "", append(args, "--dir", t.TempDir())...)
	if r.code != exitOK {
		t.Fatalf("%s: exit %d\n%s%s", m[1], r.code, r.stdout, r.stderr)
	}
	want := adbtest.Contact{Name: "Ada Lovelace", Phone: "+442079460000"}
	if got := app.Contacts(); !slices.Contains(got, want) || len(got) != len(adbtest.SeedContacts)+1 {
		t.Errorf("contacts on the phone: %+v; want the seed ones and %+v", got, want)
	}
	if app.Screen() != adbtest.ScreenList {
		t.Errorf("the run ended on screen %q, want the list", app.Screen())
	}
	waitLog(t, &stderr, regexp.MustCompile(`the phone has a new contact: Ada Lovelace, \+442079460000\n`), exited)

	stopDemo(t, cancel, exited, &stderr, "demo android")
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Error("the adb server still accepts connections after stopping")
	}
	if n := strings.Count(stderr.String(), "\n"); n != 3 {
		t.Errorf("logged %d lines, want 3 (serving, run line, the new contact):\n%s", n, stderr.String())
	}
	if stdout.String() != "" {
		t.Errorf("unexpected stdout: %q", stdout.String())
	}
}

// TestDemoAndroidAddressTaken: a port already in use is a usage error that
// says how to pick another.
func TestDemoAndroidAddressTaken(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := runCLI(t, "", "demo", "android", "--addr", ln.Addr().String())
	if r.code != exitUsage || !strings.Contains(r.stderr, "cogflow demo:") || !strings.Contains(r.stderr, "--addr 127.0.0.1:0") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

func TestMinusContacts(t *testing.T) {
	ada := adbtest.Contact{Name: "Ada", Phone: "1"}
	bob := adbtest.Contact{Name: "Bob", Phone: "2"}
	tests := []struct {
		a, b, want []adbtest.Contact
	}{
		{nil, nil, nil},
		{[]adbtest.Contact{ada, bob}, []adbtest.Contact{bob}, []adbtest.Contact{ada}},
		{[]adbtest.Contact{ada, ada, bob}, []adbtest.Contact{ada, bob}, []adbtest.Contact{ada}}, // a second Ada is new
		{[]adbtest.Contact{ada}, []adbtest.Contact{ada, bob}, nil},
		{[]adbtest.Contact{{Name: "Ada", Phone: "9"}}, []adbtest.Contact{ada}, []adbtest.Contact{{Name: "Ada", Phone: "9"}}},
	}
	for _, tc := range tests {
		if got := minus(tc.a, tc.b); !slices.Equal(got, tc.want) {
			t.Errorf("minus(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestDialAddr(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:5038": "127.0.0.1:5038",
		"0.0.0.0:5038":   "127.0.0.1:5038",
		"[::]:5038":      "127.0.0.1:5038",
		"[::1]:5038":     "[::1]:5038",
		"nonsense":       "nonsense",
	} {
		if got := dialAddr(addr); got != want {
			t.Errorf("dialAddr(%s) = %s, want %s", addr, got, want)
		}
	}
}

// TestAndroidExampleMatchesSimulator: the example names the simulated
// app's ids, so that `demo android` runs it (the ids it had before, fab
// and contacts, exist on no device cogflow ships).
func TestAndroidExampleMatchesSimulator(t *testing.T) {
	src, err := os.ReadFile(examplePath("android_add_contact.cog"))
	if err != nil {
		t.Fatal(err)
	}
	dump := adbtest.NewApp()
	dump.Start()
	xml := dump.Dump()
	for _, id := range regexp.MustCompile(`id: "([^"]+)"`).FindAllStringSubmatch(string(src), -1) {
		if !strings.Contains(xml, `resource-id="`+adbtest.ContactsPackage+":id/"+id[1]+`"`) {
			t.Errorf("the example's id %q is not on the simulated app's list screen", id[1])
		}
	}
}
