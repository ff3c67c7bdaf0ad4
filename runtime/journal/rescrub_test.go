package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/redact"
)

// TestRescrub journals a plain input and a step that used it, learns that
// the input is a secret, rescrubs, and checks that the journal holds it
// nowhere, still loads with every event (the vocabulary readable), and
// that events written after the rescrub are appended to the new file.
func TestRescrub(t *testing.T) {
	const pin = "Lx4-Fern-2231"
	root := t.TempDir()
	set := redact.New()
	w := mustOpen(t, root, RunMeta{Workflow: "w.cog", Task: "t", Driver: "browser", Inputs: map[string]string{"pin": pin, "who": "ada"}, Secrets: set})
	must(t, w.Intent(Intent{Task: "t", Step: "op1", Op: "type", Args: []Arg{{Name: "text", Value: pin, Source: SourceInput}}}))
	must(t, w.Rescrub()) // nothing is secret yet: nothing changes
	path := filepath.Join(w.dir, JournalFile)
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), pin) {
		t.Fatalf("the journal lost the value before it was a secret:\n%s", b)
	}
	set.Add(pin)
	must(t, w.Rescrub())
	must(t, w.Step(StepEvent{Task: "t", Step: "op1", Op: "type", Value: pin, Outcome: OK, Args: []Arg{{Name: "text", Value: pin, Source: SourceInput}}}))
	must(t, w.Finish(OK, nil))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), pin) {
		t.Errorf("the journal holds the secret:\n%s", b)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if !strings.HasPrefix(line, `{"type":"`) {
			t.Errorf("line does not start with its type: %s", line)
		}
	}
	run, err := Load(root, w.id)
	if err != nil {
		t.Fatal(err)
	}
	if got := run.Start.Inputs; got["pin"] != Redacted || got["who"] != "ada" {
		t.Errorf("inputs %v", got)
	}
	if len(run.Intents) != 1 || run.Intents[0].Args[0].Value != Redacted || run.Intents[0].Args[0].Source != SourceInput {
		t.Errorf("intents %+v", run.Intents)
	}
	if len(run.Steps) != 1 || run.Steps[0].Outcome != OK || run.Finish == nil {
		t.Errorf("steps %+v, finish %+v", run.Steps, run.Finish)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("the temporary file is left: %v", err)
	}
}
