package knowledge

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// TestStateKeyOnSimulatedDevice keys the screens of the simulated
// contacts app, observed through the real ADB protocol: a screen keeps
// its key when a value is typed or when it shows another contact, and
// the list, a contact and the edit form have keys of their own.
func TestStateKeyOnSimulatedDevice(t *testing.T) {
	ctx := context.Background()
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := android.Open(ctx, driver.Options{RemoteURL: srv.Addr(), ActionTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	key := func() (string, *driver.Tree) {
		tr, err := d.Observe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return StateKey(tr), tr
	}
	do := func(op action.Name, text, role, name string) {
		t.Helper()
		a := driver.Action{Op: op, Text: text}
		if role != "" {
			_, tr := key()
			for _, e := range tr.Elements {
				if e.Role == role && (name == "" || e.Name == name) && e.Visible {
					a.Target = e
					break
				}
			}
			if a.Target == nil {
				t.Fatalf("no %s %q on the screen", role, name)
			}
		}
		if _, err := d.Do(ctx, a); err != nil {
			t.Fatalf("%s %s %q: %v", op, role, name, err)
		}
	}
	do("launch", "com.example.contacts", "", "")
	list, _ := key()
	do(action.Click, "", "listitem", "Bob Smith")
	bob, _ := key()
	do(action.Back, "", "", "")
	do(action.Click, "", "listitem", "Alice Johnson")
	alice, _ := key()
	do(action.Click, "", "button", "Edit")
	edit, _ := key()
	do(action.Type, "Alicia", "textbox", "")
	typed, _ := key()
	if bob != alice {
		t.Errorf("two contacts' screens: %s and %s", bob, alice)
	}
	if typed != edit {
		t.Errorf("typing changed the edit form's key: %s → %s", edit, typed)
	}
	keys := map[string]bool{list: true, bob: true, edit: true}
	if len(keys) != 3 {
		t.Errorf("list %s, contact %s and edit form %s share a key", list, bob, edit)
	}
	for k := range keys {
		if !strings.HasPrefix(k, "android-app://com.example.contacts#") {
			t.Errorf("key %s", k)
		}
	}
}
