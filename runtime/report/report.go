// Package report turns run journals into reports for other readers: JUnit
// XML for a CI system (junit.go) and one self-contained HTML page for a
// person (html.go). It reads nothing but journals, summaries and the
// screenshots beside them, all redacted when they were written, so a
// report can hold no secret a journal does not.
//
// A report is a list of suites: a run on its own is a suite with one case
// (its task), a batch is a suite with one case per row of its inputs file.
package report

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

// Status is how a case ended.
type Status string

// Case statuses. Only Passed is a pass: a run that cannot show it finished
// well (in doubt, interrupted, killed) is never reported as passing.
const (
	Passed      Status = "passed"
	Failed      Status = "failed"      // a step failed, or the workflow was bad
	InDoubt     Status = "in_doubt"    // a step may or may not have taken effect
	Interrupted Status = "interrupted" // stopped by Ctrl-C (or a batch's stop)
	Unfinished  Status = "unfinished"  // no run_finished: killed, or still running
	NotRun      Status = "not_run"     // a batch row no run has started yet
)

// Suite is one run on its own, or one batch.
type Suite struct {
	ID       string         // the run's or the batch's id
	Batch    *journal.Batch // the batch's record; nil for a run on its own
	Workflow string
	Task     string
	Started  time.Time
	Cases    []Case
}

// Case is one run of a task: the run on its own, or a batch row's latest run.
type Case struct {
	Name    string
	Row     int          // the batch row (1-based), 0 for a run on its own
	Run     *journal.Run // nil for a row not run
	Status  Status
	Failure *Failure // why the case did not pass; nil when it passed
}

// Failure is the diagnostic of a case that did not pass: the step that
// failed (or was in doubt, or running when the run stopped) and why.
type Failure struct {
	Step, Op string
	// Pos is the step's place in the workflow, file:line:col. The column
	// is given only when the workflow file is still the one the run ran
	// (its SHA-256 matches the journal's); otherwise file:line.
	Pos     string
	Message string // the first line of the error
	Detail  string // the whole error: notes, candidates
}

// Notes are the error's lines after its first (the message): the
// candidates an anchor was chosen from, hints.
func (f *Failure) Notes() string {
	_, rest, _ := strings.Cut(f.Detail, "\n")
	return rest
}

// Duration is the case's run time (zero for a row not run).
func (c Case) Duration() time.Duration {
	if c.Run == nil {
		return 0
	}
	return time.Duration(c.Run.Summarize().Duration)
}

// Counts is how many cases of the suite ended each way.
func (s Suite) Counts() map[Status]int {
	n := map[Status]int{}
	for _, c := range s.Cases {
		n[c.Status]++
	}
	return n
}

// Load reads the suites named by ids under root (normally .cogflow): each
// id is a run id or a batch id. An id that names neither is an error.
func Load(root string, ids []string) ([]Suite, error) {
	if len(ids) == 0 {
		return nil, errors.New("report: name at least one run or batch")
	}
	var suites []Suite
	for _, id := range ids {
		s, err := loadSuite(root, id)
		if err != nil {
			return nil, err
		}
		suites = append(suites, s)
	}
	return suites, nil
}

func loadSuite(root, id string) (Suite, error) {
	if journal.ValidID(id) {
		if _, err := os.Stat(filepath.Join(root, "runs", id, journal.JournalFile)); err == nil {
			run, err := journal.Load(root, id)
			if err != nil {
				return Suite{}, fmt.Errorf("report: %w", err)
			}
			c := caseOf(run, run.Start.Task, 0)
			return Suite{ID: id, Workflow: run.Start.Workflow, Task: run.Start.Task, Started: run.Start.Started, Cases: []Case{c}}, nil
		}
	}
	return loadBatch(root, id)
}

// loadBatch builds the suite of a batch from its record: one case per
// row of its inputs file, from the row's latest run (a resumed row's
// latest run says how it ended); a row no run has started is NotRun.
func loadBatch(root, id string) (Suite, error) {
	if !journal.ValidBatchID(id) {
		return Suite{}, fmt.Errorf("report: %q is neither a run in %s nor a batch id (batch-…)", id, root)
	}
	b, err := journal.LoadBatch(root, id)
	if err != nil {
		return Suite{}, fmt.Errorf("report: %w", err)
	}
	rows, err := b.RowRuns(root)
	if err != nil {
		return Suite{}, fmt.Errorf("report: %w", err)
	}
	s := Suite{ID: id, Batch: b, Workflow: b.Workflow, Task: b.Task, Started: b.Started}
	for _, rr := range rows {
		name := fmt.Sprintf("row %d", rr.Row)
		if rr.RunID == "" {
			s.Cases = append(s.Cases, Case{Name: name, Row: rr.Row, Status: NotRun})
			continue
		}
		run, err := journal.Load(root, rr.RunID)
		if err != nil {
			return Suite{}, fmt.Errorf("report: batch %s, row %d: %w", id, rr.Row, err)
		}
		s.Cases = append(s.Cases, caseOf(run, name, rr.Row))
	}
	return s, nil
}

