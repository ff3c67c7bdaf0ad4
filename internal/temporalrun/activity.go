package temporalrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

// Runner runs rows on a worker: the activity.
type Runner struct {
	// Client is the worker's client, for the synchronous heartbeats.
	Client client.Client
	// Dir is the journal folder (--dir) rows are journaled in.
	Dir string
	// Driver opens each row's driver when OpenDriver is nil: a fresh
	// Chromium per row, or a session on the remote browser (RemoteURL).
	Driver driver.Options
	// OpenDriver, when set, gives each row its driver (a fresh browser
	// context of the worker's Chromium); the row closes it when it ends.
	OpenDriver func(ctx context.Context, name string) (driver.Driver, error)
	// Name names this worker in the rows' results and logs.
	Name string
	// Log gets one line per row started and ended (redacted).
	Log io.Writer
	// Answerers gives a row its answerers (the model), with the row's
	// secrets; nil: none.
	Answerers func(secrets *redact.Set) ([]cogflow.Answerer, error)
}

// RunRow is the activity: it runs one row, in one browser, journaled in
// r.Dir, with its progress in the heartbeats. A row another worker
// started is run again only when its progress shows no step with an
// effect beyond the browser started; otherwise the --in-doubt policy (or
// the step's in_doubt:) settles it.
//
// A row that ends — ok, failed, in doubt — is a result, not an error, so
// Temporal does not retry it; an error means the attempt did not get to
// an end (the browser could not start or went away, the worker is
// stopping) and Temporal retries it, on this worker or another.
func (r *Runner) RunRow(ctx context.Context, in Row) (RowResult, error) {
	info := activity.GetInfo(ctx)
	res := RowResult{Row: in.Row, Worker: r.Name, Attempt: int(info.Attempt)}
	w, diags := cogflow.LoadSource(in.Workflow, in.Source, cogflow.Options{})
	if diags.HasErrors() {
		var b bytes.Buffer
		w.Render(&b, diags)
		res.Status, res.Failure = string(journal.BadWorkflow), b.String()
		return res, nil
	}
	task, err := w.Task(in.Task)
	if err != nil {
		res.Status, res.Failure = string(journal.BadWorkflow), err.Error()
		return res, nil
	}
	secrets := redact.New(runtime.SecretInputs(task, in.Inputs)...)
	opts := cogflow.RunOptions{Task: task.Name.Name, Inputs: in.Inputs, DriverOptions: r.Driver, JournalDir: r.Dir,
		Row: in.Row, Batch: in.Batch, Yes: in.Settings.Yes, Screenshots: in.Settings.Screenshots, Secrets: secrets}
	var prev Progress
	if activity.HasHeartbeatDetails(ctx) {
		if err := activity.GetHeartbeatDetails(ctx, &prev); err != nil {
			return res, fmt.Errorf("row %d: reading the progress of its earlier attempt: %w", in.Row, err)
		}
	}
	if prev.Run != "" {
		settled, done := r.settle(w, in, prev, &res)
		if done {
			r.logf("row %d: %s: %s", in.Row, res.Status, res.Failure)
			return res, nil
		}
		opts.Resume = settled
	}
	if r.OpenDriver != nil {
		d, err := r.OpenDriver(ctx, runtime.DriverOf(task))
		if err != nil {
			// Another attempt, maybe on another worker, may have a browser.
			return res, fmt.Errorf("row %d: opening its driver: %w", in.Row, err)
		}
		defer d.Close()
		opts.Driver = d
	}
	if r.Answerers != nil {
		if opts.Answerers, err = r.Answerers(secrets); err != nil {
			res.Status, res.Failure = string(journal.Failed), secrets.String(err.Error())
			return res, nil
		}
	}
	// The loop items earlier attempts finished stay in the progress, so a
	// third attempt skips them too.
	hb := newHeartbeat(r.Client, info.TaskToken, secrets, Progress{Worker: r.Name, Attempt: int(info.Attempt), Done: prev.Done})
	opts.Observer, opts.Stop, opts.Journaled = hb, hb.stop, hb.journaled
	// The run is not cancelled with the activity's context: a cancellation
	// closes Stop (through the heartbeat), and the row stops between steps.
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if dl, ok := ctx.Deadline(); ok {
		runCtx, cancel = context.WithDeadline(context.WithoutCancel(ctx), dl)
	}
	defer cancel()
	go hb.every(runCtx, beatEvery(info.HeartbeatTimeout))
	go func() {
		select {
		case <-activity.GetWorkerStopChannel(ctx):
			hb.halt(errors.New("the worker is stopping"))
		case <-runCtx.Done():
		}
	}()
	r.logf("row %d: started on %s (attempt %d)", in.Row, r.Name, info.Attempt)
	result, runErr := w.Run(runCtx, opts)
	if result != nil {
		res.RunID = result.RunID
	}
	cancel()
	_ = hb.beat(context.WithoutCancel(ctx)) // the final progress, for a retry of an attempt that did not end
	return r.outcome(res, runErr, hb, secrets)
}

