package runtime_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/knowledge"
)

// menuPage is the moved layout in small: a Notes box and a More button;
// clicking More adds the items to the page (a menu built on demand), so
// until then no element matches them.
func menuPage(more string, items ...string) *drivertest.Fake {
	f := drivertest.New(&driver.Tree{URL: "http://site/notes", Title: "Notes", Elements: []*driver.Element{
		field("t0", "Notes", "notes"), el("m0", "button", more),
	}})
	f.OnClick["m0"] = func(f *drivertest.Fake, _ *driver.Element) {
		t := f.Tree()
		els := append([]*driver.Element(nil), t.Elements...)
		if len(els) > 2 {
			f.SetTree(&driver.Tree{URL: t.URL, Title: t.Title, Elements: els[:2]}) // closes
			return
		}
		for i, name := range items {
			els = append(els, el("i"+string(rune('0'+i)), "button", name))
		}
		f.SetTree(&driver.Tree{URL: t.URL, Title: t.Title, Elements: els})
	}
	return f
}

const saveNotes = `task notes "Write a line into my notes and save them" {
  driver browser
  op1 = type(textbox(name: "Notes"), "hello")
  op2 = click(button(name: "Save"))
}`

// exploreLog keeps a run's exploration steps.
type exploreLog struct {
	recorder
	mu       sync.Mutex
	explored []runtime.ExploreReport
}

func (l *exploreLog) Explored(r runtime.ExploreReport) {
	l.mu.Lock()
	l.explored = append(l.explored, r)
	l.mu.Unlock()
}

