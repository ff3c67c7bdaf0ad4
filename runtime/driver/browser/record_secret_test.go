package browser

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/input"

	"github.com/cogflow/cogflow/runtime/trace"
)

const secretPage = `<!doctype html><title>Sign in</title>
<label for=user>User</label><input id=user>
<label for=pw>Password</label><input id=pw type=password>
<label for=np>New password</label><input id=np autocomplete=new-password>
<label for=shown>PIN</label><input id=shown type=password><button id=eye onclick="document.getElementById('shown').type = 'text'">Show</button>
<label for=user_pwd>Code</label><input id=user_pwd>
<button id=go>Sign in</button>`

// TestRecordMasksPasswords: what is typed into a password field appears
// nowhere in the trace (events, keys, snapshots); its events are marked
// secret and carry one • per character.
func TestRecordMasksPasswords(t *testing.T) {
	needChromium(t)
	for _, tc := range []struct {
		name, field, secret string
		file                string // a testdata trace to keep, "" for none
		show                string // a button that shows the password in clear, pressed after a first character
	}{
		{name: "password field", field: "#pw", secret: "qZx7#Wm9vK", file: "password.trace.json"},
		{name: "new-password autocomplete", field: "#np", secret: "Tr0ub4dor&3"},
		{name: "shown by a show-password button", field: "#shown", secret: "8T4x!k2Q", show: "#eye"},
		{name: "named as a password", field: "#user_pwd", secret: "zY9@pLm2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			s := newSite(t)
			_, h, wait := startRecording(t, ctx, s.page("/signin", secretPage))
			h.click("#user")
			h.typeText("ann")
			h.click(tc.field)
			if tc.show != "" {
				h.typeText(tc.secret[:1])
				h.click(tc.show)
				h.click(tc.field)
				h.press(input.End)
				h.typeText(tc.secret[1:])
			} else {
				h.typeText(tc.secret)
			}
			h.press(input.Tab) // leaves the field: its change event
			h.stopChord()
			tr := wait()
			if tc.file != "" {
				saveTrace(t, tr, s.URL, tc.file)
			}
			data, err := trace.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			// No piece of the secret longer than three characters.
			for i := 0; i+4 <= len(tc.secret); i++ {
				if strings.Contains(string(data), tc.secret[i:i+4]) {
					t.Fatalf("the trace holds %q of the secret", tc.secret[i:i+4])
				}
			}
			var inputs, changes int
			lastChange := ""
			mask := strings.Repeat("•", len(tc.secret))
			for _, e := range tr.Events {
				if e.Target == nil || e.Target.ID != strings.TrimPrefix(tc.field, "#") {
					continue
				}
				if !e.Target.Secret {
					t.Errorf("%s %s: the target is not marked secret", e.ID, e.Kind)
				}
				switch e.Kind {
				case trace.KindInput:
					inputs++
				case trace.KindChange:
					changes++
					lastChange = e.Value
				}
			}
			if inputs != len(tc.secret) || changes == 0 || lastChange != mask {
				t.Errorf("%d input and %d change events on the field (the last %q), want %d and a last change %q", inputs, changes, lastChange, len(tc.secret), mask)
			}
			if !strings.Contains(string(data), `"ann"`) {
				t.Errorf("the user name, no secret, was masked too")
			}
			if tc.file != "" {
				kept, err := os.ReadFile("testdata/" + tc.file)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(kept), tc.secret[:4]) {
					t.Errorf("testdata/%s holds the secret", tc.file)
				}
			}
		})
	}
}
