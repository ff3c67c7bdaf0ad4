package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

// TestGraphHTMLRunFacts: what the page says a step did is what the
// journal says of that step: a step killed while it acted is in doubt, not
// "not run", and a skill's step of the same name as a task's step is not
// taken for it.
func TestGraphHTMLRunFacts(t *testing.T) {
	const src = `skill greet(who: text) {
  op1 = type(textbox(name: "Name"), who)
}

task hello "Say hello" {
  driver browser
  op1 = click(button(name: "Start"))
  op2 = greet("ann")
  op3 = click(button(name: "Send"))
}
`
	tests := []struct {
		name            string
		write           func(w *journal.Writer)
		present, absent []string
	}{
		{name: "a skill's step of the same name", write: func(w *journal.Writer) {
			must(t, w.Step(journal.StepEvent{Task: "hello", Step: "op1", Line: 7, Op: "click", Value: "clicked Start"}))
			must(t, w.Step(journal.StepEvent{Task: "hello", Step: "op1", Line: 2, Op: "type", Outcome: journal.Failed, Error: "no textbox Name"}))
			must(t, w.Step(journal.StepEvent{Task: "hello", Step: "op2", Line: 8, Op: "greet", Outcome: journal.Failed, Error: "skill greet: no textbox Name"}))
			must(t, w.Finish(journal.Failed, errors.New("step op2 failed")))
		},
			present: []string{`class="node n-step st-ok" data-node="op1"`, `"value":"clicked Start"`, `class="node n-step st-failed" data-node="op2"`},
			absent:  []string{`"error":"no textbox Name"`}},
		{name: "killed while a step acted", write: func(w *journal.Writer) {
			must(t, w.Step(journal.StepEvent{Task: "hello", Step: "op1", Line: 7, Op: "click"}))
			must(t, w.Intent(journal.Intent{Seq: 2, Task: "hello", Step: "op3", Line: 9, Op: "click",
				Args: []journal.Arg{{Name: "target", Value: `button "Send"`, Source: journal.SourceStructural}}}))
		},
			present: []string{`class="node n-step st-in_doubt" data-node="op3"`, `"outcome":"in_doubt"`, `"value":"button \"Send\""`,
				`: unfinished`, "may or may not have taken effect"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, ".cogflow")
			cog := writeFile(t, dir, "hello.cog", src)
			sum := sha256.Sum256([]byte(src))
			w, err := journal.Open(root, journal.RunMeta{Workflow: cog, Task: "hello", Row: -1, WorkflowSHA256: hex.EncodeToString(sum[:])})
			must(t, err)
			tc.write(w)
			r := runCLI(t, "", "graph", cog, "--format", "html", "--run", w.ID(), "--dir", root)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			for _, s := range tc.present {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("page lacks %s", s)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(r.stdout, s) {
					t.Errorf("page holds %s", s)
				}
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
