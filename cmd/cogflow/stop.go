package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/cogflow/cogflow/runtime"
)

// stopSignals are the signals that stop a run gracefully: the step in
// flight finishes and is journaled, then the run ends (exit 130). A second
// one stops at once; the step then acting is journaled as in doubt first
// (its intent is on disk before it acts).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// graceful watches for stop signals, and for parent ending (tests cancel
// it the way a person presses Ctrl-C). It returns the context for the
// driver and the actions, which only a second signal cancels, the channel
// the interpreter checks between steps, and a function that stops
// watching.
func graceful(parent context.Context, out io.Writer) (context.Context, <-chan struct{}, func()) {
	hard, cancel := context.WithCancel(context.WithoutCancel(parent))
	stop := make(chan struct{})
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	quit := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			fmt.Fprintf(out, "cogflow: %v: stopping after the step in flight; a second signal stops at once, leaving that step in doubt\n", s)
		case <-parent.Done():
		case <-quit:
			return
		}
		close(stop)
		select {
		case s := <-sigs:
			fmt.Fprintf(out, "cogflow: %v again: stopping at once\n", s)
			cancel()
		case <-quit:
		}
	}()
	return hard, stop, func() {
		signal.Stop(sigs)
		close(quit)
		cancel()
	}
}

// stopPlace remembers where an interrupted run stopped, for the
// `interrupted` line.
type stopPlace struct{ at runtime.Position }

func (p *stopPlace) Step(runtime.StepRecord)         {}
func (p *stopPlace) IterationDone([]runtime.LoopPos) {}
func (p *stopPlace) Interrupted(at runtime.Position) { p.at = at }

// lastFinished names the last step that finished before a stop.
func lastFinished(at runtime.Position, secrets []string) string {
	if at.Step == "" {
		return "before any step finished"
	}
	s := fmt.Sprintf("the last finished step %s (line %d)", at.Step, at.Line)
	for _, l := range at.Loops {
		s += fmt.Sprintf(" in %s[%d]", l.Var, l.Index)
		if l.Key != "" {
			s += " " + redact(strconv.Quote(truncateLine(l.Key, 30)), secrets)
		}
	}
	return s
}
