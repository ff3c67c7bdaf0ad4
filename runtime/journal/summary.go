package journal

import (
	"maps"
	"time"
)

// tally builds a Summary from events, for the Writer as it goes and for
// runs whose summary.json is missing.
type tally struct {
	sum    Summary
	steps  int            // step events seen, whatever their outcome
	timeOf map[string]int // task+"\x00"+step → index in sum.StepTimes
	last   time.Time      // latest time seen in any event
}

func (t *tally) start(s RunStarted) {
	t.sum.ID, t.sum.Workflow, t.sum.Task, t.sum.Driver = s.ID, s.Workflow, s.Task, s.Driver
	t.sum.Resume, t.sum.Row, t.sum.Batch, t.sum.Started = s.Resume, s.Row, s.Batch, s.Started
	t.seen(s.Started)
}

func (t *tally) seen(at time.Time) {
	if at.After(t.last) {
		t.last = at
	}
}

func (t *tally) step(ev StepEvent) {
	t.steps++
	switch ev.Outcome {
	case OK:
		t.sum.Steps.OK++
	case Failed:
		t.sum.Steps.Failed++
	case Skipped:
		t.sum.Steps.Skipped++
	case Declined:
		t.sum.Steps.Declined++
	case InDoubt:
		t.sum.Steps.InDoubt++
	}
	if ev.Tokens != nil {
		t.sum.Tokens.In += ev.Tokens.In
		t.sum.Tokens.Out += ev.Tokens.Out
		t.sum.Tokens.CostUSD += ev.Tokens.CostUSD
		t.sum.Tokens.Calls += ev.Tokens.Calls
		t.sum.Tokens.Latency += ev.Tokens.Latency
	}
	if ev.Source != "" && ev.Outcome != Skipped {
		if t.sum.Sources == nil {
			t.sum.Sources = map[Source]int{}
		}
		t.sum.Sources[ev.Source]++
	}
	if t.timeOf == nil {
		t.timeOf = map[string]int{}
	}
	k := ev.Task + "\x00" + ev.Step
	i, ok := t.timeOf[k]
	if !ok {
		i = len(t.sum.StepTimes)
		t.timeOf[k] = i
		t.sum.StepTimes = append(t.sum.StepTimes, StepTime{Task: ev.Task, Step: ev.Step, Line: ev.Line, Op: ev.Op})
	}
	st := &t.sum.StepTimes[i]
	st.Count++
	st.Total += ev.Duration
	st.Max = max(st.Max, ev.Duration)
	t.seen(ev.Started.Add(time.Duration(ev.Duration)))
}

func (t *tally) iteration(it Iteration) {
	if it.ResumedFrom != "" {
		t.sum.ResumedIterations++
	} else {
		t.sum.Iterations++
		t.seen(it.Time)
	}
}

func (t *tally) interruption(in Interruption) { t.seen(in.Time) }

func (t *tally) finish(f RunFinished) {
	t.sum.Outcome, t.sum.Error, t.sum.Finished, t.sum.Duration = f.Outcome, f.Error, f.Finished, f.Duration
	t.seen(f.Finished)
}

// summary is the Summary so far. For an unfinished run Finished is the
// latest time the journal mentions.
func (t *tally) summary() Summary {
	s := t.sum
	if s.Finished.IsZero() && !t.last.IsZero() {
		s.Finished = t.last
		s.Duration = Duration(t.last.Sub(s.Started))
	}
	s.StepTimes = append([]StepTime(nil), s.StepTimes...)
	s.Sources = maps.Clone(s.Sources)
	return s
}
