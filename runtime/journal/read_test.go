package journal

import (
	"bytes"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// killedRun writes run_started and n steps, then leaves the journal as a
// killed process would: no run_finished, no summary.json.
func killedRun(t *testing.T, root string, n int) *Writer {
	t.Helper()
	w := mustOpen(t, root, meta("t"))
	for i := range n {
		must(t, w.Step(StepEvent{Task: "t", Step: "op" + string(rune('1'+i)), Line: 3 + i, Op: "click", Value: strings.Repeat("v", 50)}))
	}
	w.f.Close()
	return w
}

func TestTruncatedJournal(t *testing.T) {
	tests := []struct {
		name      string
		edit      func(b []byte) []byte
		steps     int // steps Load returns
		truncated int // Run.Truncated
		err       string
	}{
		{name: "intact", edit: func(b []byte) []byte { return b }, steps: 3},
		{name: "cut in the last line", edit: func(b []byte) []byte { return b[:len(b)-30] }, steps: 2, truncated: 4},
		{name: "cut after the first byte of the last line", edit: func(b []byte) []byte { return b[:lastLineStart(b)+1] }, steps: 2, truncated: 4},
		{name: "last newline missing", edit: func(b []byte) []byte { return b[:len(b)-1] }, steps: 3},
		{name: "NUL bytes after a crash", edit: func(b []byte) []byte { return append(b[:len(b)-30], make([]byte, 64)...) }, steps: 2, truncated: 4},
		{name: "trailing blank lines", edit: func(b []byte) []byte { return append(b, "\n\n"...) }, steps: 3},
		{name: "damaged line in the middle", edit: func(b []byte) []byte {
			lines := bytes.SplitAfter(b, []byte("\n"))
			lines[1] = lines[1][:20]
			lines[1] = append(lines[1], '\n')
			return bytes.Join(lines, nil)
		}, err: "line 2:"},
		{name: "line without type", edit: func(b []byte) []byte { return append([]byte(`{"step":"x"}`+"\n"), b...) }, err: `without "type"`},
		{name: "unknown event type", edit: func(b []byte) []byte { return append(b, `{"type":"future_event","x":1}`+"\n"...) }, steps: 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			w := killedRun(t, root, 3)
			path := filepath.Join(w.Dir(), JournalFile)
			b, err := os.ReadFile(path)
			must(t, err)
			must(t, os.WriteFile(path, tc.edit(b), 0o644))

			run, err := Load(root, w.ID())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Load error = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Steps) != tc.steps || run.Truncated != tc.truncated {
				t.Errorf("%d steps, Truncated %d; want %d, %d", len(run.Steps), run.Truncated, tc.steps, tc.truncated)
			}
			if run.Start.ID != w.ID() || run.Finish != nil {
				t.Errorf("start %+v finish %+v", run.Start, run.Finish)
			}
			// List reads the killed run from its journal.
			infos, err := List(root)
			must(t, err)
			if len(infos) != 1 || !infos[0].FromJournal || infos[0].Outcome != "" || infos[0].Steps.OK != tc.steps ||
				infos[0].Truncated != (tc.truncated > 0) || infos[0].Task != "t" {
				t.Errorf("List = %+v", infos)
			}
		})
	}
}

func lastLineStart(b []byte) int {
	return bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
}

func TestLoadErrors(t *testing.T) {
	root := t.TempDir()
	for _, id := range []string{"", "..", "../../etc/passwd", "20261123T011530.123Z-1f0c/..", "latest"} {
		if _, err := Load(root, id); err == nil || !strings.Contains(err.Error(), "not a run id") {
			t.Errorf("Load(%q) = %v", id, err)
		}
	}
	if _, err := Load(root, "20261123T011530.123Z-1f0c"); err == nil || !strings.Contains(err.Error(), "no run") {
		t.Errorf("Load of a missing run: %v", err)
	}
	infos, err := List(filepath.Join(root, "nothing-here"))
	if err != nil || len(infos) != 0 {
		t.Errorf("List of an empty root = %v, %v", infos, err)
	}
}

// loopRun simulates an iterative task over items, interrupted (or killed)
// in item stopAt at step op2, and returns the run's id.
func loopRun(t *testing.T, root, resume string, items []string, from, stopAt int, kill bool) string {
	t.Helper()
	m := meta("fill")
	m.Resume = resume
	w := mustOpen(t, root, m)
	for i := from; i < len(items); i++ {
		loop := []LoopPos{{Var: "paper", Index: i, Key: items[i]}}
		must(t, w.Step(StepEvent{Task: "fill", Step: "op1", Line: 5, Loop: loop, Op: "click"}))
		if i == stopAt {
			if kill {
				w.f.Close()
				return w.ID()
			}
			must(t, w.Interrupted(Position{Task: "fill", Step: "op2", Line: 6, Loop: loop}))
			must(t, w.Finish(Interrupted, errors.New("interrupted by signal")))
			return w.ID()
		}
		must(t, w.Step(StepEvent{Task: "fill", Step: "op2", Line: 6, Loop: loop, Op: "type"}))
		must(t, w.IterationDone("fill", loop))
	}
	must(t, w.Finish(OK, nil))
	return w.ID()
}

