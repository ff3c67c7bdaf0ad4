package android

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android/adb"
)

// fakeDevice answers shell commands from a function and logs them.
type fakeDevice struct {
	mu     sync.Mutex
	log    []string
	answer func(cmd string) ([]byte, error)
}

func (f *fakeDevice) Shell(_ context.Context, cmd string) ([]byte, error) {
	f.mu.Lock()
	f.log = append(f.log, cmd)
	f.mu.Unlock()
	return f.answer(cmd)
}

func (f *fakeDevice) Exec(ctx context.Context, cmd string) ([]byte, error) { return f.Shell(ctx, cmd) }

func (f *fakeDevice) ShellStream(context.Context, string) (io.ReadCloser, error) {
	return nil, errors.New("no stream")
}

// actions are the commands that are not dumps.
func (f *fakeDevice) actions() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, c := range f.log {
		if c != dumpCmd {
			out = append(out, c)
		}
	}
	return out
}

// newFake answers dumps with a fixture and every other command with "";
// after the first `input text`, dumps show the fixture with the
// replacements made (old, new, old, new, …): what typing changed.
func newFake(t *testing.T, fixture string, typed ...string) *fakeDevice {
	t.Helper()
	b, err := os.ReadFile("testdata/" + fixture)
	if err != nil {
		t.Fatal(err)
	}
	xml := string(b)
	return &fakeDevice{answer: func(cmd string) ([]byte, error) {
		if strings.HasPrefix(cmd, "input text ") {
			xml = strings.NewReplacer(typed...).Replace(xml)
		}
		switch cmd {
		case dumpCmd:
			return []byte(xml), nil
		case resumedCmd: // open's confirmation
			return []byte("    mResumedActivity: ActivityRecord{1 u0 com.android.chrome/.Main t9}\n"), nil
		}
		if strings.HasPrefix(cmd, "am start -W -a") {
			return []byte("Status: ok\nActivity: com.android.chrome/.Main\nComplete\n"), nil
		}
		return nil, nil
	}}
}

func el(t *testing.T, tr *driver.Tree, kv ...string) *driver.Element {
	t.Helper()
	got := find(tr, kv...)
	if len(got) != 1 {
		t.Fatalf("%v: %d elements", kv, len(got))
	}
	return got[0]
}

func TestDo(t *testing.T) {
	tr := loadTree(t, "contact_edit.xml")
	first := el(t, tr, "id", "first_name")              // value "Ada", bounds [42,320][1038,480]
	last := el(t, tr, "id", "last_name")                // empty
	save := el(t, tr, "role", "button", "name", "Save") // [850,105][1038,210]
	list := el(t, tr, "role", "region")                 // the ScrollView [0,231][1080,2337]: center 1284, 60% of 2106 = 2×631
	focused := *last
	focused.Focus = true
	tests := []struct {
		name  string
		a     driver.Action
		want  []string
		text  string
		typed []string // what the dump shows after typing
	}{
		{"click", driver.Action{Op: "click", Target: save}, []string{"input tap 944 157"}, "", nil},
		{"double click", driver.Action{Op: "double_click", Target: save}, []string{"input tap 944 157; input tap 944 157"}, "", nil},
		{"long press", driver.Action{Op: "right_click", Target: save}, []string{"input swipe 944 157 944 157 800"}, "", nil},
		{"type replaces", driver.Action{Op: "type", Target: first, Text: "Grace Hopper"}, []string{
			"input tap 540 400",
			"input keyevent KEYCODE_MOVE_END" + strings.Repeat(" KEYCODE_DEL", 5) + strings.Repeat(" KEYCODE_FORWARD_DEL", 5),
			"input text Grace%sHopper",
		}, "Grace Hopper", []string{`text="Ada"`, `text="Grace Hopper"`}},
		{"type into focused empty field", driver.Action{Op: "type", Target: &focused, Text: "it's"}, []string{
			`input text 'it'\''s'`,
		}, "it's", []string{`text="Last name" resource-id`, `text="it&apos;s" resource-id`}},
		{"enter", driver.Action{Op: "enter"}, []string{"input keyevent KEYCODE_ENTER"}, "", nil},
		{"key chord", driver.Action{Op: "key", Text: "Ctrl+A", Target: &focused}, []string{"input keycombination KEYCODE_CTRL_LEFT KEYCODE_A"}, "", nil},
		{"back", driver.Action{Op: "back"}, []string{"input keyevent KEYCODE_BACK"}, "", nil},
		{"scroll down the list", driver.Action{Op: "scroll", Target: list, Text: "down"}, []string{"input swipe 540 1915 540 653 300"}, "", nil},
		{"scroll 1.5 screens", driver.Action{Op: "scroll", Target: list, Text: "up", Number: 1.5}, []string{
			"input swipe 540 653 540 1915 300", "input swipe 540 969 540 1599 300"}, "", nil},
		{"swipe left on the screen", driver.Action{Op: "swipe", Text: "left"}, []string{"input swipe 810 1200 270 1200 300"}, "", nil},
		{"launch an activity", driver.Action{Op: "launch", Text: "com.example.contacts/.MainActivity"}, []string{
			"am start -W -S -n com.example.contacts/.MainActivity"}, "", nil},
		{"launch a package", driver.Action{Op: "launch", Text: "com.example.contacts"}, []string{
			"am force-stop com.example.contacts; monkey -p com.example.contacts -c android.intent.category.LAUNCHER 1"}, "", nil},
		{"open a URL", driver.Action{Op: "open", Text: "https://example.com/a?b=c&d"}, []string{
			"am start -W -a android.intent.action.VIEW -d 'https://example.com/a?b=c&d'", resumedCmd}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := newFake(t, "contact_edit.xml", tc.typed...)
			d := New(dev, driver.Options{})
			res, err := d.Do(context.Background(), tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if got := dev.actions(); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("commands:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if res.Text != tc.text {
				t.Errorf("result text %q, want %q", res.Text, tc.text)
			}
			if len(dev.log) < 2 || dev.log[len(dev.log)-1] != dumpCmd {
				t.Errorf("the action did not wait for the screen to settle: %q", dev.log)
			}
		})
	}
}

