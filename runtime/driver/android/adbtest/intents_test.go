package adbtest

import (
	"strings"
	"testing"
)

// The simulated phone answers `am start` intents as a phone's apps do:
// each opens the screen that shows what it carried.
func TestIntents(t *testing.T) {
	tests := []struct {
		name     string
		line     string
		status   int
		out      string // substring of the output
		screen   string
		activity string
		fields   map[string]string
	}{
		{"view url", `am start -W -a android.intent.action.VIEW -d 'https://example.com/a?b=c&d=e'`, 0,
			"Activity: com.android.chrome/com.google.android.apps.chrome.Main", ScreenBrowser,
			"com.android.chrome/com.google.android.apps.chrome.Main", map[string]string{"url": "https://example.com/a?b=c&d=e"}},
		{"dial", `am start -W -a android.intent.action.DIAL -d 'tel:+1%20555-0100'`, 0,
			"Activity: com.android.dialer/.main.impl.MainActivity", ScreenDialer, "com.android.dialer/.main.impl.MainActivity",
			map[string]string{"number": "+1 555-0100"}},
		{"sms", `am start -W -a android.intent.action.SENDTO -d smsto:5550100 --es sms_body 'see you at 5; bring $HOME'`, 0,
			"(has extras)", ScreenCompose, "com.google.android.apps.messaging/.ui.conversation.LaunchConversationActivity",
			map[string]string{"to": "5550100", "body": "see you at 5; bring $HOME"}},
		{"mail", `am start -a android.intent.action.SENDTO -d 'mailto:bob@example.com?subject=Hi' --es android.intent.extra.TEXT 'Body'`, 0,
			"Starting: Intent { act=android.intent.action.SENDTO dat=mailto:bob@example.com?subject=Hi (has extras) }", ScreenCompose,
			"com.google.android.gm/.ComposeActivityGmailExternal", map[string]string{"to": "bob@example.com", "subject": "Hi", "body": "Body"}},
		{"wifi settings", `am start -W -a android.settings.WIFI_SETTINGS`, 0, "Status: ok", ScreenDeviceSettings,
			"com.android.settings/.Settings$WifiSettingsActivity", map[string]string{"page": "Wi-Fi"}},
		{"app info", `am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.example.contacts`, 0, "Status: ok",
			ScreenDeviceSettings, "com.android.settings/.applications.InstalledAppDetails", map[string]string{"package": "com.example.contacts"}},
		{"app info of nothing finishes", `am start -W -a android.settings.APPLICATION_DETAILS_SETTINGS -d package:com.nope`, 0,
			"Activity: com.android.settings/.applications.InstalledAppDetails", ScreenLauncher, "com.android.launcher3/.Launcher", nil},
		{"unknown action", `am start -W -a com.example.NOPE -d x:y`, 1,
			"Error: Activity not started, unable to resolve Intent { act=com.example.NOPE dat=x:y flg=0x10000000 }", ScreenLauncher, "com.android.launcher3/.Launcher", nil},
		{"package mismatch", `am start -W -a android.intent.action.VIEW -d https://example.com -p com.android.dialer`, 1,
			"unable to resolve", ScreenLauncher, "", nil},
		{"package match", `am start -W -a android.intent.action.VIEW -d https://example.com -p com.android.chrome`, 0,
			"Status: ok", ScreenBrowser, "", nil},
		{"settings by component", `am start -W -n com.android.settings/.Settings\$BluetoothSettingsActivity`, 0,
			"Activity: com.android.settings/.Settings$BluetoothSettingsActivity", ScreenDeviceSettings, "", map[string]string{"page": "Bluetooth"}},
		{"insert contact", `am start -W -a android.intent.action.INSERT -d content://com.android.contacts/contacts --es name 'Dee Dee' --es phone 555`, 0,
			"Activity: com.example.contacts/.EditActivity", ScreenEdit, "com.example.contacts/.EditActivity", nil},
		{"view contact", `am start -W -a android.intent.action.VIEW -d content://com.android.contacts/contacts/2`, 0,
			"Activity: com.example.contacts/.DetailActivity", ScreenDetail, "", nil},
		{"missing value", `am start -a`, 1, "bad arguments", ScreenLauncher, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDevice("s", "device", 1, nil)
			out, st := sh(d, tt.line)
			if st != tt.status || !strings.Contains(out, tt.out) {
				t.Fatalf("status %d, output %q; want %d, %q", st, out, tt.status, tt.out)
			}
			if got := d.app.Screen(); got != tt.screen {
				t.Errorf("screen %q, want %q", got, tt.screen)
			}
			if tt.activity != "" && d.app.Activity() != tt.activity {
				t.Errorf("activity %q, want %q", d.app.Activity(), tt.activity)
			}
			f, _ := d.app.Foreign()
			for k, v := range tt.fields {
				if f.Fields[k] != v {
					t.Errorf("field %s = %q, want %q (%+v)", k, f.Fields[k], v, f)
				}
			}
			if tt.fields != nil {
				dump, _ := sh(d, "uiautomator dump /dev/tty")
				for _, v := range tt.fields {
					if !strings.Contains(dump, `text="`+xmlEscape(v)+`"`) {
						t.Errorf("the dump does not show %q", v)
					}
				}
			}
		})
	}
}

