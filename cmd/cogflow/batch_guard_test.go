package main

import (
	"testing"

	"github.com/cogflow/cogflow/runtime"
)

// TestRowGuard: after the batch's stop a row stops at its next step
// boundary while it has done only steps a resume may repeat; once a step
// outside loops that cannot be repeated has begun, it runs to its end.
// Steps inside loops are the interpreter's to stop (after the item).
func TestRowGuard(t *testing.T) {
	loop := []runtime.LoopPos{{Var: "x", Index: 0}}
	tests := []struct {
		name  string
		steps []runtime.StepReport // each: Intent, then Step
		stop  int                  // the batch stops before this step's Step (len: never)
		want  bool                 // the row's stop is closed at the end
	}{
		{name: "repeatable steps only", steps: []runtime.StepReport{{Op: "open"}, {Op: "type"}}, stop: 1, want: true},
		{name: "stop before any step ends", steps: []runtime.StepReport{{Op: "open"}}, stop: 0, want: true},
		{name: "after a click", steps: []runtime.StepReport{{Op: "open"}, {Op: "click"}, {Op: "wait"}}, stop: 2, want: false},
		{name: "during a click", steps: []runtime.StepReport{{Op: "type"}, {Op: "click"}}, stop: 1, want: false},
		{name: "a click inside a loop", steps: []runtime.StepReport{{Op: "click", Loops: loop}, {Op: "type", Loops: loop}}, stop: 1, want: true},
		{name: "no stop", steps: []runtime.StepReport{{Op: "open"}, {Op: "type"}}, stop: 2, want: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			batch := make(chan struct{})
			g := newRowGuard(batch, nil)
			for i, s := range tc.steps {
				if err := g.Intent(s); err != nil {
					t.Fatal(err)
				}
				if i == tc.stop {
					close(batch)
				}
				g.Step(s)
			}
			if got := stopped(g.stop); got != tc.want {
				t.Errorf("row stopped = %v, want %v", got, tc.want)
			}
		})
	}
}
