package runtime_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
)

// TestSecretsNeverRecorded runs a task that types a secret, copies it back
// out of the field and fails on a later step, with screenshots on, and then
// searches every byte and every file name of the run's journal for it.
func TestSecretsNeverRecorded(t *testing.T) {
	const pin = "7391-xq"
	file, task, info := load(t, `task sign_in "Sign in" {
  driver browser
  input pin: secret
  op1 = type(textbox(name: "PIN"), pin)
  op2 = copy(textbox(name: "PIN"))
  op3 = paste(textbox(name: "Note"), op2)
  op4 = click(button(name: "Missing"))
}`)
	pinBox, note := field("p", "PIN", ""), field("n", "Note", "")
	f := drivertest.New(&driver.Tree{Elements: []*driver.Element{pinBox, note}})
	root := t.TempDir()
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "sign_in", Inputs: map[string]string{"pin": pin}, Secrets: []string{pin}, Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	in := runtime.New(file, task, info, f, runtime.Options{
		Inputs: map[string]string{"pin": pin}, Screenshots: true,
		Recorder: &runtime.JournalRecorder{W: w, Task: "sign_in"},
	})
	_, runErr := in.Run(context.Background())
	if runErr == nil {
		t.Fatal("op4 should fail")
	}
	if got := in.Secrets(); len(got) != 1 || got[0] != pin {
		t.Errorf("Secrets() = %q", got)
	}
	if err := w.Finish(journal.Failed, runErr); err != nil {
		t.Fatal(err)
	}
	// The secret really went through the run: typed and pasted.
	if note.Value != pin {
		t.Fatalf("the note field holds %q; the test would prove nothing", note.Value)
	}
	files := 0
	err = filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(path, pin) {
			t.Errorf("a file name holds the secret: %s", path)
		}
		if info.IsDir() {
			return nil
		}
		files++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(data, []byte(pin)) {
			t.Errorf("%s holds the secret", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 { // journal, summary, screenshots
		t.Errorf("only %d files written", files)
	}
	run, err := journal.Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Steps) != 4 || run.Steps[0].Args[1].Value != journal.Redacted {
		t.Errorf("journal steps: %+v", run.Steps)
	}
}
