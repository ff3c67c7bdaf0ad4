package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// intentRecorder is a recorder with a write-ahead journal: it notes, for
// every intent, how many actions the driver had done by then.
type intentRecorder struct {
	recorder
	f       *drivertest.Fake
	intents []int // len(f.Log) at each intent
	fail    error
}

func (r *intentRecorder) Intent(s runtime.StepReport) error {
	if r.fail != nil {
		return r.fail
	}
	r.intents = append(r.intents, len(r.f.Log))
	return nil
}

// TestGracefulStopFinishesItem: a stop asked for while an item's first
// step acts lets that item finish, then the run stops naming the item's
// last step.
func TestGracefulStopFinishesItem(t *testing.T) {
	file, task, info := load(t, readingList)
	f := readingTable()
	stop := make(chan struct{})
	f.OnAction = func(n int, a driver.Action) {
		if n == 3 { // the second item's copy
			close(stop)
		}
	}
	rec := &recorder{}
	_, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec, Stop: stop}).Run(context.Background())
	if !errors.Is(err, runtime.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if len(rec.iterations) != 2 || len(f.Log) != 4 {
		t.Fatalf("%d items finished, %d actions; want 2 and 4", len(rec.iterations), len(f.Log))
	}
	at := rec.interrupted
	if at.Step != "op2" || len(at.Loops) != 1 || at.Loops[0].Index != 1 {
		t.Errorf("stopped at %+v, want op2 in the second item", at)
	}
	for _, s := range rec.steps {
		if s.Outcome != "ok" {
			t.Errorf("step %s: %s", s.Step, s.Outcome)
		}
	}
}

func TestIntentBeforeAction(t *testing.T) {
	file, task, info := load(t, readingList)
	f := readingTable()
	rec := &intentRecorder{f: f}
	if _, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(rec.intents) != 6 {
		t.Fatalf("%d intents for 6 steps", len(rec.intents))
	}
	for i, n := range rec.intents {
		if n != i {
			t.Errorf("intent %d written after %d actions, want before action %d", i+1, n, i+1)
		}
	}
}

func TestIntentErrorStopsBeforeActing(t *testing.T) {
	file, task, info := load(t, readingList)
	f := readingTable()
	rec := &intentRecorder{f: f, fail: errors.New("no space left on device")}
	_, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec}).Run(context.Background())
	var je *runtime.JournalError
	if !errors.As(err, &je) || len(f.Log) != 0 {
		t.Fatalf("err = %v after %d actions; want a JournalError before any", err, len(f.Log))
	}
}

// goneDriver is the fake whose browser exits during action n.
type goneDriver struct {
	*drivertest.Fake
	n int
}

func (g *goneDriver) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	if len(g.Log)+1 == g.n {
		g.Log = append(g.Log, a)
		return driver.Result{}, &driver.GoneError{What: "the browser exited"}
	}
	return g.Fake.Do(ctx, a)
}

func TestBrowserExitLeavesStepInDoubt(t *testing.T) {
	file, task, info := load(t, readingList)
	g := &goneDriver{Fake: readingTable(), n: 4}
	rec := &intentRecorder{f: g.Fake}
	_, err := runtime.New(file, task, info, g, runtime.Options{Observer: rec}).Run(context.Background())
	if !errors.Is(err, driver.ErrGone) {
		t.Fatalf("err = %v, want the browser exited", err)
	}
	last := rec.steps[len(rec.steps)-1]
	if last.Outcome != "in_doubt" || last.Step != "op2" || last.Loops[0].Index != 1 {
		t.Errorf("last step %s %s in item %d, want op2 in_doubt in item 1", last.Step, last.Outcome, last.Loops[0].Index)
	}
}
