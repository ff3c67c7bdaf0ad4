package temporalrun

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

// Progress is a row's journal progress as its heartbeats carry it to the
// server: the run's journal id, and what another worker needs to decide
// whether the row may run again — the steps with an effect beyond the
// browser that started (their intents) in loop items that did not finish,
// and the loop items that finished. Steps that only touch the browser
// session (journal.RepeatableOps) are counted, not listed: a fresh browser
// does them again anyway. Loop keys are redacted.
type Progress struct {
	Run     string              `json:"run"`
	Worker  string              `json:"worker"`
	Attempt int                 `json:"attempt"`
	Steps   int                 `json:"steps"`          // steps finished
	Last    string              `json:"last,omitempty"` // the last step that finished
	Effects []Mark              `json:"effects,omitempty"`
	Done    [][]journal.LoopPos `json:"done,omitempty"` // finished loop items
}

// Mark is a step with an effect beyond the browser that started: its
// intent, and its outcome once it ended ("" while it acts).
type Mark struct {
	Step    string            `json:"step"`
	Line    int               `json:"line"`
	Op      string            `json:"op"`
	Loop    []journal.LoopPos `json:"loop,omitempty"`
	Outcome string            `json:"outcome,omitempty"`
}

// effectful reports whether an action may change something beyond the
// browser session a fresh browser replaces: anything the journal's resume
// may not repeat without asking.
func effectful(op string) bool { return !journal.RepeatableOps[op] }

// InDoubt is the rule a worker applies to a row that another worker
// started: the last step with an effect beyond the browser that started
// in a loop item that did not finish (or outside any loop). ok is false
// when there is none: the row may run again from its start in a fresh
// browser, skipping the loop items that finished.
func (p Progress) InDoubt() (Mark, bool) {
	for i := len(p.Effects) - 1; i >= 0; i-- {
		if m := p.Effects[i]; !p.finished(m.Loop) {
			return m, true
		}
	}
	return Mark{}, false
}

// finished reports whether the loop item of a step (or one enclosing it)
// finished; a step outside loops never is.
func (p Progress) finished(loop []journal.LoopPos) bool {
	for _, d := range p.Done {
		if len(d) > 0 && len(d) <= len(loop) && samePositions(d, loop[:len(d)]) {
			return true
		}
	}
	return false
}

func samePositions(a, b []journal.LoopPos) bool {
	for i := range a {
		if a[i].Var != b[i].Var || a[i].Index != b[i].Index {
			return false
		}
	}
	return true
}

// Intent is the mark as a journal intent (for the settlement).
func (m Mark) Intent() journal.Intent {
	return journal.Intent{Step: m.Step, Line: m.Line, Op: m.Op, Loop: m.Loop}
}

// asRun is the progress as the journal of the run it resumes: its id and
// its finished loop items, which the new run skips.
func (p Progress) asRun() *journal.Run {
	r := &journal.Run{ID: p.Run, Start: journal.RunStarted{ID: p.Run}}
	for _, d := range p.Done {
		r.Iterations = append(r.Iterations, journal.Iteration{Loop: d})
	}
	return r
}

// heartbeat is a row run's observer that keeps Progress and sends it to
// the server: on a ticker, so that long steps stay alive, and — before a
// step with an effect beyond the browser acts — synchronously, so the
// server knows the step started before it does. That synchronous
// heartbeat is also the fence: the server refuses the heartbeat of an
// attempt it timed out (its row went to another worker), and then the
// step does not act.
type heartbeat struct {
	c       client.Client
	token   []byte
	secrets *redact.Set

	mu   sync.Mutex // guards p
	p    Progress
	send sync.Mutex // one heartbeat at a time, so they reach the server in order

	// cancelAsked: cogflow cancel reached the row while a step with an
	// effect beyond the browser had started in its loop item; the item
	// (or, outside loops, the row) finishes first, as a graceful stop does.
	cancelAsked bool

	stopOnce sync.Once
	stop     chan struct{} // closed when the server says cancel, or that the attempt is over
	lost     error         // why the attempt is over (not a cancellation)
}

func newHeartbeat(c client.Client, token []byte, secrets *redact.Set, p Progress) *heartbeat {
	return &heartbeat{c: c, token: token, secrets: secrets, p: p, stop: make(chan struct{})}
}

