package adb

import (
	"strings"
	"testing"
)

// FuzzParseDevices checks that no device list, however garbled, panics the
// parser, and that every entry has a serial and a state.
func FuzzParseDevices(f *testing.F) {
	f.Add("emulator-5554          device product:p model:m device:d transport_id:1\n")
	f.Add("x no permissions (user); see [http://a:b] usb:1\n")
	f.Add("\t\n:\n a:b c:d\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, d := range parseDevices(text) {
			if d.Serial == "" || strings.ContainsAny(d.Serial, " \t\n") {
				t.Errorf("bad serial %q in %q", d.Serial, text)
			}
		}
	})
}

// FuzzReadStatus checks that no answer panics the framing code.
func FuzzReadStatus(f *testing.F) {
	f.Add("OKAY")
	f.Add("FAIL0004abcd")
	f.Add("FAILffff")
	f.Fuzz(func(t *testing.T, in string) {
		readStatus(strings.NewReader(in), "s")
		readHexString(strings.NewReader(in))
	})
}
