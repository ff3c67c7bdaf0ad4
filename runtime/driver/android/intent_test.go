package android

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
)

// Intents over the ADB protocol against the simulated phone: each opens
// the app that shows what it carried, whatever characters the values
// hold, and the result names the activity that came to the front.
func TestIntentSimulated(t *testing.T) {
	nasty := `it's "quoted"; $(reboot) && echo $HOME | x > /sdcard/y` + "\nsecond line"
	tests := []struct {
		name     string
		a        driver.Action
		screen   string
		activity string
		fields   map[string]string
	}{
		{"view a URL", driver.Action{Text: "android.intent.action.VIEW", Data: "https://example.com/s?q=a b&x='1'"},
			adbtest.ScreenBrowser, "com.android.chrome/com.google.android.apps.chrome.Main",
			map[string]string{"url": "https://example.com/s?q=a b&x='1'"}},
		{"dial", driver.Action{Text: "android.intent.action.DIAL", Data: "tel:+1 555-0100"},
			adbtest.ScreenDialer, "com.android.dialer/.main.impl.MainActivity", map[string]string{"number": "+1 555-0100"}},
		{"text message with a body that is shell syntax", driver.Action{Text: "android.intent.action.SENDTO", Data: "smsto:5550100",
			Extras: []string{"sms_body=" + nasty}}, adbtest.ScreenCompose,
			"com.google.android.apps.messaging/.ui.conversation.LaunchConversationActivity",
			map[string]string{"to": "5550100", "body": nasty}},
		{"e-mail", driver.Action{Text: "android.intent.action.SENDTO", Data: "mailto:bob@example.com",
			Extras: []string{"android.intent.extra.SUBJECT=Hello", "android.intent.extra.TEXT=a=b"}}, adbtest.ScreenCompose,
			"com.google.android.gm/.ComposeActivityGmailExternal",
			map[string]string{"to": "bob@example.com", "subject": "Hello", "body": "a=b"}},
		{"settings page", driver.Action{Text: "android.settings.BLUETOOTH_SETTINGS"}, adbtest.ScreenDeviceSettings,
			"com.android.settings/.Settings$BluetoothSettingsActivity", map[string]string{"page": "Bluetooth"}},
		{"by package", driver.Action{Text: "android.intent.action.VIEW", Data: "https://example.com", Package: "com.android.chrome"},
			adbtest.ScreenBrowser, "com.android.chrome/com.google.android.apps.chrome.Main", nil},
		{"by component", driver.Action{Text: "android.intent.action.MAIN", Package: "com.android.settings/.Settings$WifiSettingsActivity"},
			adbtest.ScreenDeviceSettings, "com.android.settings/.Settings$WifiSettingsActivity", map[string]string{"page": "Wi-Fi"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, srv := simDriver(t)
			tc.a.Op = action.Intent
			res, err := d.Do(context.Background(), tc.a)
			if err != nil {
				t.Fatal(err)
			}
			if res.Window == nil || res.Window.Title != tc.activity {
				t.Fatalf("window %+v, want activity %s", res.Window, tc.activity)
			}
			if tc.a.Data != "" && res.Window.URL != tc.a.Data {
				t.Errorf("window URL %q", res.Window.URL)
			}
			app := srv.App()
			if app.Screen() != tc.screen {
				t.Errorf("screen %q, want %q", app.Screen(), tc.screen)
			}
			f, _ := app.Foreign()
			for k, v := range tc.fields {
				if f.Fields[k] != v {
					t.Errorf("%s = %q, want %q", k, f.Fields[k], v)
				}
			}
		})
	}
}

