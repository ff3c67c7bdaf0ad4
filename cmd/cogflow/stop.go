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
	"github.com/cogflow/cogflow/runtime/redact"
)

// runHelpText is the part of `cogflow help run` about stopping and
// resuming (docs/running.md, "What happens when a run is interrupted").
const runHelpText = `Stopping: Ctrl-C, SIGTERM or SIGHUP lets the step in flight finish (inside a
loop, the loop item in flight), journals it, and exits 130 naming the last
finished step. A second signal stops at once; the step then acting is in doubt.

Every step's intent is synced to the journal before it acts. A step whose
outcome is missing (kill -9, a crash) or in_doubt (the browser exited: exit 5)
may or may not have taken effect. --resume reports it (line, loop item,
arguments); a typed field or an opened URL is done again and read back;
otherwise --in-doubt decides: skip (its loop item counts as done), redo (the
item runs again), ask (at a terminal). Without it, the step's own in_doubt:
in the workflow decides (click(…, in_doubt: "skip")); without either, a
resume asks, and with no terminal refuses (exit 2).

--resume takes the newest unfinished run of this workflow and task (with the
--input values given, if any), under an OS lock: a run in use is refused. It
refuses a changed workflow file or different inputs, and reuses the run's
inputs; secret inputs must be given again.

--inputs rows.csv runs one row after another under one batch record;
--parallel N runs N rows at once, each worker in a browser context of its own
(--isolate row: each row). Ctrl-C
starts no new row and stops each row between steps unless it already did a
step a resume cannot repeat (then it finishes the row). --resume with the
same --inputs, or --resume-batch ID, runs exactly the rows not ended ok
(docs/scale.md).

A URL that open() or new_tab() gets from a model or from the page must be
http(s) on an origin the workflow names; cogflow.hcl widens that with
urls { allow = ["https://docs.example.com", "https://*.example.org"] }
(docs/running.md, "What a model's answer may do").
`

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
			fmt.Fprintf(out, "cogflow: %v: stopping after the step in flight (in a loop, after the loop item in flight); a second signal stops at once, leaving the step then acting in doubt\n", s)
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

// lastFinished names the last step that finished before a stop.
func lastFinished(at runtime.Position, secrets *redact.Set) string {
	if at.Step == "" {
		return "before any step finished"
	}
	s := fmt.Sprintf("the last finished step %s (line %d)", at.Step, at.Line)
	for _, l := range at.Loops {
		s += fmt.Sprintf(" in %s[%d]", l.Var, l.Index)
		if l.Key != "" {
			s += " " + secrets.String(strconv.Quote(truncateLine(l.Key, 30)))
		}
	}
	return s
}
