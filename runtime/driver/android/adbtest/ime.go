package adbtest

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
)

// Input methods. `input text` types ASCII only, so drivers type other text
// through the ADBKeyBoard IME's broadcasts, which work only while it is the
// selected input method; otherwise the broadcast is silently lost, as on a
// real device.
const (
	GboardIME      = "com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME"
	ADBKeyboardIME = "com.android.adbkeyboard/.AdbIME"
)

// InstallADBKeyboard installs ADBKeyBoard on the primary device and selects
// it as the input method, as a person following its README does
// (`adb install`, `ime enable`, `ime set`).
func (s *Server) InstallADBKeyboard() {
	d := s.primary
	d.mu.Lock()
	defer d.mu.Unlock()
	if !slices.Contains(d.imes, ADBKeyboardIME) {
		d.imes = append(d.imes, ADBKeyboardIME)
	}
	d.ime = ADBKeyboardIME
}

func (d *device) currentIME() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ime
}

// cmdSettings supports `settings get secure default_input_method` and the
// matching put.
func cmdSettings(p *proc, args []string) int {
	if len(args) >= 4 && args[2] == "secure" && args[3] == "default_input_method" {
		switch {
		case args[1] == "get":
			fmt.Fprintln(p.stdout, p.dev.currentIME())
			return 0
		case args[1] == "put" && len(args) == 5:
			p.dev.mu.Lock()
			p.dev.ime = args[4]
			p.dev.mu.Unlock()
			return 0
		}
	}
	if len(args) >= 4 && args[1] == "get" {
		fmt.Fprintln(p.stdout, "null") // what settings prints for an unset key
		return 0
	}
	fmt.Fprintln(p.stderr, "usage: settings get|put secure default_input_method [VALUE]  (simulated)")
	return 1
}

// cmdIme supports `ime list -s`, `ime enable ID` and `ime set ID`.
func cmdIme(p *proc, args []string) int {
	d := p.dev
	d.mu.Lock()
	defer d.mu.Unlock()
	switch {
	case len(args) >= 2 && args[1] == "list":
		for _, id := range d.imes {
			fmt.Fprintln(p.stdout, id)
		}
		return 0
	case len(args) == 3 && (args[1] == "enable" || args[1] == "set"):
		if !slices.Contains(d.imes, args[2]) {
			fmt.Fprintf(p.stderr, "Unknown input method %s cannot be %s for user #0\n", args[2],
				map[string]string{"enable": "enabled", "set": "selected"}[args[1]])
			return 255
		}
		if args[1] == "set" {
			d.ime = args[2]
			fmt.Fprintf(p.stdout, "Input method %s selected for user #0\n", args[2])
		} else {
			fmt.Fprintf(p.stdout, "Input method %s: already enabled for user #0\n", args[2])
		}
		return 0
	}
	fmt.Fprintln(p.stderr, "usage: ime list -s | ime enable ID | ime set ID  (simulated)")
	return 1
}

// amBroadcast is `am broadcast -a ACTION [--es KEY VALUE]…`. ADBKeyBoard
// receives ADB_INPUT_TEXT (msg typed as is), ADB_INPUT_B64 (msg base64 of
// UTF-8) and ADB_CLEAR_TEXT when it is the selected input method.
func amBroadcast(p *proc, args []string) int {
	action, extras := "", map[string]string{}
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-a" && i+1 < len(args):
			action = args[i+1]
			i++
		case args[i] == "--es" && i+2 < len(args):
			extras[args[i+1]] = args[i+2]
			i += 2
		}
	}
	flags := ""
	if len(extras) > 0 {
		flags = " (has extras)"
	}
	fmt.Fprintf(p.stdout, "Broadcasting: Intent { act=%s flg=0x400000%s }\n", action, flags)
	if p.dev.currentIME() == ADBKeyboardIME {
		switch action {
		case "ADB_INPUT_TEXT":
			p.dev.app.TypeText(extras["msg"])
		case "ADB_INPUT_B64":
			if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(extras["msg"])); err == nil {
				p.dev.app.TypeText(string(b))
			}
		case "ADB_CLEAR_TEXT":
			p.dev.app.ClearText()
		}
	}
	fmt.Fprintln(p.stdout, "Broadcast completed: result=0")
	return 0
}
