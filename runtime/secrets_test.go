package runtime_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
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
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "sign_in", Inputs: map[string]string{"pin": pin}, Secrets: redact.New(pin), Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	in := runtime.New(file, task, info, f, runtime.Options{
		Inputs: map[string]string{"pin": pin}, Screenshots: true,
		Observer: &runtime.JournalObserver{W: w, Task: "sign_in"},
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

// TestSecretTaint: every value derived from a secret stays secret: items of
// a list<secret>, loop variables over them, slices, library functions,
// concatenations and a value copied back from the page. Each case runs
// against the fake driver with a journal (and fails on a last step, so the
// error paths write too), checks that the derived text really reached the
// page, and searches every file of the run for it.
func TestSecretTaint(t *testing.T) {
	long := strings.Repeat("token-", 20) + "end" // longer than a loop key
	const head = `task t "t" {
  driver browser
  input pin: secret
  input pins: list<secret>
`
	tests := []struct {
		name  string
		body  string
		typed string   // what the Note field holds at the end
		leaks []string // texts that must appear in no file
		pins  string   // the list<secret> input, when not the usual one
	}{
		{"list item", `op1 = type(textbox(name: "Note"), pins[1])`, "beta-22", []string{"alpha-1", "beta-22"}, ""},
		{"loop variable", "for p in pins {\n op1 = type(textbox(name: \"Note\"), p)\n}", "beta-22", []string{"alpha-1", "beta-22"}, ""},
		{"slice and function", "for q in pins[1:] {\n op1 = type(textbox(name: \"Note\"), upper(q))\n}", "BETA-22", []string{"BETA-22"}, ""},
		{"lower", `op1 = type(textbox(name: "Note"), lower(pin))`, "hunter-two", []string{"hunter-two", "Hunter-Two"}, ""},
		{"concatenation", `op1 = type(textbox(name: "Note"), "ID:" + lower(pin))`, "ID:hunter-two", []string{"hunter-two"}, ""},
		{"substring", `op1 = type(textbox(name: "Note"), substr(pin, 0, 6))`, "Hunter", []string{"Hunter"}, ""},
		{"copied back and changed", "op1 = type(textbox(name: \"PIN\"), lower(pin))\n op2 = copy(textbox(name: \"PIN\"))\n op3 = type(textbox(name: \"Note\"), replace(op2, \"-\", \"+\"))",
			"hunter+two", []string{"hunter-two", "hunter+two"}, ""},
		{"long item, its loop key cut short", "for p in pins {\n op1 = type(textbox(name: \"Note\"), p)\n}", long, []string{long[:60]},
			`["` + long + `"]`},
		{"join of items", `op1 = type(textbox(name: "Note"), join("/", pins))`, "alpha-1/beta-22", []string{"alpha-1/beta-22", "alpha-1", "beta-22"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inputs := map[string]string{"pin": "Hunter-Two", "pins": `["alpha-1","beta-22"]`}
			if tc.pins != "" {
				inputs["pins"] = tc.pins
			}
			file, task, info := load(t, head+"  "+tc.body+"\n  op9 = click(button(name: \"Missing\"))\n}")
			pinBox, note := field("p", "PIN", ""), field("n", "Note", "")
			f := drivertest.New(&driver.Tree{Elements: []*driver.Element{pinBox, note}})
			root := t.TempDir()
			secrets := redact.New(runtime.SecretInputs(task, inputs)...)
			w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Inputs: inputs, Secrets: secrets, Row: -1})
			if err != nil {
				t.Fatal(err)
			}
			in := runtime.New(file, task, info, f, runtime.Options{Inputs: inputs, Screenshots: true, Secrets: secrets,
				Observer: &runtime.JournalObserver{W: w, Task: "t"}})
			_, runErr := in.Run(context.Background())
			if runErr == nil {
				t.Fatal("op9 should fail")
			}
			if err := w.Finish(journal.Failed, runErr); err != nil {
				t.Fatal(err)
			}
			if note.Value != tc.typed {
				t.Fatalf("the note field holds %q, want %q; the test would prove nothing", note.Value, tc.typed)
			}
			if !secrets.Holds(tc.typed) {
				t.Errorf("%q was not learned as a secret (set: %q)", tc.typed, in.Secrets())
			}
			grepRun(t, root, tc.leaks)
		})
	}
}

