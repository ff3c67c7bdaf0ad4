package adbtest

import (
	"encoding/base64"
	"strings"
	"testing"
)

// searchText returns what the list screen's search field holds.
func searchText(d *device) string {
	d.app.mu.Lock()
	defer d.app.mu.Unlock()
	return d.app.top().search
}

func TestADBKeyboard(t *testing.T) {
	d := newDevice("s", "device", 1, nil)
	d.app.Start()
	d.app.Tap(540, 315) // focus the search field
	b64 := "am broadcast -a ADB_INPUT_B64 --es msg " + base64.StdEncoding.EncodeToString([]byte("Zoë"))
	steps := []struct {
		line   string
		out    string // substring of the output
		status int
		search string // the field afterwards
	}{
		{"settings get secure default_input_method", GboardIME + "\n", 0, ""},
		{b64, "Broadcast completed: result=0", 0, ""}, // lost: Gboard is selected
		{"ime set " + ADBKeyboardIME, "Unknown input method", 255, ""},
		{"INSTALL", "", 0, ""},
		{"ime set " + ADBKeyboardIME, "Input method com.android.adbkeyboard/.AdbIME selected for user #0", 0, ""},
		{"settings get secure default_input_method", ADBKeyboardIME, 0, ""},
		{b64, "Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }", 0, "Zoë"},
		{"am broadcast -a ADB_INPUT_TEXT --es msg ' Å'", "", 0, "Zoë Å"},
		{"am broadcast -a ADB_CLEAR_TEXT", "", 0, ""},
		{"settings put secure default_input_method " + GboardIME + "; settings get secure foo", "null\n", 0, ""},
		{"am broadcast -a ADB_INPUT_TEXT --es msg lost", "", 0, ""},
	}
	for _, st := range steps {
		if st.line == "INSTALL" {
			d.imes = append(d.imes, ADBKeyboardIME)
			continue
		}
		out, status := sh(d, st.line)
		if !strings.Contains(out, st.out) || status != st.status {
			t.Errorf("%s: %q status %d, want %q status %d", st.line, out, status, st.out, st.status)
		}
		if got := searchText(d); got != st.search {
			t.Errorf("after %s: field %q, want %q", st.line, got, st.search)
		}
	}
}

func TestInstallADBKeyboard(t *testing.T) {
	s := start(t)
	s.InstallADBKeyboard()
	s.InstallADBKeyboard() // twice is harmless
	if out, _ := sh(s.primary, "ime list -s"); out != GboardIME+"\n"+ADBKeyboardIME+"\n" {
		t.Errorf("ime list -s = %q", out)
	}
	if ime := s.primary.currentIME(); ime != ADBKeyboardIME {
		t.Errorf("selected IME %q", ime)
	}
}

func TestKeyEditing(t *testing.T) {
	tests := []struct {
		lines []string
		want  string
	}{
		{[]string{"input text abc", "input keyevent KEYCODE_MOVE_END KEYCODE_DEL"}, "ab"},
		{[]string{"input text abc", "input keycombination KEYCODE_CTRL_LEFT KEYCODE_A", "input keyevent KEYCODE_DEL"}, ""},
		{[]string{"input text abc", "input keycombination KEYCODE_CTRL_LEFT KEYCODE_A", "input text x"}, "x"},
		{[]string{"input keycombination KEYCODE_SHIFT_LEFT KEYCODE_B", "input keyevent KEYCODE_O 30"}, "Bob"},
		{[]string{"input text ab", "input keyevent KEYCODE_NOPE KEYCODE_DEL"}, "ab"},
	}
	for _, tt := range tests {
		d := newDevice("s", "device", 1, nil)
		d.app.Start()
		d.app.Tap(540, 315)
		for _, l := range tt.lines {
			sh(d, l)
		}
		if got := searchText(d); got != tt.want {
			t.Errorf("%q: field %q, want %q", tt.lines, got, tt.want)
		}
	}
	d := newDevice("s", "device", 1, nil)
	if out, st := sh(d, "input keyevent KEYCODE_NOPE"); st != 1 || !strings.Contains(out, "Error: Unknown keycode: KEYCODE_NOPE") {
		t.Errorf("unknown key: %q, %d", out, st)
	}
}
