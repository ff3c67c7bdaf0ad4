//go:build windows

package uia

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The live tests drive a real desktop: they start an application, type
// into it and record synthesized input. They run only when asked, on a
// desktop that may be disturbed:
//
//	set COGFLOW_UIA_LIVE=1
//	set COGFLOW_UIA_APP=notepad.exe   (the default)
//	go test ./runtime/driver/uia -run Live -v

func liveApp(t *testing.T) string {
	t.Helper()
	if os.Getenv("COGFLOW_UIA_LIVE") == "" {
		t.Skip("set COGFLOW_UIA_LIVE=1 to drive this desktop")
	}
	if app := os.Getenv("COGFLOW_UIA_APP"); app != "" {
		return app
	}
	return "notepad.exe"
}

// editable finds the first editable element of an observation.
func editable(tree *driver.Tree) *driver.Element {
	for _, e := range tree.Elements {
		if e.Editable && e.Visible {
			return e
		}
	}
	return nil
}

func TestLiveDriver(t *testing.T) {
	app := liveApp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	drv, err := driver.Open(ctx, "uia", driver.Options{ActionTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer drv.Close()
	res, err := drv.Do(ctx, driver.Action{Op: "open_window", Text: app})
	if err != nil || res.Window == nil {
		t.Fatalf("open_window: %+v %v", res, err)
	}
	t.Logf("window %s %q", res.Window.ID, res.Window.Title)
	tree, err := drv.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	roles := map[string]int{}
	for _, e := range tree.Elements {
		roles[e.Role]++
	}
	t.Logf("%d elements, title %q, roles %v", len(tree.Elements), tree.Title, roles)
	edit := editable(tree)
	if edit == nil {
		t.Fatalf("no editable element in %q", tree.Title)
	}
	const text = "hello from cogflow"
	if _, err := drv.Do(ctx, driver.Action{Op: "type", Target: edit, Text: text}); err != nil {
		t.Fatal(err)
	}
	after, err := drv.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e := after.ByRef(edit.Ref); e == nil || !strings.Contains(e.Value+e.Text, text) {
		t.Errorf("after type: %+v", e)
	}
	copied, err := drv.Do(ctx, driver.Action{Op: "copy", Target: edit})
	if err != nil || !strings.Contains(copied.Text, text) {
		t.Errorf("copy: %q %v", copied.Text, err)
	}
	png, err := drv.Screenshot(ctx)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
	if _, err := drv.Do(ctx, driver.Action{Op: "key", Text: "Ctrl+A", Target: edit}); err != nil {
		t.Errorf("key: %v", err)
	}
	if _, err := drv.Do(ctx, driver.Action{Op: "type", Target: edit, Text: ""}); err != nil {
		t.Errorf("clear: %v", err)
	}
	if _, err := drv.Do(ctx, driver.Action{Op: "close_window"}); err != nil {
		t.Errorf("close_window: %v", err)
	}
}

func TestLiveRecord(t *testing.T) {
	app := liveApp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	a, err := newWinAuto()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	type result struct {
		tr  *trace.Trace
		err error
	}
	done := make(chan result, 1)
	go func() {
		tr, err := Record(ctx, RecordOptions{App: app, Warn: func(err error) { t.Logf("warning: %v", err) }})
		done <- result{tr, err}
	}()
	time.Sleep(3 * time.Second) // the app starts, the hooks are in
	root, err := a.Walk("", DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	d := newDriver(a, driver.Options{})
	tree, err := d.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	edit := editable(tree)
	if edit == nil {
		t.Fatalf("no editable element in %q (%d nodes)", tree.Title, root.Count())
	}
	x, y := edit.Bounds.Center()
	for _, step := range []func() error{
		func() error { return a.Click(x, y, "left", 1) },
		func() error { return a.Keys(mustChord("h")) },
		func() error { return a.Keys(mustChord("i")) },
		func() error { return a.Keys(mustChord("Ctrl+Shift+X")) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	var r result
	select {
	case r = <-done:
	case <-time.After(20 * time.Second):
		cancel()
		r = <-done
		t.Error("the stop chord did not end the recording")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	var kinds []string
	for _, e := range r.tr.Events {
		kinds = append(kinds, string(e.Kind))
	}
	t.Logf("events: %v", kinds)
	if len(r.tr.Events) < 3 || r.tr.Events[0].Kind != trace.KindClick || r.tr.Events[0].Target == nil {
		t.Errorf("trace %v", kinds)
	}
	if err := r.tr.Validate(); err != nil {
		t.Error(err)
	}
	if err := d.closeWindow(tree.Title); err != nil {
		t.Logf("close: %v", err)
	}
}

// TestLiveWin32 drives what needs no UI Automation — the COM thread,
// windows, launching, the clipboard, SendInput, the hooks, screenshots —
// so that it runs where UIA itself is missing (Wine 8 has no
// CUIAutomation class factory).
func TestLiveWin32(t *testing.T) {
	app := liveApp(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	th, err := startCOM()
	if err != nil {
		t.Fatal(err)
	}
	a := &winAuto{th: th, els: map[string]com{}, user: newUser32()}
	defer th.stop()

	w, err := a.Launch(ctx, app)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("launched %s %q", w.ID, w.Title)
	ws, err := a.Windows()
	found := false
	for _, x := range ws {
		found = found || x.ID == w.ID
	}
	if err != nil || !found {
		t.Errorf("windows %v does not list %s: %v", ws, w.ID, err)
	}
	if err := a.Activate(w.ID); err != nil {
		t.Logf("activate: %v", err) // a refused foreground is not this test's concern
	}

	// Unicode typing and chords, read back through the application's
	// own copy.
	time.Sleep(500 * time.Millisecond)
	const typed = "héllo ✓ wörld"
	for _, step := range []func() error{
		func() error { return a.Type(typed) },
		func() error { return a.Keys(mustChord("Ctrl+A")) },
		func() error { return a.Keys(mustChord("Ctrl+C")) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got, err := a.Clipboard(); err != nil || got != typed {
		t.Errorf("typed and copied %q, %v; want %q", got, err, typed)
	}
	a.Keys(mustChord("Delete"))

	const text = "cogflow ✓ clipboard"
	if err := a.SetClipboard(text); err != nil {
		t.Fatal(err)
	}
	if got, err := a.Clipboard(); err != nil || got != text {
		t.Errorf("clipboard %q, %v; want %q", got, err, text)
	}

	png, err := a.Screenshot(w.ID)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}

	events := make(chan hookEvent, 64)
	h, err := startHooks(events, mustChord("Ctrl+Shift+X"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	for _, step := range []func() error{
		func() error { return a.Click(123, 145, "left", 1) },
		func() error { return a.Keys(mustChord("h")) },
		func() error { return a.Keys(mustChord("Shift+A")) },
		func() error { return a.Keys(mustChord("Ctrl+Shift+X")) },
	} {
		if err := step(); err != nil {
			t.Error(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	h.stop()
	close(events)
	var got []string
	for ev := range events {
		if ev.Mouse {
			got = append(got, fmt.Sprintf("press %s %d,%d", ev.Button, ev.X, ev.Y))
		} else if !isModifier(ev.VK) {
			got = append(got, fmt.Sprintf("key %s %q ctrl=%v shift=%v", KeyName(ev.VK, ev.Shift), ev.Char, ev.Ctrl, ev.Shift))
		}
	}
	want := []string{
		"press left 123,145",
		`key h "h" ctrl=false shift=false`,
		`key A "A" ctrl=false shift=true`,
		`key X "" ctrl=true shift=true`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hook events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if err := a.CloseWindow(w.ID); err != nil {
		t.Error(err)
	}
}