func (l *exploreLog) lines() string {
	var out []string
	for _, r := range l.explored {
		s := r.Explore
		line := r.Kind + " " + r.Step + " " + s.Direction + " " + s.Op + " " + s.Target
		if s.Reached {
			line += " reached"
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

func runHeal(t *testing.T, src string, f *drivertest.Fake, opts runtime.Options) (*runtime.Interp, *exploreLog, runtime.Stats, error) {
	t.Helper()
	file, task, info := load(t, src)
	log := &exploreLog{}
	opts.Observer = log
	in := runtime.New(file, task, info, f, opts)
	stats, err := in.Run(context.Background())
	return in, log, stats, err
}

func TestHeal(t *testing.T) {
	block := strings.Replace(saveNotes, `  op2 = click(button(name: "Save"))`, "  explore \"save the notes\", budget: 3 {\n    op2 = click(button(name: \"Save\"))\n  }", 1)
	for _, c := range []struct {
		name     string
		src      string
		page     *drivertest.Fake
		opts     runtime.Options
		clicks   string // buttons clicked, in order
		explored string // exploration steps reported
		heals    int
		err      string // "": the run succeeds
	}{
		{name: "no heal: the anchor error as before", src: saveNotes, page: menuPage("More", "Save"),
			err: `no element matches button(name: "Save")`},
		{name: "heal opens the menu", src: saveNotes, page: menuPage("More", "Save"), opts: runtime.Options{Heal: true},
			clicks: "Notes,More,Save", explored: `heal op2 forward click button(name: "More") reached`, heals: 1},
		{name: "an explore block explores without --heal and proposes nothing", src: block, page: menuPage("More", "Save"),
			clicks: "Notes,More,Save", explored: `block op2 forward click button(name: "More") reached`},
		{name: "nothing to find: the anchor error and what was tried", src: saveNotes, page: menuPage("More"), opts: runtime.Options{Heal: true},
			err: "no element matches button(name: \"Save\")", explored: `heal op2 forward click button(name: "More")`},
		{name: "two Saves behind the menu are not the goal", src: saveNotes, page: menuPage("More", "Save", "Save"), opts: runtime.Options{Heal: true},
			err: "exploring for it"},
		{name: "an irreversible action is not taken unconfirmed", src: saveNotes, page: menuPage("Send", "Save"), opts: runtime.Options{Heal: true},
			err: "exploring for it", explored: `heal op2 forward skip button(name: "Send")`},
		{name: "--yes confirms it", src: saveNotes, page: menuPage("Send", "Save"), opts: runtime.Options{Heal: true, Yes: true},
			clicks: "Notes,Send,Save", explored: `heal op2 forward click button(name: "Send") reached`, heals: 1},
		{name: "a person confirms it", src: saveNotes, page: menuPage("Send", "Save"), opts: runtime.Options{Heal: true, Prompter: &answers{lines: []string{"y"}}},
			clicks: "Notes,Send,Save", explored: `heal op2 forward click button(name: "Send") reached`, heals: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			in, log, stats, err := runHeal(t, c.src, c.page, c.opts)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				var miss *runtime.AnchorError
				if !errors.As(err, &miss) {
					t.Errorf("the error does not hold the anchor miss: %v", err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if got := clicked(c.page); c.err == "" && got != c.clicks {
				t.Errorf("clicked %q, want %q", got, c.clicks)
			}
			if got := log.lines(); !strings.HasPrefix(got, c.explored) {
				t.Errorf("explored:\n%s\nwant it to start with:\n%s", got, c.explored)
			}
			if stats.Explored != len(log.explored) {
				t.Errorf("stats.Explored = %d, %d reported", stats.Explored, len(log.explored))
			}
			heals := in.Heals()
			if len(heals) != c.heals {
				t.Fatalf("%d heals, want %d: %+v", len(heals), c.heals, heals)
			}
			if c.heals > 0 {
				h := heals[0]
				if h.Step.Name.Name != "op2" || len(h.Path) != 1 || h.Path[0].Op != "click" || !strings.HasPrefix(h.Path[0].Target, "button(name: ") {
					t.Errorf("heal %+v", h)
				}
			}
		})
	}
}

func TestHealNotReachedSaysWhatWasTried(t *testing.T) {
	_, _, _, err := runHeal(t, saveNotes, menuPage("More"), runtime.Options{Heal: true})
	var xerr *runtime.ExploreError
	if !errors.As(err, &xerr) {
		t.Fatalf("err = %v, want an ExploreError", err)
	}
	msg := err.Error()
	for _, want := range []string{`step op2`, `no element matches button(name: "Save")`, "exploring for it", `explored: 1 forward click button(name: "More")`} {
		if !strings.Contains(msg, want) && !strings.Contains(err.(*runtime.StepError).Error(), want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

// TestHealStopsNeverSwallowed: an interrupt or a driver gone while
// exploring ends the run as such, and the step is not left in doubt (it
// had not acted), so a resume explores again.
func TestHealStopsNeverSwallowed(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(f *drivertest.Fake, cancel context.CancelFunc)
		is   error
	}{
		{"interrupt", func(f *drivertest.Fake, cancel context.CancelFunc) {
			f.OnAction = func(n int, a driver.Action) {
				if a.Target != nil && a.Target.Name == "More" {
					cancel()
				}
			}
		}, runtime.ErrInterrupted},
		{"gone", func(f *drivertest.Fake, _ context.CancelFunc) { f.Fail, f.FailErr = 2, driver.ErrGone }, driver.ErrGone},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := menuPage("More", "Save")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.set(f, cancel)
			file, task, info := load(t, saveNotes)
			log := &exploreLog{}
			_, err := runtime.New(file, task, info, f, runtime.Options{Heal: true, Observer: log}).Run(ctx)
			if !errors.Is(err, c.is) {
				t.Fatalf("err = %v, want %v", err, c.is)
			}
			for _, s := range log.steps {
				if s.Outcome == "in_doubt" {
					t.Errorf("step %s is in doubt, though it had not acted", s.Step)
				}
			}
		})
	}
}

func TestExploreDependency(t *testing.T) {
	for _, c := range []struct {
		name, src string
		err       string
	}{
		{"an element input makes the goal deterministic", `task t {
  driver browser
  op1 = click(explore<"the save button">(button(name: "Save")))
}`, ""},
		{"no element input and no model", `task t {
  driver browser
  op1 = click(explore<"the save button">("Save"))
}`, "none is configured"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := menuPage("More", "Save")
			_, log, _, err := runHeal(t, c.src, f, runtime.Options{})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := clicked(f); got != "Notes,More,Save" && got != "More,Save" {
				t.Errorf("clicked %q", got)
			}
			if !strings.HasPrefix(log.lines(), `dependency op1 forward click button(name: "More") reached`) {
				t.Errorf("explored:\n%s", log.lines())
			}
		})
	}
}

// memory is knowledge kept in memory, as the store would keep it.
type memory struct {
	paths map[string]knowledge.Path
}

func (m *memory) Transitions(string, string) ([]knowledge.Transition, error) { return nil, nil }
func (m *memory) AddTransition(knowledge.Transition) error                   { return nil }
func (m *memory) Path(app, command string) (knowledge.Path, bool, error) {
	p, ok := m.paths[app+"|"+command]
	return p, ok, nil
}
func (m *memory) SavePath(p knowledge.Path) error {
	m.paths[p.App+"|"+p.Command] = p
	return nil
}
func (m *memory) AddLesson(knowledge.Lesson) error                   { return nil }
func (m *memory) Lessons(string, string) ([]knowledge.Lesson, error) { return nil, nil }

// TestHealRemembers: the second heal of the same step replays the path
// knowledge kept.
func TestHealRemembers(t *testing.T) {
	mem := &memory{paths: map[string]knowledge.Path{}}
	opts := runtime.Options{Heal: true, Explore: runtime.ExploreConfig{Memory: mem}}
	if _, _, _, err := runHeal(t, saveNotes, menuPage("More", "Save"), opts); err != nil {
		t.Fatal(err)
	}
	if len(mem.paths) != 1 {
		t.Fatalf("paths kept: %+v", mem.paths)
	}
	f := menuPage("More", "Save")
	_, log, _, err := runHeal(t, saveNotes, f, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := log.lines(); !strings.Contains(got, "replay click") {
		t.Errorf("the second run did not replay:\n%s", got)
	}
	if got := clicked(f); got != "Notes,More,Save" && got != "More,Save" {
		t.Errorf("clicked %q", got)
	}
}

// TestHealInterruptedIsNotInDoubt: a run stopped while exploring for a
// step's target leaves a journal that is not in doubt (the step never
// acted), so --resume runs the step again, and explores again, without
// asking how to settle it.
func TestHealInterruptedIsNotInDoubt(t *testing.T) {
	root := t.TempDir()
	jw, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "notes", Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	f := menuPage("More", "Save")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.OnAction = func(_ int, a driver.Action) {
		if a.Target != nil && a.Target.Name == "More" {
			cancel()
		}
	}
	file, task, info := load(t, saveNotes)
	obs := &runtime.JournalObserver{W: jw, Task: "notes"}
	_, err = runtime.New(file, task, info, f, runtime.Options{Heal: true, Observer: runtime.Observers{obs}}).Run(ctx)
	if !errors.Is(err, runtime.ErrInterrupted) {
		t.Fatalf("err = %v", err)
	}
	if err := jw.Finish(journal.Interrupted, err); err != nil {
		t.Fatal(err)
	}
	run, err := journal.Load(root, jw.ID())
	if err != nil {
		t.Fatal(err)
	}
	if in, ok := run.InDoubt(); ok {
		t.Errorf("step %s is in doubt", in.Step)
	}
	if len(run.Explored) == 0 || run.Explored[0].Step != "op2" || run.Explored[0].Kind != "heal" {
		t.Errorf("explore lines: %+v", run.Explored)
	}
	last := run.Steps[len(run.Steps)-1]
	if last.Step != "op2" || last.Outcome != journal.Failed || !strings.Contains(last.Error, "while exploring for the target") {
		t.Errorf("last step %+v", last)
	}
}