// outcome turns the run's error into the row's result or the attempt's
// error.
func (r *Runner) outcome(res RowResult, runErr error, hb *heartbeat, secrets *redact.Set) (RowResult, error) {
	switch {
	case runErr == nil:
		res.Status = string(journal.OK)
	case errors.Is(runErr, cogflow.ErrInterrupted) && hb.lostErr() == nil:
		r.logf("row %d: cancelled between steps (run %s)", res.Row, res.RunID)
		return res, temporal.NewCanceledError("row cancelled")
	case errors.Is(runErr, cogflow.ErrInterrupted) || errors.Is(runErr, cogflow.ErrGone):
		// The attempt is over without an end: Temporal gives the row
		// another attempt, which settles it from the progress.
		why := secrets.String(runErr.Error())
		if lost := hb.lostErr(); lost != nil {
			why = lost.Error()
		}
		r.logf("row %d: attempt %d ended early: %s", res.Row, res.Attempt, why)
		return res, errors.New(why)
	default:
		// The journal or the heartbeat before a step with an effect could
		// not be written: the step did not act, and another attempt may
		// succeed (it settles the row from what the server holds).
		var je *runtime.JournalError
		if errors.As(runErr, &je) {
			r.logf("row %d: attempt %d stopped before a step: %s", res.Row, res.Attempt, secrets.String(runErr.Error()))
			return res, errors.New(secrets.String(runErr.Error()))
		}
		res.Status, res.Failure = string(journal.Failed), secrets.String(runErr.Error())
	}
	r.logf("row %d: %s (run %s)", res.Row, res.Status, res.RunID)
	return res, nil
}

// settle applies the rule to a row an earlier attempt started: the
// resumption to run it with, or done with the row's result when it is not
// run again.
func (r *Runner) settle(w *cogflow.Workflow, in Row, prev Progress, res *RowResult) (*cogflow.Resumption, bool) {
	mark, doubt := prev.InDoubt()
	if !doubt {
		r.logf("row %d: attempt %d (run %s on %s) stopped before any step with an effect beyond the browser: running it again in a fresh browser", in.Row, prev.Attempt, prev.Run, prev.Worker)
		return &cogflow.Resumption{Prev: prev.asRun()}, false
	}
	intent := mark.Intent()
	policy, from := cogflow.SettlePolicy(w.File(), intent, in.Settings.InDoubt)
	where := fmt.Sprintf("step %s (line %d, %s) had started on %s in run %s", mark.Step, mark.Line, mark.Op, prev.Worker, prev.Run)
	if len(mark.Loop) > 0 {
		where += " in " + journal.Position{Loop: mark.Loop}.String()
	}
	switch policy {
	case "skip":
		if len(mark.Loop) == 0 {
			res.Status, res.RunID = StatusSkipped, prev.Run
			res.Failure = where + "; settled skip by " + from + ": the row counts as done and is not run again"
			return nil, true
		}
		return cogflow.Settlement(prev.asRun(), intent, policy, from), false
	case "redo":
		r.logf("row %d: in doubt: %s; settled redo by %s: running it again", in.Row, where, from)
		return cogflow.Settlement(prev.asRun(), intent, policy, from), false
	}
	res.Status, res.RunID = StatusInDoubt, prev.Run
	res.Failure = where + ", so it may have taken effect; nobody at a worker can be asked: submit the row again with --in-doubt=skip or redo once you know"
	return nil, true
}

// beatEvery is how often a row heartbeats: three times per time-out, so
// one lost beat does not lose the row.
func beatEvery(timeout time.Duration) time.Duration {
	if timeout <= 0 {
		return 10 * time.Second
	}
	return max(timeout/3, 100*time.Millisecond)
}

func (r *Runner) logf(format string, args ...any) {
	if r.Log != nil {
		fmt.Fprintf(r.Log, "cogflow worker: "+format+"\n", args...)
	}
}
