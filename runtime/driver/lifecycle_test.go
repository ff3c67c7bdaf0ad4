package driver_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

var errBoom = errors.New("boom")

// TestLifecycleRun checks the one shape of a call's error: prefix, op,
// time-out and gone, with errors.Is seeing through all of them.
func TestLifecycleRun(t *testing.T) {
	goneIfBoom := func(err error) error {
		if errors.Is(err, errBoom) {
			return &driver.GoneError{What: "the device went away", Err: err}
		}
		return err
	}
	tests := []struct {
		name    string
		timeout time.Duration // the call's; zero: the default (50 ms)
		gone    func(error) error
		fn      func(ctx context.Context) error
		want    string // the whole message; "" for no error
		is      []error
		isNot   []error
	}{
		{name: "ok", fn: func(context.Context) error { return nil }},
		{name: "error is wrapped", fn: func(context.Context) error { return errBoom },
			want: "test: click: boom", is: []error{errBoom}, isNot: []error{driver.ErrGone}},
		{name: "default time-out", fn: waitDone,
			want: "test: click: timed out after 50ms: context deadline exceeded", is: []error{context.DeadlineExceeded}},
		{name: "the call's time-out", timeout: 20 * time.Millisecond, fn: waitDone,
			want: "test: click: timed out after 20ms: context deadline exceeded"},
		{name: "said once", fn: func(ctx context.Context) error {
			<-ctx.Done()
			return errors.New("timed out waiting for the page")
		}, want: "test: click: timed out waiting for the page"},
		{name: "an error before the deadline is not a time-out", timeout: time.Hour,
			fn: func(context.Context) error { return errBoom }, want: "test: click: boom"},
		{name: "gone", gone: goneIfBoom, fn: func(context.Context) error { return errBoom },
			want: "test: click: the device went away (boom)", is: []error{driver.ErrGone, errBoom}},
		{name: "gone after the deadline is not told as a time-out", gone: goneIfBoom, fn: func(ctx context.Context) error {
			<-ctx.Done()
			return errBoom
		}, want: "test: click: the device went away (boom)", is: []error{driver.ErrGone}},
		{name: "gone leaves other errors", gone: goneIfBoom, fn: func(context.Context) error { return errors.New("no such element") },
			want: "test: click: no such element", isNot: []error{driver.ErrGone}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := driver.NewLifecycle("test", 0, 50*time.Millisecond, tt.gone)
			err := l.Run(context.Background(), "click", tt.timeout, tt.fn)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("err = %v, want none", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
			for _, target := range tt.is {
				if !errors.Is(err, target) {
					t.Errorf("errors.Is(%v, %v) = false", err, target)
				}
			}
			for _, target := range tt.isNot {
				if errors.Is(err, target) {
					t.Errorf("errors.Is(%v, %v) = true", err, target)
				}
			}
		})
	}
}

func waitDone(ctx context.Context) error {
	<-ctx.Done()
	return ctx.Err()
}

// TestLifecycleTimeouts checks which time-out bounds a call.
func TestLifecycleTimeouts(t *testing.T) {
	tests := []struct {
		name          string
		opts, def     time.Duration
		call          time.Duration
		wantDefault   time.Duration
		wantCallBound time.Duration
	}{
		{name: "the driver's default", def: 20 * time.Second, wantDefault: 20 * time.Second, wantCallBound: 20 * time.Second},
		{name: "the options'", opts: 3 * time.Second, def: 20 * time.Second, wantDefault: 3 * time.Second, wantCallBound: 3 * time.Second},
		{name: "the call's", opts: 3 * time.Second, def: 20 * time.Second, call: time.Second, wantDefault: 3 * time.Second, wantCallBound: time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := driver.NewLifecycle("test", tt.opts, tt.def, nil)
			if l.Timeout() != tt.wantDefault {
				t.Errorf("Timeout() = %v, want %v", l.Timeout(), tt.wantDefault)
			}
			start := time.Now()
			var left time.Duration
			_ = l.Run(context.Background(), "op", tt.call, func(ctx context.Context) error {
				dl, ok := ctx.Deadline()
				if !ok {
					t.Fatal("the call's context has no deadline")
				}
				left = dl.Sub(start)
				return nil
			})
			if left < tt.wantCallBound || left > tt.wantCallBound+time.Second/2 {
				t.Errorf("the call was bounded by %v, want %v", left, tt.wantCallBound)
			}
		})
	}
}

// TestLifecycleClose checks that Close releases once and that calls after
// it fail with ErrClosed without running.
func TestLifecycleClose(t *testing.T) {
	l := driver.NewLifecycle("test", 0, time.Second, nil)
	released := 0
	release := func() error { released++; return errBoom }
	if err := l.Close(release); !errors.Is(err, errBoom) {
		t.Errorf("first Close = %v, want the release's error", err)
	}
	if err := l.Close(release); err != nil || released != 1 {
		t.Errorf("second Close = %v after %d releases, want nil after 1", err, released)
	}
	ran := false
	err := l.Run(context.Background(), "click", 0, func(context.Context) error { ran = true; return nil })
	if ran || !errors.Is(err, driver.ErrClosed) || err.Error() != "test: the driver is closed" {
		t.Errorf("Run after Close: ran %v, err %v; want not run, \"test: the driver is closed\"", ran, err)
	}
}

// TestLifecycleOneAtATime checks that calls do not overlap, and that a
// call that panics releases the lock.
func TestLifecycleOneAtATime(t *testing.T) {
	l := driver.NewLifecycle("test", 0, time.Second, nil)
	var in, most atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = l.Run(context.Background(), "op", 0, func(context.Context) error {
				n := in.Add(1)
				if n > most.Load() {
					most.Store(n)
				}
				time.Sleep(time.Millisecond)
				in.Add(-1)
				return nil
			})
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Errorf("%d calls ran at once, want 1", most.Load())
	}
	func() {
		defer func() { _ = recover() }()
		_ = l.Run(context.Background(), "op", 0, func(context.Context) error { panic("bug") })
	}()
	done := make(chan struct{})
	go func() {
		l.Lock()
		l.Unlock()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a call that panicked kept the lock")
	}
}

// opName stands for a named string type of action names.
type opName string

// TestLifecycleCall checks that Call returns fn's value with the wrapped
// error, a partial value too, and takes an op of any string type.
func TestLifecycleCall(t *testing.T) {
	l := driver.NewLifecycle("test", 0, time.Second, nil)
	tests := []struct {
		name    string
		v       int
		err     error
		wantErr string
	}{
		{name: "value", v: 7},
		{name: "partial value with its error", v: 3, err: errBoom, wantErr: "test: click: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := driver.Call(context.Background(), l, opName("click"), 0, func(context.Context) (int, error) { return tt.v, tt.err })
			if v != tt.v {
				t.Errorf("v = %d, want %d", v, tt.v)
			}
			if (err == nil) != (tt.wantErr == "") || err != nil && (err.Error() != tt.wantErr || !errors.Is(err, tt.err)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}
