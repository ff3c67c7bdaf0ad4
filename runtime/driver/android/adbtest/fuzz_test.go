package adbtest

import (
	"bytes"
	"testing"
)

// FuzzRunShell feeds arbitrary command lines to the simulated shell: it may
// print errors but must neither panic nor hang (hangup is closed, so
// getevent and sleep return at once).
func FuzzRunShell(f *testing.F) {
	for _, seed := range []string{
		"input text 'a b'", "uiautomator dump /dev/tty", "echo x | grep -v y && rm -f /a || cat <",
		"am start -n", "input swipe 1 2 3 4 5 6", "getevent -lt", "monkey -p", "input keyevent 99999999999",
		`echo "unterminated`, "dumpsys window | grep", "input tap 1e400 -1", "2>&1",
		"am start -W -a android.intent.action.SENDTO -d smsto:1 --es sms_body x", "am start -a android.settings.X -p",
		`content query --uri content://contacts/phones --where "name LIKE '%a_' OR number != 1 AND"`,
		"content query --uri content://com.android.contacts/data --projection data1:nope",
	} {
		f.Add(seed)
	}
	hangup := make(chan struct{})
	close(hangup)
	f.Fuzz(func(t *testing.T, line string) {
		d := newDevice("s", "device", 1, nil)
		var out bytes.Buffer
		runShell(d, line, &out, &out, hangup)
		runShell(d, line, &out, &out, hangup) // and again, on the changed state
	})
}