// open is a confirmed VIEW intent: the browser shows the address; a
// scheme no app handles fails the step.
func TestOpenSimulated(t *testing.T) {
	d, srv := simDriver(t)
	res := do(t, d, action.Open, "https://example.com/x?q=1")
	if f, _ := srv.App().Foreign(); f.Screen != adbtest.ScreenBrowser || f.Fields["url"] != "https://example.com/x?q=1" ||
		res.Window == nil || res.Window.ID != adbtest.ChromePackage {
		t.Fatalf("browser %+v, window %+v", f, res.Window)
	}
	_, err := d.Do(context.Background(), driver.Action{Op: action.Open, Text: "gopher://example.com"})
	if err == nil || !strings.Contains(err.Error(), "unable to resolve Intent") {
		t.Fatalf("gopher: %v", err)
	}
}

// An intent that starts nothing, or not what was asked, fails with what
// the phone said; values that could pass for am options or shell syntax
// never reach the device.
func TestIntentFails(t *testing.T) {
	tests := []struct {
		name string
		a    driver.Action
		msg  string
	}{
		{"unresolved", driver.Action{Text: "com.example.action.NOPE", Data: "x:y"}, "unable to resolve Intent"},
		{"another app's package", driver.Action{Text: "android.intent.action.VIEW", Data: "https://example.com", Package: "com.android.dialer"},
			"unable to resolve Intent"},
		{"finished at once", driver.Action{Text: "android.settings.APPLICATION_DETAILS_SETTINGS", Data: "package:com.nope"},
			"am start displayed com.android.settings/.applications.InstalledAppDetails, but com.android.launcher3/.Launcher is in front"},
		{"action with shell syntax", driver.Action{Text: "android.intent.action.VIEW; reboot"}, "is not an intent action"},
		{"action as an option", driver.Action{Text: "-n"}, "is not an intent action"},
		{"package with shell syntax", driver.Action{Text: "android.intent.action.VIEW", Package: "com.x$(id)"}, "is not a package name"},
		{"extra without a key", driver.Action{Text: "android.intent.action.VIEW", Extras: []string{"=x"}}, `extras[0] must be "key=value"`},
		{"extra key with a space", driver.Action{Text: "android.intent.action.VIEW", Extras: []string{"a b=x"}}, `extras[0] must be "key=value"`},
		{"data with a NUL", driver.Action{Text: "android.intent.action.VIEW", Data: "https://x\x00y"}, "the data holds a NUL"},
		{"extra with a NUL", driver.Action{Text: "android.intent.action.VIEW", Extras: []string{"a=x\x00y"}}, "extras[0] holds a NUL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, srv := simDriver(t)
			tc.a.Op = action.Intent
			_, err := d.Do(context.Background(), tc.a)
			if err == nil || !strings.Contains(err.Error(), tc.msg) {
				t.Fatalf("error %v, want %q", err, tc.msg)
			}
			if s := srv.App().Screen(); s != adbtest.ScreenLauncher {
				t.Errorf("screen %q after a failed intent", s)
			}
		})
	}
}