func keys(items []string, idx ...int) []string {
	var out []string
	for _, i := range idx {
		out = append(out, IterationKey([]LoopPos{{Var: "paper", Index: i, Key: items[i]}}))
	}
	slices.Sort(out)
	return out
}

func TestCompletedAndResume(t *testing.T) {
	setClock(t, t0, time.Millisecond)
	root := t.TempDir()
	items := []string{"Attention", "ResNet", `BERT "base"`, "GPT", "T5"}

	// Interrupted in item 2: items 0 and 1 are done.
	first := loopRun(t, root, "", items, 0, 2, false)
	run, err := Load(root, first)
	must(t, err)
	if got := slices.Sorted(maps.Keys(run.Completed())); !slices.Equal(got, keys(items, 0, 1)) {
		t.Errorf("Completed = %q, want %q", got, keys(items, 0, 1))
	}
	at, ok := run.StoppedAt()
	want := Position{Task: "fill", Step: "op2", Line: 6, Loop: []LoopPos{{Var: "paper", Index: 2, Key: items[2]}}}
	if !ok || !reflect.DeepEqual(at, want) {
		t.Errorf("StoppedAt = %+v, %v; want %+v", at, ok, want)
	}
	if s := run.Summarize(); s.Outcome != Interrupted || s.Iterations != 2 {
		t.Errorf("summary outcome %q iterations %d", s.Outcome, s.Iterations)
	}

	// Resumed, then killed in item 3: its Completed covers the first run's
	// iterations too, and it stopped after its last recorded step.
	second := loopRun(t, root, first, items, 2, 3, true)
	run, err = Load(root, second)
	must(t, err)
	if got := slices.Sorted(maps.Keys(run.Completed())); !slices.Equal(got, keys(items, 0, 1, 2)) {
		t.Errorf("Completed after resume = %q, want %q", got, keys(items, 0, 1, 2))
	}
	at, ok = run.StoppedAt()
	want = Position{Task: "fill", Step: "op1", Line: 5, Loop: []LoopPos{{Var: "paper", Index: 3, Key: items[3]}}}
	if !ok || !reflect.DeepEqual(at, want) {
		t.Errorf("StoppedAt of a killed run = %+v, %v; want %+v", at, ok, want)
	}
	if s := run.Summarize(); s.Outcome != "" || s.Iterations != 1 || s.ResumedIterations != 2 || s.Resume != first {
		t.Errorf("derived summary %+v", s)
	}

	// Resumed again and finished: everything is done, nothing stopped.
	third := loopRun(t, root, second, items, 3, -1, false)
	run, err = Load(root, third)
	must(t, err)
	if got := slices.Sorted(maps.Keys(run.Completed())); !slices.Equal(got, keys(items, 0, 1, 2, 3, 4)) {
		t.Errorf("Completed after the last resume = %q", got)
	}
	if _, ok := run.StoppedAt(); ok {
		t.Error("a finished run reports a stop position")
	}
	if run.Summary.Iterations != 2 || run.Summary.ResumedIterations != 3 {
		t.Errorf("summary iterations %d resumed %d", run.Summary.Iterations, run.Summary.ResumedIterations)
	}
}

func TestIterationKey(t *testing.T) {
	tests := []struct {
		loop []LoopPos
		want string
	}{
		{nil, ""},
		{[]LoopPos{{Var: "paper", Index: 2, Key: "BERT"}}, `paper[2]"BERT"`},
		{[]LoopPos{{Var: "row", Index: 0}, {Var: "cell", Index: 3, Key: `a"/b`}}, `row[0]""/cell[3]"a\"/b"`},
	}
	for _, tc := range tests {
		if got := IterationKey(tc.loop); got != tc.want {
			t.Errorf("IterationKey(%+v) = %s, want %s", tc.loop, got, tc.want)
		}
	}
	// Same index, different item (the list changed): different keys.
	a := IterationKey([]LoopPos{{Var: "p", Index: 1, Key: "x"}})
	b := IterationKey([]LoopPos{{Var: "p", Index: 1, Key: "y"}})
	if a == b {
		t.Error("keys ignore the item key")
	}
}
