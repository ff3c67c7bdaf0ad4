package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

// tryFlow saves through the Save button and Publish; when a step of that
// fails, it uses Less instead. Done runs after the try either way.
const tryFlow = `task t {
  driver browser
  input strict: bool = false
  try {
    op1 = click(button(name: "Save"))
    op2 = assert(!strict, message: "strict mode")
    op3 = click(button(name: "Publish"))
    op4 = click(button(name: "Save"))
  } fallback {
    op5 = click(button(name: "Less"))
    op6 = click(button(name: "More"))
  }
  op7 = click(button(name: "Done"))
}`

// TestTryFallsBackOnAStepFailure: a step failure in the body (an anchor
// that matches nothing, a failed assert) skips the rest of the body and
// runs the fallback; the body's steps before it keep their effects; each
// step reports the arm it ran in.
func TestTryFallsBackOnAStepFailure(t *testing.T) {
	for _, c := range []struct {
		name, strict string
		page         []string
		clicks       string
		failed       string // the step whose failure sent the run to the fallback
		arms         string // step:arm for each step reported
	}{
		{"body runs to its end", "false", []string{"Save", "Publish", "Less", "More", "Done"}, "Save,Publish,Save,Done", "",
			"op1:try op2:try op3:try op4:try op7:"},
		{"anchor miss", "false", []string{"Save", "Less", "More", "Done"}, "Save,Less,More,Done", "op3",
			"op1:try op2:try op3:try op5:fallback op6:fallback op7:"},
		{"failed assert", "true", []string{"Save", "Publish", "Less", "More", "Done"}, "Save,Less,More,Done", "op2",
			"op1:try op2:try op5:fallback op6:fallback op7:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, task, info := load(t, tryFlow)
			f := controlPage(c.page...)
			rec := &fallbackRecorder{}
			_, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec, Inputs: map[string]string{"strict": c.strict}}).Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := clicked(f); got != c.clicks {
				t.Errorf("clicked %s, want %s", got, c.clicks)
			}
			var arms []string
			for _, s := range rec.steps {
				arm := ""
				if len(s.Branches) == 1 {
					arm = strings.TrimPrefix(s.Branches[0], "line 4: ")
				}
				arms = append(arms, s.Step+":"+arm)
			}
			if got := strings.Join(arms, " "); got != c.arms {
				t.Errorf("arms %s, want %s", got, c.arms)
			}
			switch {
			case c.failed == "" && len(rec.fallbacks) != 0:
				t.Errorf("fell back: %+v", rec.fallbacks)
			case c.failed != "" && (len(rec.fallbacks) != 1 || rec.fallbacks[0].Step != c.failed || rec.fallbacks[0].Line != 4 || rec.fallbacks[0].Err == nil):
				t.Errorf("fallbacks %+v, want one at line 4 after %s", rec.fallbacks, c.failed)
			}
		})
	}
}