// beat sends the progress now.
func (h *heartbeat) beat(ctx context.Context) error {
	h.send.Lock()
	defer h.send.Unlock()
	h.mu.Lock()
	p := h.p
	p.Effects = append([]Mark(nil), h.p.Effects...)
	p.Done = append([][]journal.LoopPos(nil), h.p.Done...)
	h.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := h.c.RecordActivityHeartbeat(ctx, h.token, p)
	var canceled *temporal.CanceledError
	var notFound *serviceerror.NotFound
	switch {
	case err == nil:
	case errors.As(err, &canceled):
		h.cancel()
		return nil
	case errors.As(err, &notFound):
		h.halt(errors.New("the server no longer knows this attempt of the row (it timed out and went to another worker, or the batch ended)"))
	}
	return err
}

// cancel stops the row between steps, unless stopping there would leave
// a step with an effect beyond the browser in doubt: then at the end of
// its loop item, or the row's end.
func (h *heartbeat) cancel() {
	h.mu.Lock()
	h.cancelAsked = true
	_, doubt := h.p.InDoubt()
	h.mu.Unlock()
	if !doubt {
		h.halt(nil)
	}
}

func (h *heartbeat) halt(lost error) {
	h.stopOnce.Do(func() {
		h.mu.Lock()
		h.lost = lost
		h.mu.Unlock()
		close(h.stop)
	})
}

// every sends the progress every d until ctx ends.
func (h *heartbeat) every(ctx context.Context, d time.Duration) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = h.beat(ctx) // a missed beat is retried at the next tick; the server times out a silent attempt
		}
	}
}

// journaled takes the run's journal id and sends it at once: a retry of
// a row killed in its first step still resumes (names) its run.
func (h *heartbeat) journaled(id string) {
	h.mu.Lock()
	h.p.Run = id
	h.mu.Unlock()
	_ = h.beat(context.Background()) // the ticker sends it again if this one is lost
}

func (h *heartbeat) loops(ls []runtime.LoopPos) []journal.LoopPos {
	out := make([]journal.LoopPos, len(ls))
	for i, l := range ls {
		out[i] = journal.LoopPos{Var: l.Var, Index: l.Index, Key: h.secrets.String(l.Key)}
	}
	return out
}

// Intent implements runtime.IntentObserver: a step with an effect beyond
// the browser is on the server before it acts, or it does not act.
func (h *heartbeat) Intent(s runtime.StepReport) error {
	if !effectful(s.Op) {
		return nil
	}
	h.mu.Lock()
	h.p.Effects = append(h.p.Effects, Mark{Step: s.Step, Line: s.Line, Op: s.Op, Loop: h.loops(s.Loops)})
	h.mu.Unlock()
	if err := h.lostErr(); err != nil {
		return err
	}
	if err := h.beat(context.Background()); err != nil {
		return err
	}
	return h.lostErr()
}

// lostErr says why this attempt may no longer act, nil while it may.
func (h *heartbeat) lostErr() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lost
}

// Step implements runtime.Observer.
func (h *heartbeat) Step(s runtime.StepReport) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.p.Steps++
	h.p.Last = s.Step
	if effectful(s.Op) {
		for i := len(h.p.Effects) - 1; i >= 0; i-- {
			if m := &h.p.Effects[i]; m.Step == s.Step && m.Line == s.Line && m.Outcome == "" {
				m.Outcome = s.Outcome
				break
			}
		}
	}
}

// IterationDone implements runtime.Observer: the item's marks are no
// longer needed (a resume skips the item).
func (h *heartbeat) IterationDone(ls []runtime.LoopPos) {
	h.mu.Lock()
	h.p.Done = append(h.p.Done, h.loops(ls))
	kept := h.p.Effects[:0]
	for _, m := range h.p.Effects {
		if !h.p.finished(m.Loop) {
			kept = append(kept, m)
		}
	}
	h.p.Effects = kept
	_, doubt := h.p.InDoubt()
	stop := h.cancelAsked && !doubt
	h.mu.Unlock()
	if stop {
		h.halt(nil) // the cancel that waited for this item
	}
}

// Interrupted implements runtime.Observer.
func (h *heartbeat) Interrupted(runtime.Position) {}