// Back closes another app's activity and shows what was in front before;
// home leaves it too.
func TestForeignBackAndHome(t *testing.T) {
	d := newDevice("s", "device", 1, nil)
	d.app.Start()
	sh(d, "am start -a android.intent.action.DIAL -d tel:1")
	if d.app.Screen() != ScreenDialer {
		t.Fatalf("screen %q", d.app.Screen())
	}
	sh(d, "input keyevent KEYCODE_BACK")
	if d.app.Screen() != ScreenList {
		t.Errorf("after back: %q", d.app.Screen())
	}
	sh(d, "am start -a android.settings.SETTINGS")
	sh(d, "input keyevent KEYCODE_HOME")
	if d.app.Screen() != ScreenLauncher {
		t.Errorf("after home: %q", d.app.Screen())
	}
	sh(d, "monkey -p com.example.contacts 1")
	if d.app.Screen() != ScreenList {
		t.Errorf("after relaunch: %q", d.app.Screen())
	}
}

// The contacts provider answers `content query` with the app's contacts,
// as Android's content tool prints them.
func TestContentQuery(t *testing.T) {
	tests := []struct {
		name, line, want string // want: exact, or with prefix "~" a substring
	}{
		{"phones projected", "content query --uri content://com.android.contacts/data/phones --projection display_name:data1",
			"Row: 0 display_name=Alice Johnson, data1=+1 555-0100\nRow: 1 display_name=Bob Smith, data1=+1 555-0123\n" +
				"Row: 2 display_name=Carlos Díaz, data1=+34 600 123 456\nRow: 3 display_name=Zoë Ångström, data1=+46 70 123 45 67\n"},
		{"where equals", `content query --uri content://contacts/phones --where "name='Bob Smith'"`,
			"Row: 0 _id=2, name=Bob Smith, number=+1 555-0123\n"},
		{"where like ignores case", `content query --uri content://com.android.contacts/contacts --projection display_name --where "display_name LIKE '%I%' AND has_phone_number = 1"`,
			"Row: 0 display_name=Alice Johnson\nRow: 1 display_name=Bob Smith\n"},
		{"or", `content query --uri content://contacts/people --projection name --where "name = 'Bob Smith' OR name='Alice Johnson'"`,
			"Row: 0 name=Alice Johnson\nRow: 1 name=Bob Smith\n"},
		{"emails", "content query --uri content://com.android.contacts/data/emails --projection data1 --where \"display_name='Alice Johnson'\"",
			"Row: 0 data1=alice@example.com\n"},
		{"none", `content query --uri content://contacts/phones --where "name='Nobody'"`, "No result found.\n"},
		{"no such column", "content query --uri content://contacts/phones --projection nope",
			"~Error while accessing provider:contacts\nandroid.database.sqlite.SQLiteException: no such column: nope"},
		{"incomplete", `content query --uri content://contacts/phones --where "name = "`, "~incomplete input"},
		{"syntax", `content query --uri content://contacts/phones --where "name = 'a' name"`, "~syntax error"},
		{"sms denied", "content query --uri content://sms/inbox", "~java.lang.SecurityException: Permission Denial"},
		{"unknown provider", "content query --uri content://com.nope/x", "~Could not find provider: com.nope"},
		{"unknown path", "content query --uri content://com.android.contacts/nope", "~Unknown URL content://com.android.contacts/nope"},
		{"no uri", "content query", "~Content provider URI not specified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDevice("s", "device", 1, nil)
			out, _ := sh(d, tt.line)
			if sub, ok := strings.CutPrefix(tt.want, "~"); ok && !strings.Contains(out, sub) || !ok && out != tt.want {
				t.Errorf("output %q, want %q", out, tt.want)
			}
		})
	}
}

// A contact added through the app's screens is in the next query, and
// an INSERT intent's form adds one only when saved.
func TestProviderFollowsApp(t *testing.T) {
	d := newDevice("s", "device", 1, nil)
	query := `content query --uri content://contacts/phones --projection name:number --where "name LIKE 'dee%'"`
	if out, _ := sh(d, query); out != "No result found.\n" {
		t.Fatalf("before: %q", out)
	}
	sh(d, `am start -a android.intent.action.INSERT -d content://com.android.contacts/contacts --es name 'Dee Dee' --es phone '555 0199'`)
	if out, _ := sh(d, query); out != "No result found.\n" {
		t.Fatalf("before saving: %q", out)
	}
	d.app.Tap(540, 861) // Save
	if out, _ := sh(d, query); out != "Row: 0 name=Dee Dee, number=555 0199\n" {
		t.Errorf("after saving: %q (screen %s)", out, d.app.Screen())
	}
}
