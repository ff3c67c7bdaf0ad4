package runtime_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

const branching = `task t {
  driver browser
  input n: number = 2
  if visible(button(name: "Close")) {
    op1 = click(button(name: "Close"))
  } else if exists(button(name: "More")) && n > 0 {
    repeat n {
      op2 = click(button(name: "More"))
    }
  } else {
    op3 = click(button(name: "Less"))
  }
  op4 = click(button(name: "Done"))
}`

// controlPage shows the buttons named, each visible unless its name ends
// in "(hidden)".
func controlPage(names ...string) *drivertest.Fake {
	var els []*driver.Element
	for i, n := range names {
		e := el(fmt.Sprintf("b%d", i), "button", strings.TrimSuffix(n, " (hidden)"))
		e.Visible = !strings.HasSuffix(n, " (hidden)")
		els = append(els, e)
	}
	return drivertest.New(&driver.Tree{Title: "Page", Elements: els})
}

// clicked names the buttons the run clicked, in order.
func clicked(f *drivertest.Fake) string {
	var out []string
	for _, a := range f.Log {
		for _, e := range f.Tree().Elements {
			if a.Target != nil && a.Target.Ref == e.Ref {
				out = append(out, e.Name)
			}
		}
	}
	return strings.Join(out, ",")
}

func TestIfTakesTheBranchWhoseConditionHolds(t *testing.T) {
	for _, c := range []struct {
		name    string
		page    []string
		n       string
		clicks  string
		branch  string // the branch op4's predecessor ran in
		repeats int
	}{
		{"if", []string{"Close", "More", "Less", "Done"}, "2", "Close,Done", "line 4: if visible(button(name: \"Close\"))", 0},
		{"hidden element is not visible", []string{"Close (hidden)", "More", "Less", "Done"}, "3", "More,More,More,Done", "line 4: else if exists(button(name: \"More\")) && n > 0", 3},
		{"else if", []string{"More", "Less", "Done"}, "2", "More,More,Done", "line 4: else if exists(button(name: \"More\")) && n > 0", 2},
		{"else: no More", []string{"Less", "Done"}, "2", "Less,Done", "line 4: else", 0},
		{"else: n is 0", []string{"More", "Less", "Done"}, "0", "Less,Done", "line 4: else", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, task, info := load(t, branching)
			f := controlPage(c.page...)
			rec := &recorder{}
			stats, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec, Inputs: map[string]string{"n": c.n}}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := clicked(f); got != c.clicks {
				t.Errorf("clicked %s, want %s", got, c.clicks)
			}
			first := rec.steps[0]
			if len(first.Branches) != 1 || first.Branches[0] != c.branch {
				t.Errorf("%s ran in branches %q, want %q", first.Step, first.Branches, c.branch)
			}
			if last := rec.steps[len(rec.steps)-1]; last.Step != "op4" || len(last.Branches) != 0 {
				t.Errorf("last step %s in branches %q, want op4 outside the if", last.Step, last.Branches)
			}
			if stats.Iterations != c.repeats || len(rec.iterations) != c.repeats {
				t.Errorf("%d iterations (%d recorded), want %d", stats.Iterations, len(rec.iterations), c.repeats)
			}
			for i, it := range rec.iterations {
				if len(it) != 1 || it[0].Var != runtime.RepeatVar || it[0].Index != i {
					t.Errorf("iteration %d recorded as %+v", i, it)
				}
			}
		})
	}
}

func TestNestedControlFlow(t *testing.T) {
	file, task, info := load(t, `task t {
  driver browser
  for x in [1, 2, 3] {
    repeat x {
      if x == 2 {
        op1 = click(button(name: "More"))
      } else {
        op2 = click(button(name: "Less"))
      }
    }
  }
  repeat 0 {
    op3 = click(button(name: "Done"))
  }
}`)
	f := controlPage("More", "Less", "Done")
	rec := &recorder{}
	if _, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got, want := clicked(f), "Less,More,More,Less,Less,Less"; got != want {
		t.Errorf("clicked %s, want %s", got, want)
	}
	if l := rec.steps[1].Loops; len(l) != 2 || l[0].Var != "x" || l[1].Var != runtime.RepeatVar || l[1].Index != 0 {
		t.Errorf("second step's loops %+v", l)
	}
}