// caseOf says how run ended and, when it did not pass, where and why.
func caseOf(run *journal.Run, name string, row int) Case {
	c := Case{Name: name, Row: row, Run: run}
	sum := run.Summarize()
	switch {
	case run.Interruption != nil:
		c.Status = Interrupted
		at := run.Interruption.Position
		c.Failure = &Failure{Step: at.Step, Pos: position(run, at.Step, at.Line),
			Message: "interrupted at " + at.String() + "; --resume continues"}
	case sum.Outcome == journal.OK:
		c.Status = Passed
	case sum.Outcome == journal.Failed || sum.Outcome == journal.BadWorkflow:
		c.Status = Failed
		c.Failure = failedStep(run, sum.Error)
	default:
		c.Status = Unfinished
		msg := "no run_finished: the run was killed or is still running"
		f := &Failure{Message: msg}
		if at, ok := run.StoppedAt(); ok {
			f = &Failure{Step: at.Step, Pos: position(run, at.Step, at.Line), Message: msg + "; last step " + at.String()}
		}
		c.Failure = f
	}
	if in, ok := run.InDoubt(); ok && c.Status != Passed {
		c.Status = InDoubt
		c.Failure = &Failure{Step: in.Step, Op: in.Op, Pos: position(run, in.Step, in.Line),
			Message: fmt.Sprintf("step %s (%s) may or may not have taken effect; --resume settles it (--in-doubt)", in.Step, in.Op)}
	}
	return c
}

// failedStep finds the step that failed; a run that failed before any
// step (a bad input, a driver that would not start), or after the only
// failed steps were taken over by a try's fallback (a condition that
// could not be judged), has only its error.
func failedStep(run *journal.Run, runErr string) *Failure {
	for i := len(run.Steps) - 1; i >= 0; i-- {
		s := run.Steps[i]
		if s.Outcome != journal.Failed || caught(run, s) {
			continue
		}
		first, _, _ := strings.Cut(s.Error, "\n")
		return &Failure{Step: s.Step, Op: s.Op, Pos: position(run, s.Step, s.Line),
			Message: fmt.Sprintf("step %s (%s) failed: %s", s.Step, s.Op, first), Detail: s.Error}
	}
	first, _, _ := strings.Cut(runErr, "\n")
	return &Failure{Pos: run.Start.Workflow, Message: cmp.Or(first, "the run failed"), Detail: runErr}
}

// caught reports whether a try's fallback took over from failed step s in
// this run: then the run went on, and s is not why it failed.
func caught(run *journal.Run, s journal.StepEvent) bool {
	for _, f := range run.Fallbacks {
		if f.ResumedFrom == "" && f.Step == s.Step && (f.Task == "" || s.Task == "" || f.Task == s.Task) &&
			slices.EqualFunc(f.Loop, s.Loop, func(a, b journal.LoopPos) bool { return a.Var == b.Var && a.Index == b.Index }) {
			return true
		}
	}
	return false
}

// position is file:line:col of step, the column found in the workflow
// file when it is still the file the run ran; file:line otherwise.
func position(run *journal.Run, step string, line int) string {
	file := run.Start.Workflow
	if line <= 0 {
		return file
	}
	pos := fmt.Sprintf("%s:%d", file, line)
	if col := column(run, step, line); col > 0 {
		pos += fmt.Sprintf(":%d", col)
	}
	return pos
}

// column is the 1-based byte column of step's name on line of the run's
// workflow file, or 0 when the file is gone, changed, or lacks the name.
func column(run *journal.Run, step string, line int) int {
	if run.Start.WorkflowSHA256 == "" || step == "" {
		return 0
	}
	src, err := os.ReadFile(run.Start.Workflow)
	if err != nil {
		return 0
	}
	sum := sha256.Sum256(src)
	if hex.EncodeToString(sum[:]) != run.Start.WorkflowSHA256 {
		return 0
	}
	lines := strings.Split(string(src), "\n")
	if line > len(lines) {
		return 0
	}
	text := lines[line-1]
	for off := 0; ; {
		i := strings.Index(text[off:], step)
		if i < 0 {
			return 0
		}
		at := off + i
		end := at + len(step)
		// The name as a whole word, not a part of a longer one.
		if (at == 0 || !wordByte(text[at-1])) && (end == len(text) || !wordByte(text[end])) {
			return at + 1
		}
		off = end
	}
}

func wordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
