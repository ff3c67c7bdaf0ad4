package journal

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cogflow/cogflow/lang/action"
)

// Run is a journal read back.
type Run struct {
	ID           string
	Dir          string
	Start        RunStarted
	Steps        []StepEvent
	Intents      []Intent    // write-ahead intents; see InDoubt
	Settled      *Settlement // how this run settled the in-doubt step of the run it resumed
	Iterations   []Iteration
	Explored     []ExploreEvent // exploration steps (explore.go)
	Fallbacks    []Fallback     // tries whose fallback took over, carried over from resumed runs too
	Interruption *Interruption  // nil unless the run was interrupted
	Finish       *RunFinished   // nil if the run was killed or is still running
	Summary      *Summary       // summary.json; nil if missing or unreadable
	// Truncated is the number of the journal's last line when that line was
	// incomplete (the run was killed while writing it) and was left out;
	// 0 if the journal ended cleanly.
	Truncated int
}

// Load reads run id under root. An incomplete last line is left out and
// reported in Run.Truncated; a damaged line anywhere else is an error.
func Load(root, id string) (*Run, error) {
	if !ValidID(id) {
		return nil, fmt.Errorf("journal: %q is not a run id", id)
	}
	dir := filepath.Join(root, "runs", id)
	path := filepath.Join(dir, JournalFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("journal: no run %s in %s", id, root)
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	run := &Run{ID: id, Dir: dir}
	lines := bytes.Split(data, []byte("\n"))
	last := -1
	for i, ln := range lines {
		if !blank(ln) {
			last = i
		}
	}
	for i, ln := range lines {
		if blank(ln) {
			continue
		}
		if err := run.add(ln); err != nil {
			if i == last {
				run.Truncated = i + 1
				break
			}
			return nil, fmt.Errorf("journal: run %s, line %d: %w", id, i+1, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, SummaryFile)); err == nil {
		var s Summary
		if json.Unmarshal(b, &s) == nil {
			run.Summary = &s
		}
	}
	return run, nil
}

// blank reports whether a line holds nothing but white space or the NUL
// bytes a file system may leave at the end of a file after a crash.
func blank(ln []byte) bool {
	return len(bytes.Trim(ln, " \t\r\x00")) == 0
}

func (r *Run) add(line []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &head); err != nil {
		return err
	}
	var err error
	switch head.Type {
	case EventRunStarted:
		err = json.Unmarshal(line, &r.Start)
	case EventStep:
		var ev StepEvent
		if err = json.Unmarshal(line, &ev); err == nil {
			r.Steps = append(r.Steps, ev)
		}
	case EventIntent:
		var in Intent
		if err = json.Unmarshal(line, &in); err == nil {
			r.Intents = append(r.Intents, in)
		}
	case EventInDoubt:
		var st Settlement
		if err = json.Unmarshal(line, &st); err == nil {
			r.Settled = &st
		}
	case EventIterationDone:
		var it Iteration
		if err = json.Unmarshal(line, &it); err == nil {
			r.Iterations = append(r.Iterations, it)
		}
	case EventExplore:
		var ev ExploreEvent
		if err = json.Unmarshal(line, &ev); err == nil {
			r.Explored = append(r.Explored, ev)
		}
	case EventFallback:
		var f Fallback
		if err = json.Unmarshal(line, &f); err == nil {
			r.Fallbacks = append(r.Fallbacks, f)
		}
	case EventInterrupted:
		var in Interruption
		if err = json.Unmarshal(line, &in); err == nil {
			r.Interruption = &in
		}
	case EventRunFinished:
		var f RunFinished
		if err = json.Unmarshal(line, &f); err == nil {
			r.Finish = &f
		}
	case "":
		err = errors.New(`event without "type"`)
	default:
		// an event a newer cogflow writes; nothing here needs it
	}
	return err
}

// Completed reports the loop iterations that finished, in this run or in
// the runs it resumed, keyed by IterationKey. A resumed run skips them.
func (r *Run) Completed() map[string]bool {
	done := make(map[string]bool, len(r.Iterations))
	for _, it := range r.Iterations {
		done[IterationKey(it.Loop)] = true
	}
	return done
}

// Done reports whether the iteration at the end of loop (outermost first)
// finished, in this run or in the runs it resumed: every level has the
// same variable and index, and the same key the item started with, or —
// for the innermost level — the key it had when its iteration finished.
func (r *Run) Done(loop []LoopPos) bool {
	for _, it := range r.Iterations {
		if sameItem(it.Loop, loop) {
			return true
		}
	}
	return false
}

// Broke reports whether the iteration at the end of loop finished and
// ended its loop with break: a resume ends the loop there.
func (r *Run) Broke(loop []LoopPos) bool {
	for _, it := range r.Iterations {
		if sameItem(it.Loop, loop) && len(it.Loop) > 0 && it.Loop[len(it.Loop)-1].Broke {
			return true
		}
	}
	return false
}

func sameItem(done, now []LoopPos) bool {
	if len(done) != len(now) {
		return false
	}
	for i, d := range done {
		n := now[i]
		if d.Var != n.Var || d.Index != n.Index {
			return false
		}
		if d.Key != n.Key && !(i == len(done)-1 && d.After != "" && d.After == n.Key) {
			return false
		}
	}
	return true
}

// InDoubt returns the step the run left in doubt, if any. A step is in
// doubt when its intent is journaled and its outcome is not (the run was
// killed while it acted) or is in_doubt (the browser exited, a second
// signal stopped it). Since a resume does an unfinished loop item again
// from its start, a step of that item that did finish but cannot safely
// be repeated (a click, a key: anything but RepeatableOps) makes the item
// in doubt as well: the last such step is returned. A repeatable step is
// returned only when it is itself in doubt and can be read back (type,
// open); ok is false when nothing is in doubt.
func (r *Run) InDoubt() (in Intent, ok bool) {
	if len(r.Intents) == 0 {
		return Intent{}, false
	}
	last := r.Intents[len(r.Intents)-1]
	if len(last.Loop) > 0 && !r.finishedHere(last.Loop) {
		for i := len(r.Intents) - 1; i >= 0 && hasPrefix(r.Intents[i].Loop, last.Loop); i-- {
			if it := r.Intents[i]; len(it.Loop) == len(last.Loop) && !RepeatableOps[it.Op] {
				return it, true
			}
		}
	}
	if !r.Acted(last.Seq) && (!RepeatableOps[last.Op] || ReadBackOps[last.Op]) {
		return last, true
	}
	return Intent{}, false
}

// Acted reports whether the step event with this Seq says the step ended
// (ok, failed, …) rather than being in doubt or missing.
func (r *Run) Acted(seq int) bool {
	for _, s := range r.Steps {
		if s.Seq == seq {
			return s.Outcome != InDoubt
		}
	}
	return false
}

// finishedHere reports whether this run itself finished the loop item.
func (r *Run) finishedHere(loop []LoopPos) bool {
	for _, it := range r.Iterations {
		if it.ResumedFrom == "" && hasPrefix(it.Loop, loop) && len(it.Loop) == len(loop) {
			return true
		}
	}
	return false
}

// hasPrefix compares loop positions by variable and index.
func hasPrefix(loop, prefix []LoopPos) bool {
	if len(loop) < len(prefix) {
		return false
	}
	for i, p := range prefix {
		if loop[i].Var != p.Var || loop[i].Index != p.Index {
			return false
		}
	}
	return true
}

// RepeatableOps are the actions a resume may do again without asking: they
// change nothing outside the browser session the resume starts afresh
// (reading, waiting, navigating, typing into a form not yet sent).
var RepeatableOps = opSet(
	action.Type, action.Clear, action.Open, action.NewTab, action.Wait, action.Assert, action.Copy, action.Scroll,
	action.Move, action.SelectText, action.SwitchWindow, action.SetViewport, action.WaitNavigation,
	action.WaitScript, action.Back, action.CloseTab,
	action.ReadTable, action.SetValue, // reads the page; a value set in a form not yet sent
)

// ReadBackOps are the repeatable actions whose effect a resume reads back
// after doing them again: the field holds the text typed, the page is at
// the URL opened.
var ReadBackOps = opSet(action.Type, action.Open)

// opSet is a set of actions, by the name a journal line gives them.
func opSet(ops ...action.Name) map[string]bool {
	m := make(map[string]bool, len(ops))
	for _, o := range ops {
		m[string(o)] = true
	}
	return m
}

// completedIterations lists each finished iteration once, oldest first.
func (r *Run) completedIterations() []Iteration {
	seen := map[string]bool{}
	var out []Iteration
	for _, it := range r.Iterations {
		if k := IterationKey(it.Loop); !seen[k] {
			seen[k] = true
			out = append(out, it)
		}
	}
	return out
}

// StoppedAt is where the run stopped early: the position recorded by
// Interrupted, or, for a run that was killed (no run_finished), the last
// step it recorded. ok is false for a run that finished normally.
func (r *Run) StoppedAt() (at Position, ok bool) {
	if r.Interruption != nil {
		return r.Interruption.Position, true
	}
	if r.Finish == nil && len(r.Steps) > 0 {
		s := r.Steps[len(r.Steps)-1]
		return Position{Task: s.Task, Step: s.Step, Line: s.Line, Loop: s.Loop}, true
	}
	return Position{}, false
}

// Summarize returns summary.json, or, when there is none, a summary
// derived from the journal (Outcome is empty if the run never finished).
func (r *Run) Summarize() Summary {
	if r.Summary != nil {
		return *r.Summary
	}
	var t tally
	t.start(r.Start)
	t.sum.ID = r.ID
	for _, s := range r.Steps {
		t.step(s)
	}
	for _, it := range r.Iterations {
		t.iteration(it)
	}
	if r.Interruption != nil {
		t.interruption(*r.Interruption)
	}
	if r.Finish != nil {
		t.finish(*r.Finish)
	}
	return t.summary()
}

// RunInfo is one line of `cogflow runs`.
type RunInfo struct {
	Summary
	FromJournal bool   // no summary.json: derived from the journal (killed, or still running)
	Truncated   bool   // the journal's last line was incomplete
	Problem     string // why the run could not be read at all; "" if it could
}

// List returns the runs under root, newest first. A root without runs is
// an empty list; a run that cannot be read is listed with its Problem.
func List(root string) ([]RunInfo, error) {
	entries, err := os.ReadDir(filepath.Join(root, "runs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var infos []RunInfo
	for _, e := range entries {
		if e.IsDir() && ValidID(e.Name()) {
			infos = append(infos, info(root, e.Name()))
		}
	}
	slices.SortFunc(infos, func(a, b RunInfo) int {
		return cmp.Or(startOf(b).Compare(startOf(a)), cmp.Compare(b.ID, a.ID))
	})
	return infos, nil
}

func info(root, id string) RunInfo {
	if b, err := os.ReadFile(filepath.Join(root, "runs", id, SummaryFile)); err == nil {
		var s Summary
		if json.Unmarshal(b, &s) == nil && s.ID == id {
			return RunInfo{Summary: s}
		}
	}
	run, err := Load(root, id)
	if err != nil {
		return RunInfo{Summary: Summary{ID: id, Row: -1}, Problem: err.Error()}
	}
	return RunInfo{Summary: run.Summarize(), FromJournal: true, Truncated: run.Truncated > 0}
}

// startOf is when a run started, from its summary or else from its id.
func startOf(i RunInfo) time.Time {
	if !i.Started.IsZero() {
		return i.Started
	}
	t, _ := time.Parse(idLayout, i.ID[:len(idLayout)])
	return t
}