func TestDoErrors(t *testing.T) {
	lost := fmt.Errorf("adb: shell:input tap 1 2: %w (%w)", adb.ErrConnectionLost, io.ErrUnexpectedEOF)
	gone := &adb.FailError{Service: "host:transport:emulator-5554", Message: "device 'emulator-5554' not found"}
	button := &driver.Element{Role: "button", Name: "Save", Bounds: driver.Rect{X: 0, Y: 0, W: 10, H: 10}}
	tests := []struct {
		name   string
		a      driver.Action
		answer func(string) ([]byte, error)
		lost   bool
		msg    string
	}{
		{"connection dropped", driver.Action{Op: "click", Target: button},
			func(string) ([]byte, error) { return nil, lost }, true, "android: click: the device went away (lost the device"},
		{"device unplugged", driver.Action{Op: "click", Target: button},
			func(string) ([]byte, error) { return nil, gone }, true, "device 'emulator-5554' not found"},
		{"no such activity", driver.Action{Op: "launch", Text: "com.x/.Nope"},
			func(string) ([]byte, error) {
				return []byte("Starting: Intent { cmp=com.x/.Nope }\nError type 3\nError: Activity class {com.x/com.x.Nope} does not exist.\n"), nil
			}, false, "starting com.x/.Nope: am: Error type 3"},
		{"private activity", driver.Action{Op: "launch", Text: "com.x/.Detail"},
			func(string) ([]byte, error) {
				return []byte("Starting: Intent { cmp=com.x/.Detail }\nException occurred while executing 'start':\n" +
					"java.lang.SecurityException: Permission Denial: starting Intent { flg=0x10000000 cmp=com.x/.Detail } from null (pid=4242, uid=2000) not exported from uid 10123\n"), nil
			}, false, `the activity is private to its app; launch("com.x") starts the app`},
		{"no such package", driver.Action{Op: "launch", Text: "com.nope"},
			func(string) ([]byte, error) { return []byte("** No activities found to run, monkey aborted.\n"), nil }, false, "monkey aborted"},
		{"input text fails", driver.Action{Op: "type", Target: &driver.Element{Role: "textbox", Focus: true, Bounds: button.Bounds}, Text: "x"},
			func(string) ([]byte, error) {
				return []byte("Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n"), nil
			}, false, "NullPointerException"},
		{"non-ASCII without ADBKeyBoard", driver.Action{Op: "type", Target: &driver.Element{Role: "textbox", Focus: true, Bounds: button.Bounds}, Text: "Zoë"},
			func(cmd string) ([]byte, error) {
				if strings.HasPrefix(cmd, "settings get") {
					return []byte("com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n"), nil
				}
				return nil, nil
			}, false, "ADBKeyBoard"},
		{"an activity without its package", driver.Action{Op: "launch", Text: ".MainActivity"},
			func(string) ([]byte, error) { return nil, nil }, false, `launch got the activity ".MainActivity" without its package`},
		{"no target", driver.Action{Op: "click"}, func(string) ([]byte, error) { return nil, nil }, false, "needs a target element"},
		{"element without area", driver.Action{Op: "click", Target: &driver.Element{Role: "button", Name: "Gone"}},
			func(string) ([]byte, error) { return nil, nil }, false, `button "Gone" has no area`},
		{"not an android action", driver.Action{Op: "new_tab"}, func(string) ([]byte, error) { return nil, nil }, false, `does not perform "new_tab"`},
		{"clear is not an android action", driver.Action{Op: "clear", Target: &driver.Element{Role: "textbox", Bounds: driver.Rect{W: 10, H: 10}}},
			func(string) ([]byte, error) { return nil, nil }, false, `does not perform "clear"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := New(&fakeDevice{answer: tc.answer}, driver.Options{})
			_, err := d.Do(context.Background(), tc.a)
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrDeviceLost) != tc.lost {
				t.Errorf("errors.Is(ErrDeviceLost) = %v: %v", !tc.lost, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

func TestObserveRetriesIdle(t *testing.T) {
	xml, err := os.ReadFile("testdata/dialog.xml")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	dev := &fakeDevice{answer: func(string) ([]byte, error) {
		n++
		if n == 1 {
			return []byte("ERROR: could not get idle state.\n"), nil
		}
		return xml, nil
	}}
	tr, err := New(dev, driver.Options{}).Observe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || tr.Title != "Delete contact?" {
		t.Errorf("%d dumps, title %q", n, tr.Title)
	}

	always := &fakeDevice{answer: func(string) ([]byte, error) { return []byte("ERROR: could not get idle state.\n"), nil }}
	_, err = New(always, driver.Options{}).Observe(context.Background())
	if !errors.Is(err, ErrNoHierarchy) || !strings.Contains(err.Error(), "could not get idle state") || len(always.log) != dumpRetries {
		t.Errorf("after %d dumps: %v", len(always.log), err)
	}
}

func TestScreenshot(t *testing.T) {
	png := "\x89PNG\r\n\x1a\nrest"
	d := New(&fakeDevice{answer: func(cmd string) ([]byte, error) {
		if cmd != "screencap -p" {
			return nil, fmt.Errorf("unexpected %q", cmd)
		}
		return []byte(png), nil
	}}, driver.Options{})
	b, err := d.Screenshot(context.Background())
	if err != nil || string(b) != png {
		t.Errorf("%q, %v", b, err)
	}
	bad := New(&fakeDevice{answer: func(string) ([]byte, error) { return []byte("/system/bin/sh: screencap: not found\n"), nil }}, driver.Options{})
	if _, err := bad.Screenshot(context.Background()); err == nil || !strings.Contains(err.Error(), "screencap: not found") {
		t.Errorf("err = %v", err)
	}
}

func TestTypeCommands(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Ada Lovelace", []string{"input text Ada%sLovelace"}},
		{"100%sure 5%s", []string{"input text 100%", "input text sure%s5%", "input text s"}},
		{`a"b$c;d`, []string{`input text 'a"b$c;d'`}},
		{"line1\nline2\t!", []string{"input text line1", "input keyevent KEYCODE_ENTER", "input text line2", "input keyevent KEYCODE_TAB", "input text '!'"}},
		{"Zoë Å", []string{"input text Zo", "am broadcast -a ADB_INPUT_B64 --es msg w6s=", "input text %s", "am broadcast -a ADB_INPUT_B64 --es msg w4U="}},
		{"你好", []string{"am broadcast -a ADB_INPUT_B64 --es msg 5L2g5aW9"}},
		{"", nil},
	}
	for _, tc := range tests {
		var got []string
		for _, s := range typeCommands(tc.text) {
			got = append(got, s.cmd)
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("typeCommands(%q):\n%s\nwant:\n%s", tc.text, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

func TestKeyCommand(t *testing.T) {
	tests := []struct{ key, want, err string }{
		{"Enter", "input keyevent KEYCODE_ENTER", ""},
		{"BACK", "input keyevent KEYCODE_BACK", ""},
		{"Backspace", "input keyevent KEYCODE_DEL", ""},
		{"AppSwitch", "input keyevent KEYCODE_APP_SWITCH", ""},
		{"a", "input keyevent KEYCODE_A", ""},
		{"@", "input text @", ""},
		{"Ctrl+Shift+z", "input keycombination KEYCODE_CTRL_LEFT KEYCODE_SHIFT_LEFT KEYCODE_Z", ""},
		// The checker's spellings of the modifiers (lang/action), not only
		// the four the driver once knew.
		{"Control+a", "input keycombination KEYCODE_CTRL_LEFT KEYCODE_A", ""},
		{"Cmd+Option+x", "input keycombination KEYCODE_META_LEFT KEYCODE_ALT_LEFT KEYCODE_X", ""},
		{"Hyper+a", "", "unknown modifier"},
		{"F13", "", "no Android key code"},
	}
	for _, tc := range tests {
		got, err := keyCommand(tc.key)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("keyCommand(%q) = %q, %v; want %q, %q", tc.key, got, err, tc.want, tc.err)
		}
	}
}

func TestLooksLikeHint(t *testing.T) {
	tests := []struct {
		text, id string
		want     bool
	}{
		{"Name", "com.example.contacts:id/name_input", true},
		{"Phone number", "phone", true},
		{"Search contacts", "com.example:id/search", true},
		{"Ada Lovelace", "com.example.contacts:id/name_input", false},
		{"555 0100", "phone_input", false},
		{"Name", "", false},
		{"", "name", false},
	}
	for _, tc := range tests {
		if got := looksLikeHint(tc.text, tc.id); got != tc.want {
			t.Errorf("looksLikeHint(%q, %q) = %v", tc.text, tc.id, got)
		}
	}
}

// A dump whose connection breaks is asked again once; a second break is
// the device's loss.
func TestDumpReconnects(t *testing.T) {
	xml, err := os.ReadFile("testdata/dialog.xml")
	if err != nil {
		t.Fatal(err)
	}
	reset := fmt.Errorf("adb: shell:x: %w (%w)", adb.ErrConnectionLost, io.ErrUnexpectedEOF)
	for _, fails := range []int{1, 2} {
		n := 0
		dev := &fakeDevice{answer: func(string) ([]byte, error) {
			n++
			if n <= fails {
				return nil, reset
			}
			return xml, nil
		}}
		_, err := New(dev, driver.Options{}).Observe(context.Background())
		switch {
		case fails == 1 && err != nil:
			t.Errorf("one reset: %v", err)
		case fails == 2 && !errors.Is(err, ErrDeviceLost):
			t.Errorf("two resets: %v", err)
		}
	}
}

// A screen that never stops changing (a clock with seconds) costs a
// bounded number of dumps after an action, not the action's timeout.
func TestSettleBounded(t *testing.T) {
	xml, err := os.ReadFile("testdata/dialog.xml")
	if err != nil {
		t.Fatal(err)
	}
	dumps := 0
	dev := &fakeDevice{answer: func(cmd string) ([]byte, error) {
		if cmd != dumpCmd {
			return nil, nil
		}
		dumps++
		return []byte(strings.Replace(string(xml), "Delete contact?", fmt.Sprintf("12:00:%02d", dumps), 1)), nil
	}}
	button := &driver.Element{Role: "button", Bounds: driver.Rect{W: 10, H: 10}}
	if _, err := New(dev, driver.Options{}).Do(context.Background(), driver.Action{Op: "click", Target: button}); err != nil {
		t.Fatal(err)
	}
	if dumps != settleDumps {
		t.Errorf("%d dumps, want %d", dumps, settleDumps)
	}
}

// After typing, the field must show the text: letters and digits in
// order, whatever formatting the field adds.
func TestTypeChecked(t *testing.T) {
	tr := loadTree(t, "contact_edit.xml")
	phone := el(t, tr, "id", "phone")
	tests := []struct {
		text, shows string
		ok          bool
	}{
		{"555 0100", "(555) 010-0", true},   // formatted
		{"5550100123", "555-010-01", false}, // cut by a length limit
		{"Grace", "Grace", true},
		{"Grace", "Grce", false}, // a dropped character
	}
	for _, tc := range tests {
		dev := newFake(t, "contact_edit.xml", `text="Phone" resource-id="com.example.contacts:id/phone"`,
			`text="`+tc.shows+`" resource-id="com.example.contacts:id/phone"`)
		_, err := New(dev, driver.Options{}).Do(context.Background(), driver.Action{Op: "type", Target: phone, Text: tc.text})
		if (err == nil) != tc.ok {
			t.Errorf("typing %q, the field showing %q: %v", tc.text, tc.shows, err)
		}
		if err != nil && !strings.Contains(err.Error(), "but it shows") {
			t.Errorf("error %v", err)
		}
	}
}
