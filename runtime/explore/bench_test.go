package explore

import (
	"context"
	"fmt"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
)

// benchScreens is how many screens the benchmark's path crosses, and
// benchElements how many interactive elements each shows (a busy app
// screen).
const (
	benchScreens  = 20
	benchElements = 30
)

// chainApp is a driver over precomputed trees: element 0 of screen i
// leads to screen i+1; back returns. Observe and Do cost next to nothing,
// so what Explore takes beyond them is its own.
type chainApp struct {
	trees []*driver.Tree
	at    int
}

func newChainApp() *chainApp {
	c := &chainApp{}
	for i := range benchScreens + 1 {
		t := &driver.Tree{URL: "android-app://com.example.bench", Title: fmt.Sprintf("Screen %d", i)}
		for j := range benchElements {
			role := "button"
			if j%3 == 1 {
				role = "listitem"
			}
			t.Elements = append(t.Elements, &driver.Element{Ref: fmt.Sprintf("%d/%d", i, j), Role: role,
				Name: fmt.Sprintf("Item %d of screen %d", j, i), Text: fmt.Sprintf("Item %d details", j),
				Visible: true, Enabled: true, Parent: -1, Bounds: driver.Rect{X: 0, Y: float64(j * 50), W: 100, H: 40}})
		}
		c.trees = append(c.trees, t)
	}
	return c
}

func (c *chainApp) Observe(context.Context) (*driver.Tree, error) { return c.trees[c.at], nil }

func (c *chainApp) Do(_ context.Context, a driver.Action) (driver.Result, error) {
	switch {
	case a.Op == action.Back && c.at > 0:
		c.at--
	case a.Op == action.Click && a.Target == c.trees[c.at].Elements[0] && c.at < benchScreens:
		c.at++
	}
	return driver.Result{}, nil
}

func (c *chainApp) Screenshot(context.Context) ([]byte, error) { return nil, nil }
func (c *chainApp) Close() error                               { return nil }
func (c *chainApp) Capabilities() driver.Capabilities {
	return driver.Capabilities{Actions: []action.Name{action.Click, action.Back}}
}

// instantModel answers at once: candidate 1 scores 5, the others are left
// out (score 0).
type instantModel struct{ calls int }

func (m *instantModel) Complete(context.Context, llm.Request) (*llm.Response, error) {
	m.calls++
	return &llm.Response{Text: "1: 5"}, nil
}

func atLast(t *driver.Tree) (bool, error) {
	return t.Title == fmt.Sprintf("Screen %d", benchScreens), nil
}

// BenchmarkExploreStep measures the time Explore spends per forward step
// besides the model and the driver: ranking, prompts, state keys, the
// search's bookkeeping. The baseline is the same driver's Observe and Do
// alone for the same path; the ratio of the two is the overhead.
func BenchmarkExploreStep(b *testing.B) {
	ctx := context.Background()
	b.Run("baseline", func(b *testing.B) {
		cpu0 := cpuTime()
		c := newChainApp()
		for b.Loop() {
			c.at = 0
			for range benchScreens {
				t, _ := c.Observe(ctx)
				_, _ = c.Do(ctx, driver.Action{Op: action.Click, Target: t.Elements[0]})
			}
			_, _ = c.Observe(ctx)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchScreens), "ns/step")
		b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*benchScreens), "cpu-ns/step")
	})
	b.Run("baseline-adb", func(b *testing.B) {
		// For scale: one step on the simulated phone over the real ADB
		// protocol (observe, act, the driver's settling), menu open and
		// closed again.
		d, _ := simPhone(b)
		for b.Loop() {
			t, err := d.Observe(ctx)
			if err != nil {
				b.Fatal(err)
			}
			more, err := anchor(t, `button(name: "More options")`)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.Do(ctx, driver.Action{Op: action.Click, Target: more}); err != nil {
				b.Fatal(err)
			}
			if _, err := d.Observe(ctx); err != nil {
				b.Fatal(err)
			}
			if _, err := d.Do(ctx, driver.Action{Op: action.Back}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2), "ns/step")
	})
	for _, withModel := range []bool{false, true} {
		name := "explore/no-model"
		if withModel {
			name = "explore/model"
		}
		b.Run(name, func(b *testing.B) {
			cpu0 := cpuTime()
			c := newChainApp()
			m := &instantModel{}
			o := Options{Budget: benchScreens}
			if withModel {
				o.Model = m
			}
			for b.Loop() {
				c.at = 0
				res, err := Explore(ctx, c, Goal{Text: "reach the last screen", Check: atLast}, o)
				if err != nil || len(res.Steps) != benchScreens {
					b.Fatalf("explore: %v, %d steps", err, len(res.Steps))
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchScreens), "ns/step")
			// CPU time too: on a shared machine the wall clock counts the
			// other processes' turns.
			b.ReportMetric(float64((cpuTime()-cpu0).Nanoseconds())/float64(b.N*benchScreens), "cpu-ns/step")
		})
	}
}
