package journal

import (
	"errors"
	"testing"
)

// event is one thing a run did, for building journals in tests.
type event struct {
	intent  string  // op of an intent
	outcome Outcome // the step event after it; "" for none (killed)
	item    int     // loop index; -1 outside the loop
	done    bool    // an iteration_done for item instead of a step
}

func writeEvents(t *testing.T, root string, evs []event) *Run {
	t.Helper()
	w := mustOpen(t, root, meta("t"))
	loop := func(i int) []LoopPos {
		if i < 0 {
			return nil
		}
		return []LoopPos{{Var: "p", Index: i, Key: "k"}}
	}
	for n, e := range evs {
		if e.done {
			must(t, w.IterationDone("t", loop(e.item)))
			continue
		}
		step := "op" + string(rune('a'+n))
		must(t, w.Intent(Intent{Task: "t", Step: step, Line: 10 + n, Loop: loop(e.item), Op: e.intent}))
		if e.outcome != "" {
			must(t, w.Step(StepEvent{Task: "t", Step: step, Line: 10 + n, Loop: loop(e.item), Op: e.intent, Outcome: e.outcome}))
		}
	}
	w.f.Close() // killed: no run_finished
	w.lock.Release()
	run, err := Load(root, w.ID())
	must(t, err)
	return run
}

func TestInDoubt(t *testing.T) {
	tests := []struct {
		name   string
		events []event
		want   string // the op in doubt, "" for none
		line   int
	}{
		{name: "nothing acted", events: nil},
		{name: "killed while a click acted", events: []event{{intent: "open", outcome: OK, item: -1}, {intent: "click", item: -1}}, want: "click", line: 11},
		{name: "every step finished", events: []event{{intent: "click", outcome: OK, item: -1}}},
		{name: "browser exited during a click", events: []event{{intent: "click", outcome: InDoubt, item: -1}}, want: "click", line: 10},
		{name: "killed while typing: read back", events: []event{{intent: "type", item: -1}}, want: "type", line: 10},
		{name: "killed while waiting: harmless", events: []event{{intent: "wait", item: -1}}},
		{name: "item unfinished after its submit", events: []event{
			{intent: "type", outcome: OK, item: 0}, {intent: "click", outcome: OK, item: 0}, {intent: "wait", outcome: OK, item: 0}},
			want: "click", line: 11},
		{name: "item finished", events: []event{
			{intent: "click", outcome: OK, item: 0}, {item: 0, done: true}, {intent: "type", outcome: OK, item: 1}}},
		{name: "next item only typed", events: []event{
			{intent: "click", outcome: OK, item: 0}, {item: 0, done: true}, {intent: "type", item: 1}}, want: "type", line: 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			run := writeEvents(t, t.TempDir(), tc.events)
			in, ok := run.InDoubt()
			if got := map[bool]string{true: in.Op}[ok]; got != tc.want || (ok && in.Line != tc.line) {
				t.Errorf("InDoubt = %q line %d (%v), want %q line %d", in.Op, in.Line, ok, tc.want, tc.line)
			}
		})
	}
}

func TestIntentSeqMatchesStep(t *testing.T) {
	root := t.TempDir()
	run := writeEvents(t, root, []event{{intent: "open", outcome: OK, item: -1}, {intent: "click", outcome: OK, item: -1}})
	if len(run.Intents) != 2 || run.Intents[1].Seq != run.Steps[1].Seq || run.Intents[1].Seq != 2 {
		t.Fatalf("intents %+v, steps %+v", run.Intents, run.Steps)
	}
	if !run.Acted(2) || run.Acted(3) {
		t.Error("Acted is wrong")
	}
}

func TestIntentWriteErrorStops(t *testing.T) {
	w := mustOpen(t, t.TempDir(), meta("t"))
	w.f.Close() // as a full disk or a lost volume would
	if err := w.Intent(Intent{Step: "op1", Op: "click"}); err == nil {
		t.Fatal("Intent on an unwritable journal returned nil")
	}
	if err := w.Step(StepEvent{Step: "op1", Op: "click"}); err == nil {
		t.Error("the journal went on after a failed intent")
	}
	w.lock.Release()
}

func TestLock(t *testing.T) {
	root := t.TempDir()
	w := mustOpen(t, root, meta("t"))
	if _, err := LockRun(root, w.ID()); !errors.Is(err, ErrLocked) {
		t.Fatalf("a running run could be locked: %v", err)
	}
	must(t, w.Finish(OK, nil))
	l, err := LockRun(root, w.ID())
	if err != nil {
		t.Fatalf("a finished run stays locked: %v", err)
	}
	if _, err := LockRun(root, w.ID()); !errors.Is(err, ErrLocked) {
		t.Errorf("a second lock of the same run: %v", err)
	}
	l.Release()
	l.Release() // twice is fine
	if _, err := LockRun(root, "../x"); err == nil {
		t.Error("a bad id was locked")
	}
}

func TestDoneByStartOrEndKey(t *testing.T) {
	run := &Run{Iterations: []Iteration{{Loop: []LoopPos{{Var: "row", Index: 1, Key: "attention", After: "ATTENTION"}}}}}
	tests := []struct {
		pos  LoopPos
		want bool
	}{
		{LoopPos{Var: "row", Index: 1, Key: "attention"}, true},
		{LoopPos{Var: "row", Index: 1, Key: "ATTENTION"}, true}, // as the loop left it
		{LoopPos{Var: "row", Index: 1, Key: "other"}, false},
		{LoopPos{Var: "row", Index: 2, Key: "attention"}, false},
		{LoopPos{Var: "col", Index: 1, Key: "attention"}, false},
	}
	for _, tc := range tests {
		if got := run.Done([]LoopPos{tc.pos}); got != tc.want {
			t.Errorf("Done(%+v) = %v, want %v", tc.pos, got, tc.want)
		}
	}
}

func TestSkippedItemCarriedOver(t *testing.T) {
	root := t.TempDir()
	first := writeEvents(t, root, []event{{intent: "click", outcome: OK, item: 0}, {item: 0, done: true}, {intent: "click", item: 1}})
	in, ok := first.InDoubt()
	if !ok {
		t.Fatal("nothing in doubt")
	}
	m := meta("t")
	m.Resume, m.Settled = first.ID, &Settlement{Run: first.ID, Intent: in, Policy: "skip"}
	w := mustOpen(t, root, m)
	must(t, w.Finish(OK, nil))
	second, err := Load(root, w.ID())
	must(t, err)
	if second.Settled == nil || second.Settled.Policy != "skip" || second.Settled.Intent.Step != in.Step {
		t.Errorf("settlement not journaled: %+v", second.Settled)
	}
	for i := range 2 {
		if !second.Done([]LoopPos{{Var: "p", Index: i, Key: "k"}}) {
			t.Errorf("item %d not carried over as done", i)
		}
	}
}

func TestRunBrokeFindsTheIterationThatEndedItsLoop(t *testing.T) {
	run := &Run{Iterations: []Iteration{
		{Loop: []LoopPos{{Var: "repeat", Index: 0}}},
		{Loop: []LoopPos{{Var: "repeat", Index: 1, Broke: true}}},
	}}
	if run.Broke([]LoopPos{{Var: "repeat", Index: 0}}) || !run.Broke([]LoopPos{{Var: "repeat", Index: 1}}) || run.Broke([]LoopPos{{Var: "while", Index: 1}}) {
		t.Error("Broke does not find the iteration that broke")
	}
	if !run.Done([]LoopPos{{Var: "repeat", Index: 1}}) {
		t.Error("an iteration that broke is not done")
	}
}
