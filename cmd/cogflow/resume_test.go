package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

const resumeSrc = `task r "Resume me" {
  driver browser
  input names: text
  input pin: secret
  for person in split(",", names) {
    op1 = open("http://127.0.0.1:1/form")
    op2 = click(button(name: "Submit"))
  }
}
`

// killedRunOf journals a run of file killed while op2 of item 1 acted.
func killedRunOf(t *testing.T, root, file string, inputs map[string]string) *journal.Writer {
	t.Helper()
	w, err := journal.Open(root, journal.RunMeta{Workflow: file, Task: "r", Driver: "browser", Row: -1,
		Inputs: inputs, Secrets: redact.New(inputs["pin"]), WorkflowSHA256: fileSHA256(file)})
	if err != nil {
		t.Fatal(err)
	}
	item := func(i int) []journal.LoopPos { return []journal.LoopPos{{Var: "person", Index: i, Key: "x"}} }
	for _, ev := range []journal.Intent{{Step: "op1", Line: 6, Op: "open", Loop: item(0)}, {Step: "op2", Line: 7, Op: "click", Loop: item(0)}} {
		if err := w.Intent(ev); err != nil {
			t.Fatal(err)
		}
		if err := w.Step(journal.StepEvent{Step: ev.Step, Line: ev.Line, Op: ev.Op, Loop: ev.Loop}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.IterationDone("r", item(0)); err != nil {
		t.Fatal(err)
	}
	if err := w.Intent(journal.Intent{Step: "op2", Line: 7, Op: "click", Loop: item(1), Args: []journal.Arg{{Name: "target", Value: `button "Submit"`}}}); err != nil {
		t.Fatal(err)
	}
	return w // not finished: killed; its lock is still held until Finish
}

func TestResumeRefusals(t *testing.T) {
	tests := []struct {
		name    string
		given   map[string]string
		inDoubt string
		edit    bool   // change the workflow file after the run
		release bool   // the killed run's process is gone (its lock with it)
		byID    bool   // --resume-from the run's id
		policy  string // op2's in_doubt: in the workflow, if any
		want    string
		settled string // the policy the resume settled on, if it did
		from    string // and what chose it (journal.Settlement.From)
	}{
		{name: "run still in use", given: map[string]string{"pin": "1234"}, inDoubt: "skip", want: "is in use"},
		{name: "workflow changed", given: map[string]string{"pin": "1234"}, inDoubt: "skip", edit: true, release: true, want: "changed since run"},
		{name: "different inputs", given: map[string]string{"names": "x,y", "pin": "1234"}, inDoubt: "skip", release: true, want: "no interrupted run"},
		{name: "different inputs, run named", given: map[string]string{"names": "x,y", "pin": "1234"}, inDoubt: "skip", release: true, byID: true, want: `names was "a,b,c" then, "x,y" now`},
		{name: "secret not given again", inDoubt: "skip", release: true, want: "secret input(s) pin"},
		{name: "in doubt, nobody at the terminal", given: map[string]string{"pin": "1234"}, release: true, want: "--in-doubt=skip"},
		{name: "skip", given: map[string]string{"pin": "1234"}, inDoubt: "skip", release: true, want: "settled by --in-doubt=skip: it is not done again", settled: "skip", from: "flag"},
		{name: "the step's in_doubt skip, no flag, no terminal", given: map[string]string{"pin": "1234"}, policy: "skip", release: true,
			want: `settled by the step's in_doubt: "skip" (line 7): it is not done again`, settled: "skip", from: "step"},
		{name: "--in-doubt=redo overrides the step's skip", given: map[string]string{"pin": "1234"}, inDoubt: "redo", policy: "skip", release: true,
			want: "settled by --in-doubt=redo: its loop item is done again", settled: "redo", from: "flag"},
		{name: "the step's in_doubt redo", given: map[string]string{"pin": "1234"}, policy: "redo", release: true,
			want: `settled by the step's in_doubt: "redo" (line 7)`, settled: "redo", from: "step"},
		{name: "the step's in_doubt ask, no terminal", given: map[string]string{"pin": "1234"}, policy: "ask", release: true,
			want: `its in_doubt: "ask" (line 7) wants a person at the terminal`},
		{name: "--in-doubt=ask overrides the step's skip, no terminal", given: map[string]string{"pin": "1234"}, inDoubt: "ask", policy: "skip", release: true,
			want: "or --in-doubt=ask at a terminal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "r.cog")
			src := resumeSrc
			if tc.policy != "" {
				src = strings.Replace(src, `click(button(name: "Submit"))`, `click(button(name: "Submit"), in_doubt: "`+tc.policy+`")`, 1)
			}
			writeFile(t, dir, "r.cog", src)
			root := filepath.Join(dir, ".cogflow")
			w := killedRunOf(t, root, file, map[string]string{"names": "a,b,c", "pin": "1234"})
			if tc.release {
				_ = w.Finish(journal.Failed, nil) // drops the lock; a failed run resumes the same way
			}
			if tc.edit {
				writeFile(t, dir, "r.cog", src+"\n# edited\n")
			}
			l, err := load(file)
			if err != nil || l.diags.HasErrors() {
				t.Fatal(err, l.diags)
			}
			task, _ := runtime.TaskNamed(l.file, "")
			var errb bytes.Buffer
			c := &cli{stdout: &bytes.Buffer{}, stderr: &errb, stdin: strings.NewReader("")}
			cfg := runConfig{file: file, root: root, resume: true, inDoubt: tc.inDoubt}
			if tc.byID {
				cfg.resumeFrom = w.ID()
			}
			res, err := c.resume(cfg, l.file, task, tc.given, fileSHA256(file))
			got := errb.String()
			if err != nil {
				got += err.Error()
			}
			if !strings.Contains(got, tc.want) {
				// The runs the lookup saw, to tell a flake from a bug (it
				// failed once in CI saying "no interrupted run").
				runs, lerr := journal.List(root)
				t.Errorf("got %q, want it to say %q; runs listed: %+v (%v)", got, tc.want, runs, lerr)
			}
			if tc.settled != "" {
				if err != nil {
					t.Fatalf("resume refused: %v", err)
				}
				if res.Settled == nil || res.Settled.Policy != tc.settled || res.Settled.From != tc.from || res.Settle.Policy != tc.settled {
					t.Errorf("settled %+v, want policy %s from %s", res.Settled, tc.settled, tc.from)
				}
				if res.inputs["names"] != "a,b,c" || res.inputs["pin"] != "1234" {
					t.Errorf("inputs %v", res.inputs)
				}
				// Only a skip carries the item over as done.
				if skipped := len(res.Skip) == 1 && res.Skip[0].Index == 1; skipped != (tc.settled == "skip") {
					t.Errorf("skip = %+v with policy %s", res.Skip, tc.settled)
				}
				if strings.Contains(errb.String(), "1234") {
					t.Error("the secret was printed")
				}
				res.lock.Release()
			} else if err == nil {
				t.Errorf("resume = %+v, want it refused", res)
				res.lock.Release()
			}
			if !tc.release {
				_ = w.Finish(journal.Failed, nil)
			}
		})
	}
}

// fileSHA256 is, as a run journals it, the hex SHA-256 of a file's bytes, "" if it cannot be read.
func fileSHA256(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
