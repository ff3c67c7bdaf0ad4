package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// counterPage shows More (b0), Done (b1, hidden) and Less (b2); Done
// shows after More has been clicked shows times.
func counterPage(shows int) *drivertest.Fake {
	f := controlPage("More", "Done (hidden)", "Less")
	n := 0
	done := f.Tree().Elements[1]
	f.OnClick["b0"] = func(_ *drivertest.Fake, _ *driver.Element) {
		n++
		if n >= shows {
			done.Visible = true
		}
	}
	return f
}

func runLoop(t *testing.T, src string, f *drivertest.Fake, opts runtime.Options) (runtime.Stats, error) {
	t.Helper()
	file, task, info := load(t, src)
	return runtime.New(file, task, info, f, opts).Run(context.Background())
}

func TestWhileStopsWhenTheConditionTurnsFalse(t *testing.T) {
	f := counterPage(3)
	stats, err := runLoop(t, `task t {
  driver browser
  while !visible(button(name: "Done")) {
    op1 = click(button(name: "More"))
  }
  op2 = click(button(name: "Done"))
}`, f, runtime.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := clicked(f); got != "More,More,More,Done" {
		t.Errorf("clicked %s", got)
	}
	if stats.Iterations != 3 {
		t.Errorf("stats %+v", stats)
	}
}

func TestUntilRunsUntilTheConditionHolds(t *testing.T) {
	f := counterPage(2)
	rec := &recorder{}
	if _, err := runLoop(t, `task t {
  driver browser
  until visible(button(name: "Done")), max: 5 {
    op1 = click(button(name: "More"))
  }
}`, f, runtime.Options{Observer: rec}); err != nil {
		t.Fatal(err)
	}
	if got := clicked(f); got != "More,More" {
		t.Errorf("clicked %s", got)
	}
	if l := rec.steps[1].Loops; len(l) != 1 || l[0].Var != "until" || l[0].Index != 1 {
		t.Errorf("second step's loops %+v", l)
	}
}

func TestWhileBoundExceededIsAnError(t *testing.T) {
	f := counterPage(100)
	_, err := runLoop(t, `task t {
  driver browser
  until visible(button(name: "Done")), max: 4 {
    op1 = click(button(name: "More"))
  }
}`, f, runtime.Options{})
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"line 3", "4 iterations", "max:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if got := clicked(f); got != "More,More,More,More" {
		t.Errorf("clicked %s", got)
	}
}

func TestWhileDefaultBound(t *testing.T) {
	f := counterPage(1000)
	_, err := runLoop(t, `task t {
  driver browser
  while true {
    op1 = click(button(name: "More"))
  }
}`, f, runtime.Options{})
	if err == nil || !strings.Contains(err.Error(), "100 iterations") {
		t.Fatalf("error %v", err)
	}
}

func TestResumeSkipsFinishedWhileIterations(t *testing.T) {
	f := counterPage(3)
	done := func(loops []runtime.LoopPos) bool {
		l := loops[len(loops)-1]
		return l.Var == "while" && l.Index < 2
	}
	stats, err := runLoop(t, `task t {
  driver browser
  while !visible(button(name: "Done")) {
    op1 = click(button(name: "More"))
  }
}`, f, runtime.Options{Done: done})
	if err != nil {
		t.Fatal(err)
	}
	// Two iterations skipped; the condition is judged again and More
	// clicked until Done shows (three clicks).
	if stats.Skipped != 2 || stats.Iterations != 3 {
		t.Errorf("stats %+v", stats)
	}
}

