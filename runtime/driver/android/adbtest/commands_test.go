package adbtest

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// sh runs line on d as shell: would and returns output and exit status.
func sh(d *device, line string) (string, int) {
	var out bytes.Buffer
	st := runShell(d, line, &out, &out, make(chan struct{}))
	return out.String(), st
}

func TestShellCommands(t *testing.T) {
	tests := []struct {
		name   string
		lines  []string // run in order; the last one's output is checked
		want   string   // exact output, or with prefix "~" a substring
		status int
		screen string // "" = do not check
	}{
		{"echo", []string{"echo -n a 'b  c'"}, "a b  c", 0, ""},
		{"unknown", []string{"su -c id"}, "/system/bin/sh: su: inaccessible or not found\n", 127, ""},
		{"syntax", []string{"echo 'x"}, "~syntax error", 2, ""},
		{"wm size", []string{"wm size"}, "Physical size: 1080x2400\n", 0, ""},
		{"sdk", []string{"getprop ro.build.version.sdk"}, "33\n", 0, ""},
		{"dump to file", []string{"uiautomator dump"}, "UI hierchary dumped to: /sdcard/window_dump.xml\n", 0, ScreenLauncher},
		{"dump and cat", []string{"uiautomator dump /sdcard/d.xml && cat /sdcard/d.xml && rm /sdcard/d.xml && cat /sdcard/d.xml"},
			"~text=\"Contacts\"", 1, ""},
		{"dump to tty", []string{"uiautomator dump /dev/tty"}, "~</hierarchy>UI hierchary dumped to: /dev/tty\n", 0, ""},
		{"rm missing", []string{"rm /sdcard/nope"}, "rm: /sdcard/nope: No such file or directory\n", 1, ""},
		{"rm -f missing", []string{"rm -f /sdcard/nope"}, "", 0, ""},
		{"redirect", []string{"echo saved > /sdcard/x; echo more >> /sdcard/x; cat < /sdcard/x"}, "saved\nmore\n", 0, ""},
		{"am start", []string{"am start -W -n com.example.contacts/.MainActivity"},
			"Starting: Intent { cmp=com.example.contacts/.MainActivity }\nStatus: ok\nLaunchState: COLD\n" +
				"Activity: com.example.contacts/.MainActivity\nTotalTime: 212\nWaitTime: 215\nComplete\n", 0, ScreenList},
		{"am start unknown", []string{"am start -n com.foo/.Bar"}, "~Error: Activity class {com.foo/com.foo.Bar} does not exist.", 1, ScreenLauncher},
		{"monkey", []string{"monkey -p com.example.contacts -c android.intent.category.LAUNCHER 1"}, "~Events injected: 1", 0, ScreenList},
		{"monkey unknown", []string{"monkey -p com.nope -c android.intent.category.LAUNCHER 1"}, "** No activities found to run, monkey aborted.\n", 252, ScreenLauncher},
		{"focus", []string{"monkey -p com.example.contacts 1", "dumpsys window | grep mCurrentFocus"},
			"  mCurrentFocus=Window{5e2a1c9 u0 com.example.contacts/com.example.contacts.MainActivity}\n", 0, ""},
		{"resumed", []string{"dumpsys activity activities | grep -E 'mResumedActivity|topResumed'"},
			"    mResumedActivity: ActivityRecord{c1d5e8a u0 com.android.launcher3/.Launcher t42}\n  topResumedActivity=ActivityRecord{c1d5e8a u0 com.android.launcher3/.Launcher t42}\n", 0, ""},
		{"tap icon", []string{"input tap 675 2025"}, "", 0, ScreenList},
		{"tap with source and decimals", []string{"input touchscreen tap 675.5 2025.9"}, "", 0, ScreenList},
		{"tap row, back", []string{"am start -n com.example.contacts/.MainActivity", "input tap 540 1060", "input keyevent KEYCODE_BACK"}, "", 0, ScreenList},
		{"tap row", []string{"am start -n com.example.contacts/.MainActivity", "input tap 540 1060"}, "", 0, ScreenDetail},
		{"home by number", []string{"am start -n com.example.contacts/.MainActivity", "input keyevent 3"}, "", 0, ScreenLauncher},
		{"home intent", []string{"monkey -p com.example.contacts 1", "am start -a android.intent.action.MAIN -c android.intent.category.HOME"}, "~Starting", 0, ScreenLauncher},
		{"bad tap", []string{"input tap 10"}, "~Error: Invalid arguments for command: tap", 1, ""},
		{"swipe", []string{"input swipe 540 2000 540 400 300"}, "", 0, ScreenLauncher},
		{"text non-ASCII", []string{"input text 'Zoë'"}, "~java.lang.NullPointerException", 255, ""},
		{"sleep 0", []string{"sleep 0 && echo woke"}, "woke\n", 0, ""},
		{"pm", []string{"pm list packages contacts"}, "package:com.example.contacts\n", 0, ""},
		{"getevent -lp", []string{"getevent -lp | grep ABS_MT_POSITION_X"},
			"                ABS_MT_POSITION_X     : value 0, min 0, max 4095, fuzz 0, flat 0, resolution 0\n", 0, ""},
		{"dumpsys unknown", []string{"dumpsys nosuch"}, "Can't find service: nosuch\n", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDevice("emulator-5554", "device", 1, nil)
			var out string
			var st int
			for _, l := range tt.lines {
				out, st = sh(d, l)
			}
			if sub, ok := strings.CutPrefix(tt.want, "~"); ok && !strings.Contains(out, sub) || !ok && out != tt.want {
				t.Errorf("output %q, want %q", out, tt.want)
			}
			if st != tt.status {
				t.Errorf("status %d, want %d", st, tt.status)
			}
			if tt.screen != "" && d.app.Screen() != tt.screen {
				t.Errorf("screen %q, want %q", d.app.Screen(), tt.screen)
			}
		})
	}
}

