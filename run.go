package cogflow

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

// RunOptions configure one run of a workflow.
type RunOptions struct {
	// Task is the task to run; "": the first.
	Task string
	// Inputs are the raw values of the task's inputs (a CSV row, --input);
	// inputs not given take their defaults.
	Inputs map[string]string
	// Driver acts on the UI. Nil: the driver the task names is opened with
	// DriverOptions, and closed when the run ends. A driver given here is
	// the caller's to close; concurrent runs need one driver each.
	Driver        driver.Driver
	DriverOptions driver.Options
	// Answerers answer cognitive dependencies the structural answerer
	// cannot, tried in order: a model (ModelAnswerer), a person
	// (runtime.AskAnswerer), a test's stand-in.
	Answerers []Answerer
	// Observer receives every step as it finishes (a progress display).
	Observer Observer
	// Logger, when set, gets one record per step: its name, line,
	// operation, outcome and duration (values and errors redacted).
	Logger *slog.Logger
	// JournalDir is where the run is journaled (".cogflow"); "": no
	// journal, and the run cannot be resumed.
	JournalDir string
	// Row is the CSV row this run works on, 1 for the first, for the
	// journal; 0 when the run has no rows.
	Row int
	// Batch is the id of the batch (journal.NewBatch) this run is a row
	// of, for the journal; "" for a run on its own.
	Batch string
	// Yes confirms `confirm` steps without asking; StepByStep asks before
	// every step; Prompter asks the person at the terminal (nil: nobody is
	// there, so confirm steps fail unless Yes).
	Yes, StepByStep bool
	Prompter        runtime.Prompter
	// Screenshots saves a screenshot after every step (in the journal).
	Screenshots bool
	// AllowOrigins widens the URL policy for URLs that come from a model
	// or the page (cogflow.hcl's urls block).
	AllowOrigins []string
	// Secrets is shared with the caller's output (redaction); nil: a set
	// of the task's secret inputs. The run adds what it derives from them.
	Secrets *redact.Set
	// Stop, once closed, ends the run gracefully after the step (and loop
	// item) in flight; the run then returns ErrInterrupted.
	Stop <-chan struct{}
	// Resume continues an interrupted run (TakeResumable); nil: a new run.
	Resume *Resumption
	// Heal makes a step whose target is missing explore the app for it
	// (cogflow run --heal); Result.Heals holds the paths found, which
	// ProposePatch turns into a patch of the workflow.
	Heal bool
	// Explore configures explorations (heal, explore blocks, explore<…>):
	// the model, the knowledge store.
	Explore runtime.ExploreConfig
	// Journaled, when set, is told the run's id as soon as its journal is
	// open, before any step: a Temporal worker puts it in its heartbeats.
	Journaled func(runID string)
}

// Resumption is an earlier run being continued: its finished loop items
// are skipped, and its step in doubt settled as Settle says.
type Resumption struct {
	Prev *journal.Run
	// Settle is what to do with the step Prev left in doubt, nil if none;
	// Settled journals it; Skip is the loop item skipped with it.
	Settle  *runtime.Settle
	Settled *journal.Settlement
	Skip    []journal.LoopPos
}

// Result is what a run did.
type Result struct {
	// RunID names the run's journal ("" without one).
	RunID string
	Stats runtime.Stats
	// Stopped is where an interrupted run stopped: the last step that
	// finished and its loop items.
	Stopped runtime.Position
	// JournalErr is the first error writing the journal: the run goes on
	// when its journal fails (a full disk), and says so here.
	JournalErr error
	// Heals are the paths healing found (RunOptions.Heal), one per step.
	Heals []runtime.Heal
}

