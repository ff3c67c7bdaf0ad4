package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// ErrClosed is wrapped by the errors of calls on a driver after its Close.
var ErrClosed = errors.New("the driver is closed")

// Lifecycle is the part of a driver that every driver shares: its calls
// run one at a time, none after Close, each bounded by a time-out, and
// their errors read the same in every driver — "NAME: OP: …", with
// "timed out after D: " when the time-out ended the call and a
// *GoneError when the browser or device went away.
//
// A driver keeps one as a named field rather than embedding it: its
// methods (Run, Close, Lock) are not the driver's API.
type Lifecycle struct {
	name    string
	timeout time.Duration
	gone    func(error) error

	mu     sync.Mutex
	closed bool
}

// NewLifecycle returns the lifecycle of the driver called name ("browser",
// "android", "uia"), which starts every error. Calls are bounded by
// timeout, or by def when timeout is not positive (Options.ActionTimeout
// and the driver's DefaultActionTimeout). gone, when not nil, is given
// every failure before it is wrapped, and returns a *GoneError for one that
// shows the browser or device went away (or the error as it is): a driver
// that cannot tell at its transport level tells here.
func NewLifecycle(name string, timeout, def time.Duration, gone func(error) error) *Lifecycle {
	if timeout <= 0 {
		timeout = def
	}
	return &Lifecycle{name: name, timeout: timeout, gone: gone}
}

// Timeout is the default time-out of a call.
func (l *Lifecycle) Timeout() time.Duration { return l.timeout }

// Run runs fn as the call op of the driver: with the driver locked, after
// checking it is not closed, with ctx bounded by timeout (the default
// time-out when not positive). fn's error comes back wrapped, so that
// errors.Is sees through to it.
func (l *Lifecycle) Run(ctx context.Context, op string, timeout time.Duration, fn func(ctx context.Context) error) error {
	if timeout <= 0 {
		timeout = l.timeout
	}
	timedOut, err := l.run(ctx, timeout, fn)
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrClosed) {
		return fmt.Errorf("%s: %w", l.name, err)
	}
	return l.wrap(op, timeout, timedOut, err)
}

// run holds the lock only while fn runs, released even if fn panics; the
// wrapping after it (a gone check may wait for a process to exit) does not
// need it.
func (l *Lifecycle) run(ctx context.Context, timeout time.Duration, fn func(ctx context.Context) error) (timedOut bool, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false, ErrClosed
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err = fn(ctx)
	return errors.Is(ctx.Err(), context.DeadlineExceeded), err
}

// wrap gives a failed call's error its one shape.
func (l *Lifecycle) wrap(op string, timeout time.Duration, timedOut bool, err error) error {
	if l.gone != nil {
		err = l.gone(err)
	}
	// A deadline is the likeliest cause of whatever failed once it passed;
	// an error that says it timed out already is not told twice.
	if timedOut && !errors.Is(err, ErrGone) && !strings.Contains(err.Error(), "timed out") {
		err = fmt.Errorf("timed out after %v: %w", timeout, err)
	}
	return fmt.Errorf("%s: %s: %w", l.name, op, err)
}

// Lock takes the driver's lock for work outside Run that must not
// interleave with a call (a recording's setup, a tab it attaches).
func (l *Lifecycle) Lock() { l.mu.Lock() }

// Unlock releases the lock Lock took.
func (l *Lifecycle) Unlock() { l.mu.Unlock() }

// Closed reports whether Close has run. The caller holds the lock.
func (l *Lifecycle) Closed() bool { return l.closed }

// Close marks the driver closed and runs release once, with the lock held;
// later calls return nil. Calls after it fail with ErrClosed.
func (l *Lifecycle) Close(release func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	if release == nil {
		return nil
	}
	return release()
}

// Call is Run for a call that returns a value, which comes back with the
// wrapped error (a driver may return a partial result with its error). op
// is any string type, so that an action's name passes as it is.
func Call[T any, O ~string](ctx context.Context, l *Lifecycle, op O, timeout time.Duration, fn func(ctx context.Context) (T, error)) (T, error) {
	var v T
	err := l.Run(ctx, string(op), timeout, func(ctx context.Context) (err error) {
		v, err = fn(ctx)
		return err
	})
	return v, err
}
