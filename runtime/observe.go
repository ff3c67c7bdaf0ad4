package runtime

import (
	"github.com/cogflow/cogflow/runtime/journal"
)

// JournalObserver records a run's events in a run journal.
type JournalObserver struct {
	W    *journal.Writer
	Task string
	// Err keeps the first error writing the journal: a run goes on when
	// its journal fails (the disk filled up), and the CLI reports it.
	Err error
}

func (r *JournalObserver) keep(err error) {
	if err != nil && r.Err == nil {
		r.Err = err
	}
}

func loopPositions(loops []LoopPos) []journal.LoopPos {
	out := make([]journal.LoopPos, len(loops))
	for i, l := range loops {
		out[i] = journal.LoopPos{Var: l.Var, Index: l.Index, Key: l.Key, After: l.After, Broke: l.Broke}
	}
	return out
}

// Step implements Observer.
func (r *JournalObserver) Step(s StepReport) {
	ev := journal.StepEvent{
		Task: r.Task, Step: s.Step, Line: s.Line, Loop: loopPositions(s.Loops), Branches: s.Branches, Op: s.Op, Value: s.Value,
		Source: journal.Source(s.ValueFrom), Started: s.Started, Duration: journal.Duration(s.Duration),
		Outcome: journal.Outcome(s.Outcome),
	}
	for _, a := range s.Args {
		ev.Args = append(ev.Args, journal.Arg{Name: a.Name, Value: a.Value, Source: argSource(a.Source)})
	}
	if s.Err != nil {
		ev.Error = s.Err.Error()
	}
	if s.TokensIn+s.TokensOut > 0 {
		ev.Tokens = &journal.Tokens{In: s.TokensIn, Out: s.TokensOut, CostUSD: s.CostUSD,
			Calls: s.ModelCalls, Latency: journal.Duration(s.ModelTime)}
	}
	if len(s.Screenshot) > 0 {
		name, err := r.W.Screenshot(s.Step, s.Screenshot)
		r.keep(err)
		ev.Screenshot = name
	}
	ev.NoScreenshot = s.NoScreenshot
	ev.Ties = s.Ties
	r.keep(r.W.Step(ev))
}

// argSource maps the interpreter's argument origins onto the journal's
// closed set of sources.
func argSource(s string) journal.Source {
	switch {
	case s == "literal":
		return journal.SourceLiteral
	case len(s) > 4 && s[:4] == "ref ":
		return journal.SourceStep
	case len(s) > 9 && s[:9] == "function ":
		return journal.SourceFunction
	case len(s) > 11 && s[:11] == "dependency ":
		return ""
	case len(s) > 6 && s[:6] == "input ":
		return journal.SourceInput
	case len(s) > 7 && s[:7] == "answer ":
		return journal.Source(s[7:]) // the answerer's name: structural, cache, llm, ask
	}
	return journal.SourceStructural
}

// IterationDone implements Observer.
func (r *JournalObserver) IterationDone(loops []LoopPos) {
	r.keep(r.W.IterationDone(r.Task, loopPositions(loops)))
}

// Interrupted implements Observer.
func (r *JournalObserver) Interrupted(at Position) {
	r.keep(r.W.Interrupted(journal.Position{Task: r.Task, Step: at.Step, Line: at.Line, Loop: loopPositions(at.Loops)}))
}

// Fallback implements FallbackObserver: it journals the try that fell
// back, and the error that sent it there.
func (r *JournalObserver) Fallback(f FallbackReport) {
	ev := journal.Fallback{Task: r.Task, Line: f.Line, Loop: loopPositions(f.Loops), Step: f.Step}
	if f.Err != nil {
		ev.Error = f.Err.Error()
	}
	r.keep(r.W.Fallback(ev))
}

// FellBackIn returns an Options.FellBack: the tries an earlier run left in
// their fallback.
func FellBackIn(run *journal.Run) func(int, []LoopPos) bool {
	return func(line int, loops []LoopPos) bool { return run.FellBack(line, loopPositions(loops)) }
}

// DoneIn returns an Options.Done that skips the iterations an earlier run
// finished (journal.Run.Done says how items are recognized), and the item
// in extra when it is not nil: the loop item of a step in doubt that a
// resume was told to skip.
func DoneIn(run *journal.Run, extra []journal.LoopPos) func([]LoopPos) bool {
	return func(loops []LoopPos) bool {
		pos := loopPositions(loops)
		if extra != nil && sameIndexes(extra, pos) {
			return true
		}
		return run.Done(pos)
	}
}

// BrokeIn returns an Options.Broke: the iterations an earlier run finished
// with break.
func BrokeIn(run *journal.Run) func([]LoopPos) bool {
	return func(loops []LoopPos) bool { return run.Broke(loopPositions(loops)) }
}

// sameIndexes compares loop positions by variable and index only: the
// item of a step in doubt may have been changed half-way.
func sameIndexes(a, b []journal.LoopPos) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Var != b[i].Var || a[i].Index != b[i].Index {
			return false
		}
	}
	return true
}

// Intent implements IntentObserver: it journals the step's intent and
// syncs it before the step acts.
func (r *JournalObserver) Intent(s StepReport) error {
	ev := journal.Intent{Task: r.Task, Step: s.Step, Line: s.Line, Loop: loopPositions(s.Loops), Branches: s.Branches, Op: s.Op}
	for _, a := range s.Args {
		ev.Args = append(ev.Args, journal.Arg{Name: a.Name, Value: a.Value, Source: argSource(a.Source)})
	}
	err := r.W.Intent(ev)
	r.keep(err)
	return err
}
