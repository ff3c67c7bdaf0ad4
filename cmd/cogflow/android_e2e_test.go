package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
	"github.com/cogflow/cogflow/runtime/trace"
)

// End-to-end tests of the Android driver against the simulated device of
// adbtest: `cogflow record --driver android` records while the test plays a
// person's touches and typing, `cogflow compile` compiles the trace, and
// `cogflow run` replays it with new inputs on the same device.

// Pixel centers of the simulated contacts app's views (adbtest's screens).
var (
	tapAddContact = [2]int{954, 2148} // the floating "Add contact" button
	tapName       = [2]int{540, 336}
	tapPhone      = [2]int{540, 483}
	tapSave       = [2]int{540, 861}
)

// androidPause lets the recorder take a dump between two gestures, as the
// seconds between a person's touches do.
const androidPause = 400 * time.Millisecond

func play(t *testing.T, srv *adbtest.Server, xy [2]int) {
	t.Helper()
	srv.PlayTap(xy[0], xy[1])
	time.Sleep(androidPause)
}

// recordAndroid runs `cogflow record --driver android` in the background
// and returns a function that stops it (Ctrl-C) and returns the trace path.
func recordAndroid(t *testing.T, srv *adbtest.Server) func() string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "demo.trace.json")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan result, 1)
	go func() {
		done <- runWith(ctx, "", "record", "--driver", "android", "--adb", srv.Addr(),
			"--app", adbtest.ContactsPackage+"/"+adbtest.ContactsActivity, "-o", out)
	}()
	if !srv.WaitGetevent(1, 10*time.Second) {
		cancel()
		r := <-done
		t.Fatalf("the recorder did not start getevent: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	time.Sleep(androidPause) // the first dump
	return func() string {
		t.Helper()
		time.Sleep(androidPause)
		cancel()
		var r result
		select {
		case r = <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the recording did not end")
		}
		if r.code != exitOK {
			t.Fatalf("record: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		return out
	}
}

func TestAndroidE2ERecordCompileRun(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	app := srv.App()
	stop := recordAndroid(t, srv)
	if app.Screen() != adbtest.ScreenList {
		t.Fatalf("--app did not launch the contacts list: screen %q", app.Screen())
	}
	play(t, srv, tapAddContact)
	play(t, srv, tapName)
	srv.PlayText("Ada Lovelace")
	time.Sleep(androidPause)
	play(t, srv, tapPhone)
	srv.PlayText("555 0100")
	time.Sleep(androidPause)
	play(t, srv, tapSave)
	tracePath := stop()
	if !hasContact(app.Contacts(), "Ada Lovelace", "555 0100") {
		t.Fatalf("the demonstration did not add the contact: %+v", app.Contacts())
	}

	tr, err := trace.Load(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventSummary(tr); !slices.Equal(got, []string{
		"click:fab_add", "click:name_input", "input:name_input=Ada Lovelace",
		"click:phone_input", "input:phone_input=555 0100", "click:save",
	}) {
		t.Errorf("events: %q", got)
	}
	if tr.Start.App != adbtest.ContactsPackage+"/"+adbtest.ContactsActivity {
		t.Errorf("start app %q", tr.Start.App)
	}

	cog := filepath.Join(t.TempDir(), "add_contact.cog")
	if r := runWith(context.Background(), "", "compile", tracePath, "--no-llm", "-o", cog, "--dir", t.TempDir()); r.code != exitOK {
		t.Fatalf("compile: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(cog)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	t.Logf("compiled:\n%s", src)
	for _, want := range []string{
		"driver android",
		`launch("com.example.contacts/.MainActivity")`,
		`click(button(name: "Add contact"`,
		`input name: text = "Ada Lovelace"`,
		`input phone: text = "555 0100"`,
		`click(button(name: "Save"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the workflow has no %s", want)
		}
	}

	// Run it with new inputs: the app gets a new contact.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	r := runWith(ctx, "", "run", cog, "--adb", srv.Addr(), "--yes", "--dir", dir, "--screenshots",
		"--input", "name=Grace Hopper", "--input", "phone=555 0199")
	if r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if shots, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "*.png")); len(shots) != 5 {
		t.Errorf("%d screenshots, want one per step (5)", len(shots))
	}
	if !hasContact(app.Contacts(), "Grace Hopper", "555 0199") {
		t.Errorf("the run did not add the contact: %+v", app.Contacts())
	}
	if app.Screen() != adbtest.ScreenList {
		t.Errorf("the run ended on screen %q, want the list", app.Screen())
	}
}

// TestAndroidE2EDeviceVanishes runs a workflow on a device that is
// unplugged mid-run: the run fails with a clear error, and the journal
// says which step it stopped at.
func TestAndroidE2EDeviceVanishes(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := `task add_contact "Add a contact" {
  driver android
  input name: text = "Ada Lovelace"

  op1 = launch("com.example.contacts/.MainActivity")
  op2 = click(button(name: "Add contact"))
  op3 = wait(2)
  op4 = type(textbox(id: "name_input"), name)
}
`
	cog := writeWorkflow(t, "vanish.cog", src)
	go func() {
		// Unplug the device while op3 waits.
		for srv.App().Screen() != adbtest.ScreenEdit {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(500 * time.Millisecond)
		srv.VanishDevice()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	r := runWith(ctx, "", "run", cog, "--adb", srv.Addr(), "--yes", "--dir", dir)
	if r.code != exitGone {
		t.Fatalf("run: exit %d, want %d (the device went away)\n%s%s", r.code, exitGone, r.stdout, r.stderr)
	}
	t.Logf("run:\n%s", r.stderr)
	if !strings.Contains(r.stderr, "the device went away") || !strings.Contains(r.stderr, "op4") {
		t.Errorf("the error does not say the device was lost at op4:\n%s", r.stderr)
	}
	failed := journalFailures(t, dir)
	if !slices.Equal(failed, []string{"op4"}) {
		t.Errorf("the journal's failed steps are %q, want op4", failed)
	}
}

// journalFailures returns the steps the run's journal records as failed
// or, when the device went away while they acted, in doubt.
func journalFailures(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "journal.jsonl"))
	if len(files) != 1 {
		t.Fatalf("%d journals in %s", len(files), dir)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var failed []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct {
			Type, Step, Outcome, Error string
		}
		if json.Unmarshal([]byte(line), &rec) == nil && (rec.Outcome == "failed" || rec.Outcome == "in_doubt") && rec.Step != "" {
			failed = append(failed, rec.Step)
		}
	}
	return failed
}

func hasContact(cs []adbtest.Contact, name, phone string) bool {
	for _, c := range cs {
		if c.Name == name && c.Phone == phone {
			return true
		}
	}
	return false
}

// eventSummary lists events as kind:target-id[=value].
func eventSummary(tr *trace.Trace) []string {
	var out []string
	for _, e := range tr.Events {
		s := string(e.Kind)
		if e.Target != nil {
			s += ":" + e.Target.ID
		}
		if e.Kind == trace.KindInput {
			s += "=" + e.Value
		}
		out = append(out, s)
	}
	return out
}

// TestAndroidE2ERecordConnectionDropped drops the adb connection while
// recording: the recorder stops with an error that says so and still
// writes what it recorded.
func TestAndroidE2ERecordConnectionDropped(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "demo.trace.json")
	done := make(chan result, 1)
	go func() {
		done <- runWith(context.Background(), "", "record", "--driver", "android", "--adb", srv.Addr(),
			"--app", adbtest.ContactsPackage, "-o", out)
	}()
	if !srv.WaitGetevent(1, 10*time.Second) {
		t.Fatal("the recorder did not start getevent")
	}
	time.Sleep(androidPause)
	play(t, srv, tapAddContact)
	srv.DropConnections()
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the recording did not end when the connection dropped")
	}
	if r.code != exitStepFailed || !strings.Contains(r.stderr, "lost the device") {
		t.Errorf("record: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr, err := trace.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := eventSummary(tr); !slices.Equal(got, []string{"click:fab_add"}) {
		t.Errorf("events %q", got)
	}
}

// TestAndroidNoServer: with no adb server at the address, run and record
// say so and exit with the no-driver code.
func TestAndroidNoServer(t *testing.T) {
	cog := writeWorkflow(t, "x.cog", "task x \"x\" {\n  driver android\n\n  op1 = back()\n}\n")
	for _, args := range [][]string{
		{"run", cog, "--adb", "127.0.0.1:1", "--yes", "--dir", t.TempDir()},
		{"record", "--driver", "android", "--adb", "127.0.0.1:1", "-o", filepath.Join(t.TempDir(), "t.json")},
	} {
		r := runWith(context.Background(), "", args...)
		if r.code != exitNoDriver || !strings.Contains(r.stderr, "no adb server at 127.0.0.1:1") {
			t.Errorf("%s: exit %d\n%s", args[0], r.code, r.stderr)
		}
	}
}