func TestRepeatCountMustBeAWholeNumberInBounds(t *testing.T) {
	for _, n := range []string{"2.5", "-1", "1001"} {
		file, task, info := load(t, `task t {
  driver browser
  input n: number = 1
  repeat n {
    op1 = click(button(name: "More"))
  }
}`)
		f := controlPage("More")
		_, err := runtime.New(file, task, info, f, runtime.Options{Inputs: map[string]string{"n": n}}).Run(context.Background())
		if err == nil || !strings.Contains(err.Error(), "must be a whole number from 0 to 1000") {
			t.Errorf("n = %s: err = %v", n, err)
		}
		if len(f.Log) != 0 {
			t.Errorf("n = %s: the body ran", n)
		}
	}
}

func TestElementTestsRefuseToGuess(t *testing.T) {
	file, task, info := load(t, `task t {
  driver browser
  if exists(button(name: "OK")) {
    op1 = click(button(name: "Done"))
  }
}`)
	f := controlPage("OK", "OK", "Done")
	_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "ambiguous") {
		t.Errorf("err = %v, want an ambiguity", err)
	}
	if len(f.Log) != 0 {
		t.Error("a step ran after an ambiguous condition")
	}
}

// TestJournalRecordsBranchesAndRepeats: the journal's step lines say
// which branch ran, and each time through a repeat is an iteration done.
func TestJournalRecordsBranchesAndRepeats(t *testing.T) {
	file, task, info := load(t, branching)
	f := controlPage("More", "Done")
	root := t.TempDir()
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Secrets: redact.New(), Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	in := runtime.New(file, task, info, f, runtime.Options{Observer: &runtime.JournalObserver{W: w, Task: "t"}})
	if _, err := in.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(journal.OK, nil); err != nil {
		t.Fatal(err)
	}
	run, err := journal.Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range run.Steps {
		got = append(got, fmt.Sprintf("%s%q%v", s.Step, s.Branches, s.Loop))
	}
	want := `op2["line 4: else if exists(button(name: \"More\")) && n > 0"][{repeat 0   false}] ` +
		`op2["line 4: else if exists(button(name: \"More\")) && n > 0"][{repeat 1   false}] op4[][]`
	if strings.Join(got, " ") != want {
		t.Errorf("journaled steps\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	if len(run.Iterations) != 2 || run.Iterations[1].Loop[0].Var != "repeat" || run.Iterations[1].Loop[0].Index != 1 {
		t.Errorf("iterations %+v", run.Iterations)
	}
}

// TestResumeSkipsFinishedRepeats: a resumed run skips the times through a
// repeat that the journal says finished, as it does a loop's items.
func TestResumeSkipsFinishedRepeats(t *testing.T) {
	file, task, info := load(t, branching)
	f := controlPage("More", "Done")
	done := func(loops []runtime.LoopPos) bool {
		l := loops[len(loops)-1]
		return l.Var == runtime.RepeatVar && l.Index == 0
	}
	stats, err := runtime.New(file, task, info, f, runtime.Options{Done: done, Inputs: map[string]string{"n": "3"}}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := clicked(f); got != "More,More,Done" {
		t.Errorf("clicked %s, want the second and third time and Done", got)
	}
	if stats.Skipped != 1 || stats.Iterations != 2 {
		t.Errorf("stats %+v", stats)
	}
}

// TestPlanListsEveryBranch: a dry run shows each branch and repeat with
// the steps inside, numbered in source order.
func TestPlanListsEveryBranch(t *testing.T) {
	_, task, _ := load(t, branching)
	var b strings.Builder
	runtime.Plan(&b, task, nil)
	out := b.String()
	for _, want := range []string{
		"line 4    if visible(button(name: \"Close\")) (judged at run time):",
		"  1. line 5",
		"line 6    else if exists(button(name: \"More\")) && n > 0 (judged at run time):",
		"line 7    repeat n times:",
		"  2. line 8",
		"line 10   else:",
		"  3. line 11",
		"  4. line 13",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
}
