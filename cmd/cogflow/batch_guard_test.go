package main

import (
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
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

// TestCheckRowResume: a row whose run clicked outside a loop and then did
// not end ok is not resumed (its click would be done again) unless
// --in-doubt=redo; one that only opened and typed, or clicked inside a
// loop item, or was killed while clicking (its own in-doubt rules), is.
func TestCheckRowResume(t *testing.T) {
	loop := []journal.LoopPos{{Var: "x", Index: 0, Key: "a"}}
	tests := []struct {
		name    string
		intents []journal.Intent
		acted   bool // each intent gets its step event
		inDoubt string
		refused bool
	}{
		{name: "clicked, then failed", intents: []journal.Intent{{Step: "op1", Op: "open"}, {Step: "op4", Line: 9, Op: "click"}}, acted: true, refused: true},
		{name: "clicked, redo", intents: []journal.Intent{{Step: "op4", Op: "click"}}, acted: true, inDoubt: "redo"},
		{name: "clicked, skip is no answer", intents: []journal.Intent{{Step: "op4", Op: "click"}}, acted: true, inDoubt: "skip", refused: true},
		{name: "typed only", intents: []journal.Intent{{Step: "op1", Op: "open"}, {Step: "op2", Op: "type"}}, acted: true},
		{name: "clicked in a loop item", intents: []journal.Intent{{Step: "op4", Op: "click", Loop: loop}}, acted: true},
		{name: "killed while clicking", intents: []journal.Intent{{Step: "op4", Op: "click"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			w, err := journal.Open(root, journal.RunMeta{Workflow: "w.cog", Task: "t", Row: 0})
			if err != nil {
				t.Fatal(err)
			}
			for _, in := range tc.intents {
				if err := w.Intent(in); err != nil {
					t.Fatal(err)
				}
				if tc.acted {
					if err := w.Step(journal.StepEvent{Step: in.Step, Line: in.Line, Op: in.Op, Loop: in.Loop}); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := w.Finish("", errors.New("step op5 failed")); err != nil {
				t.Fatal(err)
			}
			err = checkRowResume(root, w.ID(), tc.inDoubt)
			if (err != nil) != tc.refused {
				t.Fatalf("checkRowResume: %v, want refused %v", err, tc.refused)
			}
			if err != nil && !strings.Contains(err.Error(), "--in-doubt=redo") {
				t.Errorf("the refusal does not say what to do: %v", err)
			}
		})
	}
}
