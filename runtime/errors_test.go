package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestTypedErrors: a caller tells a run's failures apart with errors.As
// and errors.Is, and finds the failed step's position in the first two.
func TestTypedErrors(t *testing.T) {
	const src = "task t {\n  driver browser\n  op1 = click(button(\"Save\"))\n  op2 = click(button(\"Delete\"))\n}"
	page := func() *drivertest.Fake {
		return drivertest.New(&driver.Tree{Elements: []*driver.Element{el("s", "button", "Save"), el("d", "button", "Delete")}})
	}
	tests := []struct {
		name  string
		fake  func() *drivertest.Fake
		ctx   func() (context.Context, context.CancelFunc)
		check func(t *testing.T, err error)
	}{
		{"anchor miss", func() *drivertest.Fake {
			return drivertest.New(&driver.Tree{Elements: []*driver.Element{el("s", "button", "Save")}})
		}, nil, func(t *testing.T, err error) {
			var se *runtime.StepError
			var ae *runtime.AnchorError
			if !errors.As(err, &se) || !errors.As(err, &ae) {
				t.Fatalf("err = %v, want a StepError holding an AnchorError", err)
			}
			if se.StepName() != "op2" || se.Position().Filename != "t.cog" || se.Position().Start.Line != 4 || se.Position().Start.Column != 3 {
				t.Errorf("step %s at %v, want op2 at t.cog:4:3", se.StepName(), se.Position())
			}
			if ae.Ambiguous || ae.Locator != `button(name: "Delete")` {
				t.Errorf("anchor error %+v", ae)
			}
		}},
		{"driver gone", func() *drivertest.Fake {
			f := page()
			f.Fail, f.FailErr = 2, fmt.Errorf("the browser exited: %w", driver.ErrGone)
			return f
		}, nil, func(t *testing.T, err error) {
			var se *runtime.StepError
			if !errors.Is(err, driver.ErrGone) || !errors.As(err, &se) || se.StepName() != "op2" {
				t.Fatalf("err = %v, want op2's StepError wrapping driver.ErrGone", err)
			}
			if errors.Is(err, runtime.ErrInterrupted) {
				t.Errorf("a driver gone is not an interrupt: %v", err)
			}
		}},
		{"interrupt", page, func() (context.Context, context.CancelFunc) {
			return context.WithCancel(context.Background())
		}, func(t *testing.T, err error) {
			var ie *runtime.InterruptedError
			if !errors.Is(err, runtime.ErrInterrupted) || !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an InterruptedError", err)
			}
			if ie.At.Step != "op1" || ie.At.Line != 3 {
				t.Errorf("stopped at %+v, want after op1 (line 3)", ie.At)
			}
			var se *runtime.StepError
			if errors.As(err, &se) {
				t.Errorf("an interrupt is not a step failure: %v", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, task, info := load(t, src)
			f := tt.fake()
			ctx := context.Background()
			if tt.ctx != nil {
				var cancel context.CancelFunc
				ctx, cancel = tt.ctx()
				defer cancel()
				// Cancelled once op1 acted: the run stops before op2.
				f.OnAction = func(n int, _ driver.Action) {
					if n == 1 {
						cancel()
					}
				}
			}
			_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(ctx)
			tt.check(t, err)
		})
	}
}
