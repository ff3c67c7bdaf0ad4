package runtime

import (
	"context"
	"errors"
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/driver"
)

// try and fallback: a step failure in a try's body ends the body there and
// runs the fallback instead. What a fallback may catch is narrow on
// purpose: a step that failed on the screen as it is (an anchor that
// matched nothing, a failed assert, an action the app refused). Everything
// that says the run itself must stop passes through: an interrupt, the
// browser or device gone, a step in doubt, a journal that cannot be
// written, a safety or budget stop (ErrStopsRun).

// ErrStopsRun marks an error that ends the run whatever encloses the step
// that met it: a try's fallback never catches it. StopsRun wraps an error
// with it; the message is the wrapped error's.
var ErrStopsRun = errors.New("stops the run")

// StopsRun marks err as a stop of the run (errors.Is(err, ErrStopsRun)),
// for refusals by a safety rule and spent budgets. Nil stays nil.
func StopsRun(err error) error {
	if err == nil {
		return nil
	}
	return &runStop{err: err}
}

type runStop struct{ err error }

func (e *runStop) Error() string        { return e.err.Error() }
func (e *runStop) Unwrap() error        { return e.err }
func (e *runStop) Is(target error) bool { return target == ErrStopsRun }

// Catchable reports whether a try's fallback may take over from err: a
// step that failed (*StepError) for a reason of the screen, not one of
// the stops above.
func Catchable(err error) bool {
	var se *StepError
	var je *JournalError
	switch {
	case !errors.As(err, &se),
		errors.Is(err, ErrInterrupted),
		errors.Is(err, context.Canceled),
		errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, driver.ErrGone),
		errors.Is(err, ErrStopsRun),
		errors.As(err, &je):
		return false
	}
	return true
}

// FallbackReport is what an observer learns when a try's body failed and
// its fallback takes over: the try's line, the loop iterations it is in,
// and the step whose failure sent the run to the fallback, with its error.
type FallbackReport struct {
	Line  int
	Loops []LoopPos
	Step  string
	Err   error
}

// FallbackObserver is an Observer that is told when a try's fallback
// takes over; the journal is one, so that a resume goes on in the
// fallback instead of running the body again.
type FallbackObserver interface {
	Fallback(FallbackReport)
}

// try runs a try's body; when a step in it fails (Catchable), the rest of
// the body is skipped and the fallback runs. The steps of the body that
// finished keep their effects. A resumed run whose earlier run had
// already fallen back at this try and iteration (Options.FellBack) goes
// straight to the fallback. Each arm's steps report it in their branches
// ("line 5: try", "line 5: fallback").
func (in *Interp) try(ctx context.Context, s *ast.TryStmt) error {
	line := in.lineAt(s.Range)
	if in.opts.FellBack == nil || !in.opts.FellBack(line, in.position()) {
		err := in.branch(ctx, line, "try", s.Body)
		if err == nil || !Catchable(err) {
			return err
		}
		in.fellBack(line, err)
	}
	err := in.branch(ctx, line, "fallback", s.Fallback)
	if !Catchable(err) {
		// Nil, a stop, or a break or continue for the enclosing loop
		// (compared as they are): passed on unchanged.
		return err
	}
	return fmt.Errorf("%s: the fallback of the try at line %d failed too: %w", s.Fallback.Range, line, err)
}

// fellBack tells the observers that a try's fallback takes over, and why.
func (in *Interp) fellBack(line int, err error) {
	rep := FallbackReport{Line: line, Loops: in.position(), Err: err}
	var se *StepError
	if errors.As(err, &se) {
		rep.Step = se.Step.Name.Name
	}
	notifyFallback(in.opts.Observer, rep)
}

func notifyFallback(o Observer, rep FallbackReport) {
	switch o := o.(type) {
	case Observers:
		for _, one := range o {
			notifyFallback(one, rep)
		}
	case FallbackObserver:
		o.Fallback(rep)
	}
}