// TestTryNeverCatchesAStopOfTheRun: an interrupt, the browser gone (the
// step in doubt), a journal that cannot be written, a loop past its bound
// (not a step's failure) and a missing explorer pass through a try: the
// fallback does not run.
func TestTryNeverCatchesAStopOfTheRun(t *testing.T) {
	page := []string{"Save", "Publish", "Less", "More", "Done"}
	for _, c := range []struct {
		name  string
		src   string
		setup func(f *driverFake, cancel context.CancelFunc, o *runtime.Options)
		check func(err error) bool
	}{
		{"interrupt", tryFlow, func(f *driverFake, cancel context.CancelFunc, _ *runtime.Options) {
			f.OnAction = func(n int, _ driver.Action) {
				if n == 2 {
					cancel()
				}
			}
		}, func(err error) bool { return errors.Is(err, runtime.ErrInterrupted) }},
		{"browser gone", tryFlow, func(f *driverFake, _ context.CancelFunc, _ *runtime.Options) {
			f.Fail, f.FailErr = 2, fmt.Errorf("the browser exited: %w", driver.ErrGone)
		}, func(err error) bool { return errors.Is(err, driver.ErrGone) }},
		{"journal cannot be written", tryFlow, func(_ *driverFake, _ context.CancelFunc, o *runtime.Options) {
			o.Observer = runtime.Observers{&fallbackRecorder{intentErr: errors.New("disk full")}}
		}, func(err error) bool { var je *runtime.JournalError; return errors.As(err, &je) }},
		{"a loop's bound", `task t {
  driver browser
  try {
    while exists(button(name: "Save")), max: 2 {
      op1 = click(button(name: "Publish"))
    }
  } fallback {
    op2 = click(button(name: "Less"))
  }
}`, nil, func(err error) bool { return strings.Contains(err.Error(), "ran its 2 iterations") }},
		{"explore<…> with no element input and no model", `task t {
  driver browser
  try {
    op1 = click(explore<"the Publish button">())
  } fallback {
    op2 = click(button(name: "Less"))
  }
}`, nil, func(err error) bool {
			return strings.Contains(err.Error(), "none is configured") && errors.Is(err, runtime.ErrStopsRun)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, task, info := load(t, c.src)
			f := controlPage(page...)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			opts := runtime.Options{}
			if c.setup != nil {
				c.setup(f, cancel, &opts)
			}
			_, err := runtime.New(file, task, info, f, opts).Run(ctx)
			if err == nil || !c.check(err) {
				t.Fatalf("err = %v", err)
			}
			if runtime.Catchable(err) {
				t.Errorf("Catchable(%v) is true", err)
			}
			if strings.Contains(clicked(f), "Less") {
				t.Errorf("the fallback ran: clicked %s", clicked(f))
			}
		})
	}
}

// TestFallbackFailingToo: a failure in the fallback ends the run, saying
// the fallback failed too, and is the step's error underneath.
func TestFallbackFailingToo(t *testing.T) {
	file, task, info := load(t, tryFlow)
	f := controlPage("Save", "Less", "Done")
	_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
	var se *runtime.StepError
	if err == nil || !strings.Contains(err.Error(), "the fallback of the try at line 4 failed too") || !errors.As(err, &se) || se.StepName() != "op6" {
		t.Fatalf("err = %v", err)
	}
}

// TestExploreBlockInATry: a step of an explore block whose target no
// exploring makes show fails like an anchor miss, so the try around the
// block falls back.
func TestExploreBlockInATry(t *testing.T) {
	file, task, info := load(t, `task t {
  driver browser
  try {
    explore "the Publish button", budget: 2 {
      op1 = click(button(name: "Publish"))
    }
  } fallback {
    op2 = click(button(name: "Less"))
  }
}`)
	f := controlPage("More", "Less")
	rec := &recorder{}
	_, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec}).Run(context.Background())
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	var outcomes []string
	for _, s := range rec.steps {
		outcomes = append(outcomes, s.Step+" "+s.Outcome)
	}
	if got := strings.Join(outcomes, ", "); got != "op1 failed, op2 ok" {
		t.Errorf("steps: %s (clicked %s)", got, clicked(f))
	}
}