// grepRun fails for every file under root whose name or bytes hold one
// of leaks.
func grepRun(t *testing.T, root string, leaks []string) {
	t.Helper()
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		data := []byte(path)
		if !info.IsDir() {
			if data, err = os.ReadFile(path); err != nil {
				return err
			}
			data = append(data, path...)
		}
		for _, leak := range leaks {
			if bytes.Contains(data, []byte(leak)) {
				t.Errorf("%s holds %q", path, leak)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// noShots is a driver whose screenshots are refused, as the browser
// refuses one that would show a secret it cannot cover.
type noShots struct{ *drivertest.Fake }

func (noShots) Screenshot(context.Context) ([]byte, error) {
	return nil, errors.New("a secret was typed and its place on the page could not be measured, so no screenshot is taken")
}

// TestRefusedScreenshotJournaled: a screenshot the driver refuses is left
// out, and the journal says why.
func TestRefusedScreenshotJournaled(t *testing.T) {
	file, task, info := load(t, `task t "t" {
  driver browser
  input pin: secret
  op1 = type(textbox(name: "PIN"), pin)
}`)
	f := noShots{drivertest.New(&driver.Tree{Elements: []*driver.Element{field("p", "PIN", "")}})}
	root := t.TempDir()
	inputs := map[string]string{"pin": "7391-xq"}
	secrets := redact.New("7391-xq")
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Inputs: inputs, Secrets: secrets, Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	in := runtime.New(file, task, info, f, runtime.Options{Inputs: inputs, Screenshots: true, Secrets: secrets,
		Observer: &runtime.JournalObserver{W: w, Task: "t"}})
	if _, err := in.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(journal.OK, nil); err != nil {
		t.Fatal(err)
	}
	run, err := journal.Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Steps) != 1 || run.Steps[0].Screenshot != "" || !strings.Contains(run.Steps[0].NoScreenshot, "no screenshot is taken") {
		t.Errorf("journal steps: %+v", run.Steps)
	}
}

// secretCopies is a driver that reports every copy as coming out of a
// field a secret was typed into, and changes its text as a page may.
type secretCopies struct{ *drivertest.Fake }

func (s secretCopies) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	res, err := s.Fake.Do(ctx, a)
	if a.Op == "copy" {
		res.Text, res.Secret = strings.ReplaceAll(res.Text, "-", " "), true
	}
	return res, err
}

// TestCopyOfSecretFieldIsSecret: a text the driver says came out of a
// secret's field is a secret of the run, redacted from the journal.
func TestCopyOfSecretFieldIsSecret(t *testing.T) {
	file, task, info := load(t, `task t "t" {
  driver browser
  input pin: secret
  op1 = type(textbox(name: "PIN"), pin)
  op2 = copy(textbox(name: "PIN"))
  op3 = type(textbox(name: "Note"), op2)
}`)
	note := field("n", "Note", "")
	f := secretCopies{drivertest.New(&driver.Tree{Elements: []*driver.Element{field("p", "PIN", ""), note}})}
	root := t.TempDir()
	inputs := map[string]string{"pin": "7391-xq-88"}
	secrets := redact.New("7391-xq-88")
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Inputs: inputs, Secrets: secrets, Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	in := runtime.New(file, task, info, f, runtime.Options{Inputs: inputs, Secrets: secrets,
		Observer: &runtime.JournalObserver{W: w, Task: "t"}})
	if _, err := in.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(journal.OK, nil); err != nil {
		t.Fatal(err)
	}
	if note.Value != "7391 xq 88" {
		t.Fatalf("the note holds %q; the test would prove nothing", note.Value)
	}
	grepRun(t, root, []string{"7391 xq 88"})
}
