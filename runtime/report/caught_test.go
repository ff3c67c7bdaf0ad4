package report

import (
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

// TestFailedStepCaughtByTry: a step whose failure a try's fallback took
// over is not why the run failed. The case names the step that failed
// after it, or the run's own error when no later step failed.
func TestFailedStepCaughtByTry(t *testing.T) {
	loop := []journal.LoopPos{{Var: "row", Index: 1}}
	caught := journal.StepEvent{Step: "op3", Line: 7, Op: "click", Loop: loop, Outcome: journal.Failed, Error: "no button Pay"}
	fellBack := journal.Fallback{Line: 6, Step: "op3", Loop: loop, Error: "no button Pay"}
	tests := []struct {
		name     string
		steps    []journal.StepEvent
		fallback []journal.Fallback
		runErr   string
		wantStep string
		wantMsg  string
	}{
		{"caught, then the run failed on its own", []journal.StepEvent{caught}, []journal.Fallback{fellBack},
			"pay.cog:9:6: if visible(x): the condition is not true or false", "", "the condition is not true or false"},
		{"caught, then a later step failed", []journal.StepEvent{caught, {Step: "op5", Line: 5, Op: "type", Outcome: journal.Failed, Error: "field is read-only"}},
			[]journal.Fallback{fellBack}, "step op5 failed", "op5", "field is read-only"},
		{"the same step failed again in another item", []journal.StepEvent{caught, {Step: "op3", Line: 7, Op: "click", Loop: []journal.LoopPos{{Var: "row", Index: 2}}, Outcome: journal.Failed, Error: "gone"}},
			[]journal.Fallback{fellBack}, "gone", "op3", "gone"},
		{"not caught", []journal.StepEvent{caught}, nil, "no button Pay", "op3", "no button Pay"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, wf := setup(t)
			w, err := journal.Open(root, journal.RunMeta{Workflow: wf, Task: "pay", Row: -1})
			must(t, err)
			for i, s := range tt.steps {
				must(t, w.Step(s))
				if i == 0 {
					for _, f := range tt.fallback {
						must(t, w.Fallback(f))
					}
				}
			}
			must(t, w.Finish(journal.Failed, errors.New(tt.runErr)))
			suites, err := Load(root, []string{w.ID()})
			must(t, err)
			c := suites[0].Cases[0]
			if c.Status != Failed || c.Failure == nil {
				t.Fatalf("%s %+v, want failed", c.Status, c.Failure)
			}
			if c.Failure.Step != tt.wantStep || !strings.Contains(c.Failure.Message, tt.wantMsg) {
				t.Errorf("failure at step %q: %q; want step %q and %q", c.Failure.Step, c.Failure.Message, tt.wantStep, tt.wantMsg)
			}
		})
	}
}