func TestBreakAndContinue(t *testing.T) {
	for _, c := range []struct{ name, src, clicks string }{
		{"break in while", `task t {
  driver browser
  while true {
    op1 = click(button(name: "More"))
    if visible(button(name: "Done")) {
      break
    }
    op2 = click(button(name: "Less"))
  }
}`, "More,Less,More"},
		{"continue in repeat", `task t {
  driver browser
  repeat 3 {
    op1 = click(button(name: "More"))
    if visible(button(name: "Done")) {
      continue
    }
    op2 = click(button(name: "Less"))
  }
}`, "More,Less,More,More"},
		{"break in for ends only the inner loop", `task t {
  driver browser
  for x in [1, 2] {
    until visible(button(name: "Done")), max: 10 {
      op1 = click(button(name: "More"))
      break
    }
    op2 = click(button(name: "Less"))
  }
}`, "More,Less,More,Less"},
		{"continue in for", `task t {
  driver browser
  for x in [1, 2, 3] {
    if x == 2 {
      continue
    }
    op1 = click(button(name: "Less"))
  }
}`, "Less,Less"},
		{"while nested in for", `task t {
  driver browser
  for x in [1, 2] {
    while !visible(button(name: "Done")) {
      op1 = click(button(name: "More"))
    }
    op2 = click(button(name: "Less"))
  }
}`, "More,More,Less,Less"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := counterPage(2)
			if _, err := runLoop(t, c.src, f, runtime.Options{}); err != nil {
				t.Fatal(err)
			}
			if got := clicked(f); got != c.clicks {
				t.Errorf("clicked %s, want %s", got, c.clicks)
			}
		})
	}
}

func TestPlanListsWhileLoops(t *testing.T) {
	_, task, _ := load(t, `task t {
  driver browser
  while !visible(button(name: "Done")) {
    op1 = click(button(name: "More"))
  }
  until visible(button(name: "Done")), max: 7 {
    op2 = click(button(name: "More"))
  }
}`)
	var b strings.Builder
	runtime.Plan(&b, task, nil)
	out := b.String()
	for _, want := range []string{
		"line 3    while !visible(button(name: \"Done\")) (judged at run time before each iteration, at most 100 times):",
		"  1. line 4",
		"line 6    until visible(button(name: \"Done\")), max: 7 (judged at run time before each iteration, at most 7 times):",
		"  2. line 7",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
}

func TestWhileTimeLimitIsAnError(t *testing.T) {
	f := counterPage(100)
	f.OnAction = func(int, driver.Action) { time.Sleep(1100 * time.Millisecond) }
	_, err := runLoop(t, `task t {
  driver browser
  while true, within: 1 {
    op1 = click(button(name: "More"))
  }
}`, f, runtime.Options{})
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "1 seconds") || !strings.Contains(err.Error(), "within:") {
		t.Fatalf("error %v", err)
	}
	if got := clicked(f); got != "More" {
		t.Errorf("clicked %s", got)
	}
}

// TestResumeEndsALoopThatBroke: an iteration journaled as ended by break
// ends its loop on resume too, in a for, a repeat and a while; without the
// mark the loop goes on.
func TestResumeEndsALoopThatBroke(t *testing.T) {
	for _, c := range []struct{ v, loop string }{
		{"x", "for x in [1, 2, 3]"},
		{runtime.RepeatVar, "repeat 3"},
		{"while", "while true, max: 3"},
	} {
		src := "task t {\n  driver browser\n  " + c.loop + " {\n    op1 = click(button(name: \"Less\"))\n  }\n}\n"
		at := func(idx func(int) bool) func([]runtime.LoopPos) bool {
			return func(loops []runtime.LoopPos) bool {
				l := loops[len(loops)-1]
				return l.Var == c.v && idx(l.Index)
			}
		}
		done := at(func(i int) bool { return i <= 1 })
		t.Run(c.v, func(t *testing.T) {
			f := counterPage(100)
			if _, err := runLoop(t, src, f, runtime.Options{Done: done, Broke: at(func(i int) bool { return i == 1 })}); err != nil {
				t.Fatal(err)
			}
			if got := clicked(f); got != "" {
				t.Errorf("clicked %s after a loop that broke", got)
			}
			f = counterPage(100)
			_, err := runLoop(t, src, f, runtime.Options{Done: done})
			if got := clicked(f); got != "Less" {
				t.Errorf("without break: clicked %s, err %v", got, err)
			}
		})
	}
}

func TestIterationDoneSaysBroke(t *testing.T) {
	rec := &recorder{}
	if _, err := runLoop(t, `task t {
  driver browser
  repeat 3 {
    op1 = click(button(name: "Less"))
    if true {
      break
    }
  }
}`, counterPage(100), runtime.Options{Observer: rec}); err != nil {
		t.Fatal(err)
	}
	if len(rec.iterations) != 1 || !rec.iterations[0][0].Broke || rec.iterations[0][0].Index != 0 {
		t.Errorf("iterations %+v", rec.iterations)
	}
}
