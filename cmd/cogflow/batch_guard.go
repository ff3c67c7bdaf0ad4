package main

import (
	"fmt"
	"sync"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
)

// rowGuard decides when a row of a batch stops after Ctrl-C. A resume
// does an unfinished row again from its start, as it does an unfinished
// loop item, so a row that stopped after a step a resume cannot repeat (a
// click that submitted a form: anything but journal.RepeatableOps) would
// take effect twice. So a row stops at the first step boundary after the
// batch's stop while it has done only repeatable steps outside loops, and
// once it has done another one it runs to its end, like the loop item in
// flight of a single run. Loop items keep the interpreter's own rule.
//
// It is the row's Observer (after the journal's): Intent sees a step
// before it acts, Step after it finished, and the row's Stop channel is
// closed only from Step — between two steps, never between a step's
// intent and its action — so a step the row had begun is always followed
// by the row's decision, never overtaken by it.
type rowGuard struct {
	batchStop <-chan struct{} // the batch's graceful stop (the first Ctrl-C)
	stop      chan struct{}   // the row's: runtime.Options.Stop

	mu        sync.Mutex
	closed    bool
	committed bool // a step outside loops that a resume cannot repeat has begun
	next      runtime.Observer
}

func newRowGuard(batchStop <-chan struct{}, next runtime.Observer) *rowGuard {
	return &rowGuard{batchStop: batchStop, stop: make(chan struct{}), next: next}
}

// Intent implements runtime.IntentObserver (after the journal has the
// intent on disk); it never refuses a step.
func (g *rowGuard) Intent(s runtime.StepReport) error {
	if len(s.Loops) == 0 && !journal.RepeatableOps[s.Op] {
		g.mu.Lock()
		g.committed = true
		g.mu.Unlock()
	}
	if ir, ok := g.next.(runtime.IntentObserver); ok {
		return ir.Intent(s)
	}
	return nil
}

// Step implements runtime.Observer: the point between steps where the row
// takes the batch's stop, if it may.
func (g *rowGuard) Step(s runtime.StepReport) {
	if g.next != nil {
		g.next.Step(s)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed || g.committed {
		return
	}
	select {
	case <-g.batchStop:
		g.closed = true
		close(g.stop)
	default:
	}
}

// IterationDone implements runtime.Observer.
func (g *rowGuard) IterationDone(l []runtime.LoopPos) {
	if g.next != nil {
		g.next.IterationDone(l)
	}
}

// Interrupted implements runtime.Observer.
func (g *rowGuard) Interrupted(at runtime.Position) {
	if g.next != nil {
		g.next.Interrupted(at)
	}
}

// stopped reports whether ch is closed.
func stopped(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Explored implements runtime.ExploreObserver for the observer it wraps.
func (g *rowGuard) Explored(r runtime.ExploreReport) {
	if eo, ok := g.next.(runtime.ExploreObserver); ok {
		eo.Explored(r)
	}
}

// checkRowResume refuses to resume a row whose latest run (id, under
// root) began a step outside any loop that a resume cannot repeat — a
// click that may have submitted the row — unless --in-doubt=redo says to
// do the row again anyway: a resume does a row again from its start, so
// that step would take effect twice. A step the run left in doubt itself
// (killed while acting) is settled by the resume's own rules instead.
func checkRowResume(root, id, inDoubt string) error {
	prev, err := journal.Load(root, id)
	if err != nil {
		return err
	}
	if _, doubt := prev.InDoubt(); doubt || inDoubt == "redo" {
		return nil
	}
	for i := len(prev.Intents) - 1; i >= 0; i-- {
		in := prev.Intents[i]
		if len(in.Loop) == 0 && !journal.RepeatableOps[in.Op] {
			return fmt.Errorf("run %s already did step %s (line %d, %s), which a resume cannot repeat safely, and a resume does the row again from its start: "+
				"it might take effect twice; check the row by hand, then --in-doubt=redo resumes it anyway", prev.ID, in.Step, in.Line, in.Op)
		}
	}
	return nil
}