// What only a real phone prints: the app chooser in front, a launch that
// timed out, an am too old to name the activity.
func TestIntentConfirmation(t *testing.T) {
	resumed := func(act string) string {
		return "    mResumedActivity: ActivityRecord{1 u0 " + act + " t9}\n"
	}
	broughtToFront := "Starting: Intent { act=android.intent.action.VIEW }\nWarning: Activity not started, its current task has been brought to the front\n" +
		"Status: ok\nLaunchState: UNKNOWN (0)\nActivity: com.x/.A\nComplete\n"
	tests := []struct {
		name, am, front, msg string
		data                 string
		extras               []string
	}{
		{name: "task brought to the front, data not delivered", am: broughtToFront, front: "com.x/.A", data: "https://example.com/b",
			msg: "its data and extras were not delivered"},
		{name: "task brought to the front, extras not delivered", am: broughtToFront, front: "com.x/.A", extras: []string{"sms_body=B"},
			msg: "its data and extras were not delivered"},
		{name: "task brought to the front, nothing to deliver", am: broughtToFront, front: "com.x/.A"},
		{name: "chooser", am: "Status: ok\nActivity: android/com.android.internal.app.ResolverActivity\nComplete\n", front: "android/com.android.internal.app.ResolverActivity", msg: "several apps handle it"},
		{name: "timeout", am: "Status: timeout\nActivity: com.x/.A\nComplete\n", front: "com.x/.A", msg: `status "timeout"`},
		{name: "no activity line", am: "Starting: Intent { act=android.intent.action.VIEW }\n", front: "com.x/.A", msg: "cannot be confirmed"},
		{name: "short and long names agree", am: "Status: ok\nActivity: com.x/.A\nComplete\n", front: "com.x/com.x.A", msg: ""},
		{name: "nothing resumed", am: "Status: ok\nActivity: com.x/.A\nComplete\n", front: "", msg: "reports no resumed activity"},
		// Android 14 moved the chooser (ACTION_CHOOSER) into the
		// IntentResolver module, out of the "android" package.
		{name: "intentresolver chooser", am: "Status: ok\nActivity: com.android.intentresolver/.ChooserActivity\nComplete\n", front: "com.android.intentresolver/.ChooserActivity", msg: "several apps handle it"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev := &fakeDevice{answer: func(cmd string) ([]byte, error) {
				switch {
				case strings.HasPrefix(cmd, "am start"):
					return []byte(tc.am), nil
				case strings.HasPrefix(cmd, "dumpsys") && tc.front == "":
					return nil, nil
				case strings.HasPrefix(cmd, "dumpsys"):
					return []byte(resumed(tc.front)), nil
				}
				return nil, nil
			}}
			d := New(dev, driver.Options{})
			_, err := d.intent(context.Background(), driver.Action{Op: action.Intent, Text: "android.intent.action.VIEW", Data: tc.data, Extras: tc.extras})
			if tc.msg == "" && err != nil || tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)) {
				t.Fatalf("error %v, want %q", err, tc.msg)
			}
		})
	}
}

// A secret among the extras stays out of the error when am quotes the
// intent back.
func TestIntentErrorScrubsSecret(t *testing.T) {
	dev := &fakeDevice{answer: func(cmd string) ([]byte, error) {
		return []byte("Error: Activity not started, unable to resolve Intent { act=x.Y dat=smsto:hunter2 }\n"), nil
	}}
	d := New(dev, driver.Options{})
	_, err := d.Do(context.Background(), driver.Action{Op: action.Intent, Text: "x.Y", Data: "smsto:hunter2", Secret: true})
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "unable to resolve") {
		t.Fatalf("error %v", err)
	}
}