// TestInputText follows `input text` as a device does: the shell splits
// words first, only the first word after "text" is typed, %s is a space.
func TestInputText(t *testing.T) {
	tests := []struct{ line, want string }{
		{"input text hello", "hello"},
		{"input text hello world", "hello"},
		{"input text 'hello world'", "hello world"},
		{"input text hello%sworld", "hello world"},
		{`input text "it's"`, "it's"},
		{"input text " + `'a'\''b'`, "a'b"},
		{"input text 100%", "100%"},
		{"input keyevent KEYCODE_A KEYCODE_B 67 KEYCODE_C", "ac"},
	}
	for _, tt := range tests {
		d := newDevice("s", "device", 1, nil)
		d.app.Start()
		d.app.Tap(540, 315) // the search field
		if out, st := sh(d, tt.line); st != 0 {
			t.Errorf("%s: status %d, %q", tt.line, st, out)
		}
		d.app.mu.Lock()
		got := d.app.top().search
		d.app.mu.Unlock()
		if got != tt.want {
			t.Errorf("%s typed %q, want %q", tt.line, got, tt.want)
		}
	}
}

func TestScreencapRaw(t *testing.T) {
	d := newDevice("s", "device", 1, nil)
	out, st := sh(d, "screencap")
	if st != 0 || len(out) != 16+4*ScreenWidth*ScreenHeight {
		t.Fatalf("raw screencap: status %d, %d bytes", st, len(out))
	}
	b := []byte(out)
	if w, h, f := binary.LittleEndian.Uint32(b), binary.LittleEndian.Uint32(b[4:]), binary.LittleEndian.Uint32(b[8:]); w != ScreenWidth || h != ScreenHeight || f != 1 {
		t.Errorf("header %d×%d format %d", w, h, f)
	}
	if _, st := sh(d, "screencap -p /sdcard/s.png"); st != 0 {
		t.Fatal("screencap to file failed")
	}
	if png, ok := d.readFile("/sdcard/s.png"); !ok || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Error("screencap -p FILE wrote no PNG")
	}
}
