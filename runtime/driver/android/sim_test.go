package android

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// simDriver opens the driver on a fresh simulated device.
func simDriver(t *testing.T) (*Driver, *adbtest.Server) {
	t.Helper()
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Open(context.Background(), driver.Options{RemoteURL: srv.Addr(), ActionTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d, srv
}

// do observes, finds the one element matching kv and acts on it.
func do(t *testing.T, d *Driver, op action.Name, text string, kv ...string) driver.Result {
	t.Helper()
	a := driver.Action{Op: op, Text: text}
	if len(kv) > 0 {
		tr, err := d.Observe(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		a.Target = el(t, tr, kv...)
	}
	res, err := d.Do(context.Background(), a)
	if err != nil {
		t.Fatalf("%s %v: %v", op, kv, err)
	}
	return res
}

// Editing a contact on the simulated device: launch by intent, taps,
// replacing a field's text with one that needs quoting and holds a
// literal "%s", back.
func TestSimulatedEdit(t *testing.T) {
	d, srv := simDriver(t)
	app := srv.App()
	res := do(t, d, "launch", "com.example.contacts")
	if res.Window == nil || res.Window.ID != "com.example.contacts" || app.Screen() != adbtest.ScreenList {
		t.Fatalf("launch: %+v, screen %q", res.Window, app.Screen())
	}
	do(t, d, "click", "", "role", "listitem", "name", "Bob Smith")
	do(t, d, "click", "", "role", "button", "name", "Edit")
	want := `O'Brien "Bob" 100%s`
	if got := do(t, d, "type", want, "id", "name_input").Text; got != want {
		t.Errorf("type returned %q", got)
	}
	do(t, d, "click", "", "role", "button", "name", "Save")
	found := false
	for _, c := range app.Contacts() {
		found = found || (c.Name == want && c.Phone == "+1 555-0123")
	}
	if !found {
		t.Errorf("contacts: %+v", app.Contacts())
	}
	do(t, d, "back", "")
	if app.Screen() != adbtest.ScreenList {
		t.Errorf("after back: %q", app.Screen())
	}
	text, err := d.ScreenText(context.Background())
	if err != nil || !strings.Contains(text, want) || !strings.HasPrefix(text, "Contacts\n") {
		t.Errorf("screen text %q, %v", text, err)
	}
	png, err := d.Screenshot(context.Background())
	if err != nil || len(png) < 100 {
		t.Errorf("screenshot: %d bytes, %v", len(png), err)
	}
}

// Non-ASCII text on a device without ADBKeyBoard fails before typing
// anything, and says what to install.
func TestSimulatedNonASCII(t *testing.T) {
	d, srv := simDriver(t)
	do(t, d, "launch", "com.example.contacts/.MainActivity")
	do(t, d, "click", "", "role", "button", "name", "Add contact")
	tr, err := d.Observe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Do(context.Background(), driver.Action{Op: "type", Target: el(t, tr, "id", "name_input"), Text: "Zoë"})
	if err == nil || !strings.Contains(err.Error(), "ADBKeyBoard") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(strings.Join(srv.Requests(), "\n"), "input text Zo") {
		t.Error("the ASCII part was typed before the failure")
	}
}

// A workflow that waits for a text gives up after its timeout.
func TestSimulatedWaitText(t *testing.T) {
	d, _ := simDriver(t)
	do(t, d, "launch", "com.example.contacts")
	if _, err := d.Do(context.Background(), driver.Action{Op: "wait", Text: "alice johnson"}); err != nil {
		t.Errorf("wait for a text on the screen: %v", err)
	}
	_, err := d.Do(context.Background(), driver.Action{Op: "wait", Text: "Nobody", Timeout: 500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), `"Nobody" did not appear`) {
		t.Errorf("err = %v", err)
	}
}

// The device unplugged between two actions: the next one fails with
// ErrDeviceLost, which is also driver.ErrGone.
func TestSimulatedVanish(t *testing.T) {
	d, srv := simDriver(t)
	do(t, d, "launch", "com.example.contacts")
	srv.VanishDevice()
	_, err := d.Do(context.Background(), driver.Action{Op: "back"})
	if !errors.Is(err, ErrDeviceLost) || !errors.Is(err, driver.ErrGone) || !strings.Contains(err.Error(), "android: back: the device went away (lost the device") {
		t.Errorf("err = %v", err)
	}
}

// With two devices attached, the driver asks for --serial and names them;
// with one, it drives that one.
func TestSimulatedSerial(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	second := srv.AddDevice("emulator-5556", "device")
	srv.AddDevice("R58M123ABC", "unauthorized")
	ctx := context.Background()
	_, err = Open(ctx, driver.Options{RemoteURL: srv.Addr()})
	if !errors.Is(err, driver.ErrUnavailable) || !strings.Contains(err.Error(), "pick one with --serial") ||
		!strings.Contains(err.Error(), "emulator-5556 (device)") {
		t.Errorf("no serial: %v", err)
	}
	_, err = Open(ctx, driver.Options{RemoteURL: srv.Addr(), Serial: "R58M123ABC"})
	if !errors.Is(err, driver.ErrUnavailable) || !strings.Contains(err.Error(), "Allow USB debugging") {
		t.Errorf("unauthorized: %v", err)
	}
	_, err = Open(ctx, driver.Options{RemoteURL: srv.Addr(), Serial: "nope"})
	if !errors.Is(err, driver.ErrUnavailable) || !strings.Contains(err.Error(), `no device "nope"`) {
		t.Errorf("unknown serial: %v", err)
	}
	d, err := Open(ctx, driver.Options{RemoteURL: srv.Addr(), Serial: "emulator-5556"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Do(ctx, driver.Action{Op: "launch", Text: "com.example.contacts"}); err != nil {
		t.Fatal(err)
	}
	if second.Screen() != adbtest.ScreenList || srv.App().Screen() != adbtest.ScreenLauncher {
		t.Errorf("screens: second %q, first %q", second.Screen(), srv.App().Screen())
	}
}