// TestJournalAndResumeOfAFallback: the journal records the try that fell
// back and why (redacted); a run interrupted inside the fallback resumes
// in the fallback without running the body again, even though the body
// would now succeed.
func TestJournalAndResumeOfAFallback(t *testing.T) {
	file, task, info := load(t, tryFlow)
	f := controlPage("Save", "Less", "More", "Done")
	root := t.TempDir()
	secrets := redact.New()
	secrets.Add("Publish")
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Secrets: secrets, Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	f.OnAction = func(n int, _ driver.Action) {
		if n == 2 { // Less, the fallback's first step
			close(stop)
		}
	}
	_, err = runtime.New(file, task, info, f, runtime.Options{Observer: &runtime.JournalObserver{W: w, Task: "t"}, Stop: stop}).Run(context.Background())
	if !errors.Is(err, runtime.ErrInterrupted) {
		t.Fatalf("err = %v, want an interrupt", err)
	}
	if err := w.Finish(journal.Interrupted, err); err != nil {
		t.Fatal(err)
	}
	run, err := journal.Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Fallbacks) != 1 || run.Fallbacks[0].Line != 4 || run.Fallbacks[0].Step != "op3" ||
		!strings.Contains(run.Fallbacks[0].Error, "no element matches") || strings.Contains(run.Fallbacks[0].Error, "Publish") {
		t.Errorf("fallbacks %+v, want one at line 4 after op3, redacted", run.Fallbacks)
	}
	if !run.FellBack(4, nil) || run.FellBack(5, nil) {
		t.Error("FellBack does not find the try by its line")
	}
	var arms []string
	for _, s := range run.Steps {
		arms = append(arms, fmt.Sprintf("%s%q", s.Step, s.Branches))
	}
	if got, want := strings.Join(arms, " "), `op1["line 4: try"] op2["line 4: try"] op3["line 4: try"] op5["line 4: fallback"]`; got != want {
		t.Errorf("journaled steps\n got %s\nwant %s", got, want)
	}
	arms = arms[:0]
	for _, in := range run.Intents {
		arms = append(arms, fmt.Sprintf("%s%q", in.Step, in.Branches))
	}
	if got, want := strings.Join(arms, " "), `op1["line 4: try"] op2["line 4: try"] op3["line 4: try"] op5["line 4: fallback"]`; got != want {
		t.Errorf("journaled intents\n got %s\nwant %s", got, want)
	}

	// The resume: Publish is on the page now, and still the body does not run.
	f2 := controlPage("Save", "Publish", "Less", "More", "Done")
	w2, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Secrets: redact.New(), Row: -1, Resume: run.ID})
	if err != nil {
		t.Fatal(err)
	}
	_, err = runtime.New(file, task, info, f2, runtime.Options{Observer: &runtime.JournalObserver{W: w2, Task: "t"}, FellBack: runtime.FellBackIn(run)}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := clicked(f2); got != "Less,More,Done" {
		t.Errorf("the resume clicked %s, want the fallback's Less,More then Done", got)
	}
	w2.Finish(journal.OK, nil)
	run2, err := journal.Load(root, w2.ID())
	if err != nil {
		t.Fatal(err)
	}
	if !run2.FellBack(4, nil) || run2.Fallbacks[0].ResumedFrom != run.ID {
		t.Errorf("the resumed run does not carry the fallback over: %+v", run2.Fallbacks)
	}
}

// TestResumeFallsBackPerIteration: inside a loop, the fallback is
// remembered per iteration.
func TestResumeFallsBackPerIteration(t *testing.T) {
	file, task, info := load(t, `task t {
  driver browser
  repeat 2 {
    try {
      op1 = click(button(name: "Save"))
    } fallback {
      op2 = click(button(name: "Less"))
    }
  }
}`)
	f := controlPage("Save", "Less")
	fellBack := func(line int, loops []runtime.LoopPos) bool {
		return line == 4 && len(loops) == 1 && loops[0].Var == runtime.RepeatVar && loops[0].Index == 1
	}
	if _, err := runtime.New(file, task, info, f, runtime.Options{FellBack: fellBack}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := clicked(f); got != "Save,Less" {
		t.Errorf("clicked %s, want Save then, in the second time through, Less", got)
	}
}

// TestPlanShowsBothArms: a dry run lists the body and the fallback.
func TestPlanShowsBothArms(t *testing.T) {
	_, task, _ := load(t, tryFlow)
	var b strings.Builder
	runtime.Plan(&b, task, nil)
	out := b.String()
	for _, want := range []string{
		"line 4    try (if a step here fails, the rest is skipped and the fallback runs):",
		"  4. line 8",
		"line 9    fallback (runs only when a step of the try failed):",
		"  5. line 10",
		"  7. line 13",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
}

type driverFake = drivertest.Fake

// fallbackRecorder records steps and fallbacks; with intentErr it plays a
// write-ahead journal that cannot be written.
type fallbackRecorder struct {
	recorder
	fallbacks []runtime.FallbackReport
	intentErr error
}

func (r *fallbackRecorder) Fallback(f runtime.FallbackReport) { r.fallbacks = append(r.fallbacks, f) }

func (r *fallbackRecorder) Intent(runtime.StepReport) error { return r.intentErr }
