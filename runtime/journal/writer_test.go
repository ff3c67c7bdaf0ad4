package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/redact"
)

var t0 = time.Date(2026, 11, 23, 1, 15, 30, 123_000_000, time.UTC)

// setClock makes now return start, start+tick, start+2·tick, … for the
// rest of the test. Tests that use it must not run in parallel.
func setClock(t *testing.T, start time.Time, tick time.Duration) {
	t.Helper()
	var mu sync.Mutex
	cur := start
	old := now
	now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		c := cur
		cur = cur.Add(tick)
		return c
	}
	t.Cleanup(func() { now = old })
}

func meta(task string) RunMeta {
	return RunMeta{Workflow: "examples/" + task + ".cog", Task: task, Driver: "browser", Row: -1}
}

func mustOpen(t *testing.T, root string, m RunMeta) *Writer {
	t.Helper()
	w, err := Open(root, m)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRoundTrip(t *testing.T) {
	loop := func(i int, key string) []LoopPos { return []LoopPos{{Var: "paper", Index: i, Key: key}} }
	step := func(seq int, name string, outcome Outcome, ms int) StepEvent {
		return StepEvent{Task: "t", Step: name, Line: 3 + seq, Op: "click", Source: SourceLiteral,
			Started: t0.Add(time.Duration(seq) * time.Second), Duration: Duration(time.Duration(ms) * time.Millisecond), Outcome: outcome}
	}
	tests := []struct {
		name       string
		meta       RunMeta
		steps      []StepEvent
		iterations [][]LoopPos
		interrupt  *Position
		outcome    Outcome
		err        error
		want       Summary // only the fields checked below
	}{
		{
			name: "empty run",
			meta: meta("t"), outcome: OK,
			want: Summary{Outcome: OK},
		},
		{
			name: "every field",
			meta: RunMeta{Workflow: "w.cog", Task: "t", Driver: "android", Inputs: map[string]string{"keyword": "Kilimanjaro"}, Resume: "", Row: 4},
			steps: []StepEvent{{
				Task: "t", Step: "op4", Line: 12, Loop: []LoopPos{{Var: "row", Index: 1, Key: "r1"}, {Var: "cell", Index: 0}},
				Op: "click", Args: []Arg{{Name: "target", Value: `link "Kilimanjaro"`, Source: SourceLLM}, {Value: "x<&>y", Source: SourceLiteral}},
				Value: "link \"Kilimanjaro\"\nsecond line", Source: SourceLLM, Started: t0, Duration: Duration(2340*time.Millisecond + 500*time.Microsecond),
				Outcome: OK, Screenshot: "step-0001-op4.png", Tokens: &Tokens{In: 1830, Out: 12},
			}},
			outcome: OK,
			want:    Summary{Outcome: OK, Steps: StepCounts{OK: 1}, Tokens: Tokens{In: 1830, Out: 12}},
		},
		{
			name:       "loop with failure",
			meta:       meta("t"),
			steps:      []StepEvent{step(1, "op1", OK, 10), step(2, "op2", OK, 20), step(3, "op1", OK, 30), step(4, "op2", Failed, 40), step(5, "op3", Skipped, 0), step(6, "op4", Declined, 1)},
			iterations: [][]LoopPos{loop(0, "a")},
			outcome:    Failed, err: errors.New("op2: no element matches"),
			want: Summary{Outcome: Failed, Error: "op2: no element matches", Steps: StepCounts{OK: 3, Failed: 1, Skipped: 1, Declined: 1}, Iterations: 1},
		},
		{
			name:       "interrupted",
			meta:       meta("t"),
			steps:      []StepEvent{step(1, "op1", OK, 10)},
			iterations: [][]LoopPos{loop(0, "a"), loop(1, "b")},
			interrupt:  &Position{Task: "t", Step: "op2", Line: 7, Loop: loop(2, "c")},
			outcome:    Interrupted, err: errors.New("interrupted"),
			want: Summary{Outcome: Interrupted, Error: "interrupted", Steps: StepCounts{OK: 1}, Iterations: 2},
		},
		{
			name:    "default outcome from error",
			meta:    meta("t"),
			steps:   []StepEvent{step(1, "op1", "", 10)},
			outcome: "", err: errors.New("boom"),
			want: Summary{Outcome: Failed, Error: "boom", Steps: StepCounts{OK: 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			setClock(t, t0, time.Millisecond)
			root := t.TempDir()
			w := mustOpen(t, root, tc.meta)
			for _, ev := range tc.steps {
				must(t, w.Step(ev))
			}
			for _, l := range tc.iterations {
				must(t, w.IterationDone("t", l))
			}
			if tc.interrupt != nil {
				must(t, w.Interrupted(*tc.interrupt))
			}
			must(t, w.Finish(tc.outcome, tc.err))

			run, err := Load(root, w.ID())
			if err != nil {
				t.Fatal(err)
			}
			if run.Truncated != 0 {
				t.Errorf("Truncated = %d", run.Truncated)
			}
			want := slices.Clone(tc.steps)
			for i := range want {
				want[i].Seq = i + 1
				if want[i].Outcome == "" {
					want[i].Outcome = OK
				}
			}
			if !reflect.DeepEqual(run.Steps, want) {
				t.Errorf("steps differ\n got %+v\nwant %+v", run.Steps, want)
			}
			m := tc.meta
			wantStart := RunStarted{ID: w.ID(), Workflow: m.Workflow, Task: m.Task, Driver: m.Driver, Inputs: m.Inputs, Row: m.Row, Started: t0}
			if !reflect.DeepEqual(run.Start, wantStart) {
				t.Errorf("run_started = %+v, want %+v", run.Start, wantStart)
			}
			if len(run.Iterations) != len(tc.iterations) {
				t.Errorf("%d iterations, want %d", len(run.Iterations), len(tc.iterations))
			}
			for i, it := range run.Iterations {
				if !reflect.DeepEqual(it.Loop, tc.iterations[i]) {
					t.Errorf("iteration %d = %+v, want %+v", i, it.Loop, tc.iterations[i])
				}
			}
			if (run.Interruption == nil) != (tc.interrupt == nil) || tc.interrupt != nil && !reflect.DeepEqual(run.Interruption.Position, *tc.interrupt) {
				t.Errorf("interruption = %+v, want %+v", run.Interruption, tc.interrupt)
			}
			if run.Finish == nil || run.Finish.Outcome != tc.want.Outcome || run.Finish.Error != tc.want.Error {
				t.Errorf("run_finished = %+v, want outcome %q error %q", run.Finish, tc.want.Outcome, tc.want.Error)
			}
			if run.Summary == nil {
				t.Fatal("no summary.json")
			}
			s := *run.Summary
			if s.ID != w.ID() || s.Task != m.Task || s.Workflow != m.Workflow || s.Row != m.Row || !s.Started.Equal(t0) ||
				s.Outcome != tc.want.Outcome || s.Error != tc.want.Error || s.Steps != tc.want.Steps ||
				s.Iterations != tc.want.Iterations || s.Tokens != tc.want.Tokens || s.Duration <= 0 || s.Finished.Before(s.Started) {
				t.Errorf("summary = %+v\nwant %+v", s, tc.want)
			}
			// The summary derived from the journal agrees with summary.json.
			run.Summary = nil
			if d := run.Summarize(); !reflect.DeepEqual(d, s) {
				t.Errorf("derived summary differs\n got %+v\nwant %+v", d, s)
			}
		})
	}
}

func TestStepDurationsInSummary(t *testing.T) {
	setClock(t, t0, time.Millisecond)
	root := t.TempDir()
	w := mustOpen(t, root, meta("t"))
	for i, ms := range []int{100, 300, 200} {
		must(t, w.Step(StepEvent{Task: "t", Step: "op1", Line: 4, Op: "click", Loop: []LoopPos{{Var: "x", Index: i}}, Duration: Duration(time.Duration(ms) * time.Millisecond)}))
		must(t, w.Step(StepEvent{Task: "t", Step: "op2", Line: 5, Op: "type", Source: SourceLLM, Duration: Duration(time.Millisecond), Tokens: &Tokens{In: 10, Out: 1}}))
	}
	must(t, w.Finish(OK, nil))
	run, err := Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	want := []StepTime{
		{Task: "t", Step: "op1", Line: 4, Op: "click", Count: 3, Total: Duration(600 * time.Millisecond), Max: Duration(300 * time.Millisecond)},
		{Task: "t", Step: "op2", Line: 5, Op: "type", Count: 3, Total: Duration(3 * time.Millisecond), Max: Duration(time.Millisecond)},
	}
	if !reflect.DeepEqual(run.Summary.StepTimes, want) {
		t.Errorf("step durations = %+v, want %+v", run.Summary.StepTimes, want)
	}
	if run.Summary.Tokens != (Tokens{In: 30, Out: 3}) || run.Summary.Sources[SourceLLM] != 3 {
		t.Errorf("tokens %+v sources %v", run.Summary.Tokens, run.Summary.Sources)
	}
}

func TestDurationJSON(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		json string
	}{
		{0, "0"},
		{time.Millisecond, "1"},
		{1500 * time.Microsecond, "1.5"},
		{2*time.Second + 340*time.Millisecond + 7*time.Microsecond, "2340.007"},
		{400 * time.Nanosecond, "0"},
		{time.Hour, "3600000"},
	} {
		b, err := json.Marshal(Duration(tc.d))
		if err != nil || string(b) != tc.json {
			t.Errorf("Marshal(%v) = %s, %v; want %s", tc.d, b, err, tc.json)
		}
		var back Duration
		if err := json.Unmarshal(b, &back); err != nil || time.Duration(back) != tc.d.Round(time.Microsecond) {
			t.Errorf("Unmarshal(%s) = %v, %v", b, time.Duration(back), err)
		}
	}
}

// TestConcurrentSteps writes from many goroutines at once, with lines far
// larger than a pipe buffer, and checks that every line is whole.
func TestConcurrentSteps(t *testing.T) {
	root := t.TempDir()
	w := mustOpen(t, root, meta("t"))
	const goroutines, each = 12, 40
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				size := (g*each + i) * 997 % 130_000
				value := strings.Repeat(string(rune('a'+g)), size)
				name := fmt.Sprintf("g%d_%d", g, i)
				shot, err := w.Screenshot(name, []byte("png"))
				if err != nil {
					t.Error(err)
					return
				}
				if err := w.Step(StepEvent{Step: name, Op: "type", Value: value, Screenshot: shot}); err != nil {
					t.Error(err)
					return
				}
				if i%10 == 9 {
					if err := w.IterationDone("t", []LoopPos{{Var: fmt.Sprintf("g%d", g), Index: i / 10}}); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	must(t, w.Finish(OK, nil))

	data, err := os.ReadFile(filepath.Join(w.Dir(), JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(data, []byte("\n")) {
		t.Fatal("journal does not end with a newline")
	}
	lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
	for i, ln := range lines {
		var ev map[string]any
		if err := json.Unmarshal(ln, &ev); err != nil {
			t.Fatalf("line %d is not a whole event: %v", i+1, err)
		}
		if ev["type"] == EventStep {
			// a value is one goroutine's letter, never a mix
			v, _ := ev["value"].(string)
			if strings.Trim(v, v[:min(1, len(v))]) != "" {
				t.Fatalf("line %d: value mixes writers", i+1)
			}
		}
	}
	// run_started + steps + iterations + run_finished
	if want := 1 + goroutines*each + goroutines*each/10 + 1; len(lines) != want {
		t.Errorf("%d lines, want %d", len(lines), want)
	}
	run, err := Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	seqs := map[int]bool{}
	shots := map[string]bool{}
	for _, s := range run.Steps {
		seqs[s.Seq] = true
		shots[s.Screenshot] = true
	}
	if len(seqs) != goroutines*each || !seqs[1] || !seqs[goroutines*each] {
		t.Errorf("step numbers are not 1…%d: %d distinct", goroutines*each, len(seqs))
	}
	if len(shots) != goroutines*each {
		t.Errorf("%d distinct screenshot names for %d steps", len(shots), goroutines*each)
	}
	if got := run.Summary.Steps.OK; got != goroutines*each {
		t.Errorf("summary counts %d steps", got)
	}
}

func TestIDs(t *testing.T) {
	root := t.TempDir()
	// Many runs in one millisecond: all ids distinct.
	setClock(t, t0, 0)
	seen := map[string]bool{}
	for range 300 {
		w := mustOpen(t, root, meta("t"))
		if !ValidID(w.ID()) || !strings.HasPrefix(w.ID(), "20261123T011530.123Z-") {
			t.Fatalf("id %q", w.ID())
		}
		if seen[w.ID()] {
			t.Fatalf("id %s twice", w.ID())
		}
		seen[w.ID()] = true
		must(t, w.Finish(OK, nil))
	}
	// Runs in successive milliseconds (and across a second and a day): ids
	// sort in the order the runs started.
	root = t.TempDir()
	var ids []string
	for i, at := range []time.Time{t0, t0.Add(time.Millisecond), t0.Add(877 * time.Millisecond), t0.Add(time.Second), t0.Add(24 * time.Hour)} {
		setClock(t, at, 0)
		w := mustOpen(t, root, meta(fmt.Sprint("t", i)))
		ids = append(ids, w.ID())
		must(t, w.Finish(OK, nil))
	}
	if !slices.IsSorted(ids) {
		t.Errorf("ids not sorted by start: %v", ids)
	}
	infos, err := List(root)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, in := range infos {
		listed = append(listed, in.ID)
	}
	slices.Reverse(ids)
	if !slices.Equal(listed, ids) {
		t.Errorf("List order %v, want newest first %v", listed, ids)
	}
}

func TestValidID(t *testing.T) {
	for id, want := range map[string]bool{
		"20261123T011530.123Z-1f0c":           true,
		"20261123T011530.123Z-1F0C":           false,
		"20261123T011530.123Z-1f0":            false,
		"20261123T011530Z-1f0c":               false,
		"../20261123T011530.123Z-1":           false,
		"":                                    false,
		"20261123T011530.123Z-1f0c/../../etc": false,
	} {
		if ValidID(id) != want {
			t.Errorf("ValidID(%q) = %v", id, !want)
		}
	}
}

func TestScreenshotNames(t *testing.T) {
	setClock(t, t0, time.Millisecond)
	root := t.TempDir()
	m := meta("t")
	m.Secrets = redact.New("op9secret")
	w := mustOpen(t, root, m)
	var got []string
	shot := func(step string) {
		name, err := w.Screenshot(step, []byte{0x89, 'P', 'N', 'G'})
		must(t, err)
		got = append(got, name)
	}
	shot("op3")
	shot("op3") // same step again
	must(t, w.Step(StepEvent{Step: "op3", Op: "click"}))
	shot("click the ../../etc/passwd button")
	must(t, w.Step(StepEvent{Step: "x", Op: "click"}))
	shot("op9secret")
	shot("")
	shot(strings.Repeat("long", 30))
	must(t, w.Finish(OK, nil))
	want := []string{
		"step-0001-op3.png", "step-0001-op3-2.png",
		"step-0002-clicktheetcpasswdbutton.png",
		"step-0003.png", "step-0003-2.png",
		"step-0003-" + strings.Repeat("long", 10) + ".png",
	}
	if !slices.Equal(got, want) {
		t.Errorf("names\n got %q\nwant %q", got, want)
	}
	for _, name := range got {
		if b, err := os.ReadFile(filepath.Join(w.Dir(), name)); err != nil || string(b) != "\x89PNG" {
			t.Errorf("%s: %q, %v", name, b, err)
		}
	}
}

func TestFinishedWriter(t *testing.T) {
	root := t.TempDir()
	w := mustOpen(t, root, meta("t"))
	must(t, w.Finish(OK, nil))
	for name, err := range map[string]error{
		"Step":          w.Step(StepEvent{Step: "op1"}),
		"IterationDone": w.IterationDone("t", []LoopPos{{Var: "x"}}),
		"Interrupted":   w.Interrupted(Position{}),
		"Finish":        w.Finish(OK, nil),
	} {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Finish: %v, want ErrClosed", name, err)
		}
	}
	if _, err := w.Screenshot("op1", nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Screenshot after Finish: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	root := t.TempDir()
	if _, err := Open("", meta("t")); err == nil {
		t.Error("Open with no root succeeded")
	}
	m := meta("t")
	m.Resume = "20261123T011530.123Z-0000"
	if _, err := Open(root, m); err == nil || !strings.Contains(err.Error(), "no run") {
		t.Errorf("resuming a missing run: %v", err)
	}
	m.Resume = "../../etc"
	if _, err := Open(root, m); err == nil || !strings.Contains(err.Error(), "not a run id") {
		t.Errorf("resuming a bad id: %v", err)
	}
	file := filepath.Join(root, "file")
	must(t, os.WriteFile(file, nil, 0o644))
	if _, err := Open(file, meta("t")); err == nil {
		t.Error("Open under a file succeeded")
	}
}