// Run runs a task of the workflow. The error is nil when every step ran;
// otherwise errors.As and errors.Is tell the cases apart: *StepError (a
// step failed, with its position), *AnchorError inside it (no element
// matched), ErrInterrupted (Stop or ctx), driver.ErrGone (the browser or
// device went away). A Result is returned whenever the run started.
//
// Run may be called concurrently on one Workflow.
func (w *Workflow) Run(ctx context.Context, opts RunOptions) (*Result, error) {
	if w.diags.HasErrors() || w.file == nil {
		return nil, &LoadError{Name: w.name, Diags: w.diags}
	}
	task, err := w.Task(opts.Task)
	if err != nil {
		return nil, err
	}
	drv := opts.Driver
	if drv == nil {
		if drv, err = driver.Open(ctx, runtime.DriverOf(task), opts.DriverOptions); err != nil {
			return nil, err
		}
		defer drv.Close()
	}
	secrets := opts.Secrets
	if secrets == nil {
		secrets = redact.New(runtime.SecretInputs(task, opts.Inputs)...)
	}
	ro := runtime.Options{Inputs: opts.Inputs, Yes: opts.Yes, StepByStep: opts.StepByStep, Prompter: opts.Prompter,
		Answerers: opts.Answerers, AllowOrigins: opts.AllowOrigins, Screenshots: opts.Screenshots, Stop: opts.Stop, Secrets: secrets,
		Heal: opts.Heal, Explore: opts.Explore}
	if w.knowledge != nil {
		ro.IrreversibleWords = w.knowledge.Irreversible
	}
	if r := opts.Resume; r != nil {
		ro.Done, ro.Broke, ro.Settle = runtime.DoneIn(r.Prev, r.Skip), runtime.BrokeIn(r.Prev), r.Settle
		ro.FellBack = runtime.FellBackIn(r.Prev)
	}
	res := &Result{}
	stopped := &stopPlace{}
	recs := runtime.Observers{stopped}
	jr, err := w.openJournal(task, opts, secrets)
	if err != nil {
		return nil, err
	}
	if jr != nil {
		res.RunID = jr.W.ID()
		if opts.Journaled != nil {
			opts.Journaled(res.RunID)
		}
		recs = append(runtime.Observers{jr}, recs...)
	}
	if opts.Observer != nil {
		recs = append(recs, opts.Observer)
	}
	if opts.Logger != nil {
		recs = append(recs, stepLogger{log: opts.Logger, secrets: secrets})
	}
	ro.Observer = recs
	var runErr error
	in := runtime.New(w.file, task, w.info, drv, ro)
	res.Stats, runErr = in.Run(ctx)
	res.Heals = in.Heals()
	res.Stopped = stopped.at
	if jr != nil {
		outcome := journal.OK
		switch {
		case errors.Is(runErr, runtime.ErrInterrupted):
			outcome = journal.Interrupted
		case runErr != nil:
			outcome = journal.Failed
		}
		if err := jr.W.Finish(outcome, runErr); err != nil && jr.Err == nil {
			jr.Err = err
		}
		res.JournalErr = jr.Err
	}
	return res, runErr
}

// openJournal opens the run's journal in opts.JournalDir; nil without one.
func (w *Workflow) openJournal(task *ast.Task, opts RunOptions, secrets *redact.Set) (*runtime.JournalObserver, error) {
	if opts.JournalDir == "" {
		return nil, nil
	}
	meta := journal.RunMeta{Workflow: w.name, Task: task.Name.Name, Driver: runtime.DriverOf(task), Inputs: opts.Inputs,
		Row: opts.Row - 1, Batch: opts.Batch, Secrets: secrets, WorkflowSHA256: w.SHA256()}
	if r := opts.Resume; r != nil {
		meta.Resume, meta.Settled = r.Prev.ID, r.Settled
	}
	jw, err := journal.Open(opts.JournalDir, meta)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &runtime.JournalObserver{W: jw, Task: task.Name.Name}, nil
}

// stopPlace keeps where an interrupted run stopped.
type stopPlace struct{ at runtime.Position }

func (p *stopPlace) Step(runtime.StepReport)         {}
func (p *stopPlace) IterationDone([]runtime.LoopPos) {}
func (p *stopPlace) Interrupted(at runtime.Position) { p.at = at }

// stepLogger logs each step to a slog.Logger, redacted.
type stepLogger struct {
	log     *slog.Logger
	secrets *redact.Set
}

func (l stepLogger) Step(s runtime.StepReport) {
	attrs := []any{"step", s.Step, "line", s.Line, "op", s.Op, "outcome", s.Outcome, "duration", s.Duration}
	if s.Err != nil {
		attrs = append(attrs, "error", l.secrets.String(s.Err.Error()))
	}
	l.log.Info("step", attrs...)
}

func (l stepLogger) IterationDone(loops []runtime.LoopPos) {
	if n := len(loops); n > 0 {
		l.log.Info("iteration done", "var", loops[n-1].Var, "index", loops[n-1].Index)
	}
}

func (l stepLogger) Interrupted(at runtime.Position) {
	l.log.Info("interrupted", "after", at.Step, "line", at.Line)
}