// A secret intent's window names the app, not the data that held the
// secret: the window is what the step reports.
func TestIntentSecretWindow(t *testing.T) {
	d, _ := simDriver(t)
	res, err := d.Do(context.Background(), driver.Action{Op: action.Intent, Text: "android.intent.action.DIAL", Data: "tel:5550100", Secret: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Window == nil || strings.Contains(res.Window.URL+res.Window.Title+res.Window.ID, "5550100") || res.Window.URL != "android-app://com.android.dialer" {
		t.Fatalf("window %+v", res.Window)
	}
}

// A secret in a query's URI stays out of its errors: the provider's,
// which quote the URI back, and the driver's own.
func TestContentQueryErrorScrubsSecret(t *testing.T) {
	dev := &fakeDevice{answer: func(cmd string) ([]byte, error) {
		return []byte("Error while accessing provider:x\njava.lang.IllegalArgumentException: Unknown URL content://x/hunter2\n"), nil
	}}
	d := New(dev, driver.Options{})
	for _, uri := range []string{"content://x/hunter2", "content://x/hunter2 y"} {
		_, err := d.Do(context.Background(), driver.Action{Op: action.ContentQuery, Text: uri, Secret: true})
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: error %v", uri, err)
		}
	}
}

// Content queries over the ADB protocol read the simulated contacts,
// including one added through the app's screens a moment before.
func TestContentQuerySimulated(t *testing.T) {
	d, _ := simDriver(t)
	q := func(uri string, cols []string, where string) ([]string, error) {
		res, err := d.Do(context.Background(), driver.Action{Op: action.ContentQuery, Text: uri, Columns: cols, Where: where})
		return res.Rows, err
	}
	rows, err := q("content://contacts/phones", []string{"name", "number"}, "name LIKE '%smith%'")
	if err != nil || !reflect.DeepEqual(rows, []string{"name=Bob Smith, number=+1 555-0123"}) {
		t.Fatalf("rows %q, %v", rows, err)
	}
	rows, err = q("content://com.android.contacts/data/phones", []string{"display_name"}, "display_name = 'Nobody'")
	if err != nil || rows == nil || len(rows) != 0 {
		t.Fatalf("no match: %q, %v", rows, err)
	}
	// Add a contact the way a person does, then find it by query.
	do(t, d, action.Launch, adbtest.ContactsPackage)
	do(t, d, action.Click, "", "name", "Add contact")
	do(t, d, action.Type, "O'Hara", "id", "name_input")
	do(t, d, action.Type, "5550111", "id", "phone_input")
	do(t, d, action.Click, "", "role", "button", "name", "Save")
	rows, err = q("content://com.android.contacts/data/phones", []string{"display_name", "data1"}, "display_name = 'O''Hara'")
	if err != nil || !reflect.DeepEqual(rows, []string{"display_name=O'Hara, data1=5550111"}) {
		t.Fatalf("added contact: %q, %v", rows, err)
	}
	for _, tc := range []struct {
		uri  string
		cols []string
		msg  string
	}{
		{"content://sms/inbox", nil, "the provider sms refused the shell (it lacks the permission): java.lang.SecurityException"},
		{"content://com.nope/x", nil, "Could not find provider: com.nope"},
		{"content://contacts/phones", []string{"nope"}, "no such column: nope"},
		{"contacts/phones", nil, "is not a content URI"},
		{"content://contacts/phones; reboot", nil, "is not a content URI"},
		{"content://contacts/phones", []string{"name:number"}, "is not a column name"},
	} {
		if _, err := q(tc.uri, tc.cols, ""); err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s %v: error %v, want %q", tc.uri, tc.cols, err, tc.msg)
		}
	}
}

// parseRows reads the content tool's output strictly.
func TestParseRows(t *testing.T) {
	tests := []struct {
		name, out string
		cols      []string
		want      []string
		msg       string
	}{
		{"rows", "Row: 0 a=1, b=x\nRow: 1 a=2, b=y\n", []string{"a", "b"}, []string{"a=1, b=x", "a=2, b=y"}, ""},
		{"crlf", "Row: 0 a=1\r\n", nil, []string{"a=1"}, ""},
		{"value with a line break", "Row: 0 a=1, note=line one\nline two\nRow: 1 a=2, note=NULL\n", []string{"a", "note"},
			[]string{"a=1, note=line one\nline two", "a=2, note=NULL"}, ""},
		{"none", "No result found.\n", nil, []string{}, ""},
		{"a value's line that looks like a later row", "Row: 0 a=1, note=x\nRow: 5 b\n", []string{"a", "note"},
			[]string{"a=1, note=x\nRow: 5 b"}, ""},
		{"commas and equals in a value", "Row: 0 a=x, y=z, b=2\n", []string{"a", "b"}, []string{"a=x, y=z, b=2"}, ""},
		{"missing column", "Row: 0 a=1\n", []string{"a", "b"}, nil, "row 0: it lacks column b"},
		{"wrong first column", "Row: 0 b=1\n", []string{"a"}, nil, "does not start with column a"},
		{"nothing", "", nil, nil, "printed nothing"},
		{"garbage", "hello\n", nil, nil, `unexpected output "hello"`},
		{"shell error", "/system/bin/sh: content: inaccessible or not found\n", nil, nil, "content: inaccessible"},
		{"provider error", "Error while accessing provider:x\njava.lang.IllegalArgumentException: Unknown URL content://x/y\n\tat a.b(C.java:1)\n",
			nil, nil, "error while accessing provider x: java.lang.IllegalArgumentException: Unknown URL content://x/y"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseRows(tc.out, tc.cols)
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("error %v, want %q", err, tc.msg)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
