package cogflow_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/runtime/journal"
)

// TestResumeInputsRedactedPlainInput: a plain text input the run typed
// into a password field is journaled as [secret] (Writer.Rescrub); a resume
// asks for it again like a secret input, and takes it when given, never
// the placeholder.
func TestResumeInputsRedactedPlainInput(t *testing.T) {
	w, diags := cogflow.LoadSource("pin.cog", []byte("task p \"PIN\" {\n  driver browser\n  input pin: text\n  input who: text\n  op1 = open(\"http://127.0.0.1:1/\")\n}\n"), cogflow.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	task, err := w.Task("p")
	if err != nil {
		t.Fatal(err)
	}
	prev := &journal.Run{ID: "r1", Start: journal.RunStarted{Inputs: map[string]string{"pin": journal.Redacted, "who": "ada"}}}
	tests := []struct {
		given   map[string]string
		want    map[string]string
		wantErr string
	}{
		{given: map[string]string{}, wantErr: "give them again (--input pin=…)"},
		{given: map[string]string{"pin": "Lx4-Fern-2231"}, want: map[string]string{"pin": "Lx4-Fern-2231", "who": "ada"}},
		{given: map[string]string{"pin": "Lx4-Fern-2231", "who": "bob"}, wantErr: "who was"},
	}
	for _, tc := range tests {
		got, err := cogflow.ResumeInputs(prev, task, tc.given)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%v: %v, %v; want an error with %q", tc.given, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || len(got) != len(tc.want) || got["pin"] != tc.want["pin"] || got["who"] != tc.want["who"] {
			t.Errorf("%v: %v, %v; want %v", tc.given, got, err, tc.want)
		}
	}
}
