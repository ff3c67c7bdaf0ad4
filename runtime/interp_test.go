package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// load parses and checks src, failing the test on any error.
func load(t *testing.T, src string) (*ast.File, *ast.Task, *check.Info) {
	t.Helper()
	f, diags := syntax.Parse("t.cog", []byte(src))
	if f == nil {
		t.Fatal(diags.Err())
	}
	info, diags := check.Check(f, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	for _, d := range f.Decls {
		if task, ok := d.(*ast.Task); ok {
			return f, task, info
		}
	}
	t.Fatal("no task")
	return nil, nil, nil
}

// recorder keeps a run's events.
type recorder struct {
	mu          sync.Mutex
	steps       []runtime.StepReport
	iterations  [][]runtime.LoopPos
	interrupted runtime.Position
	wasStopped  bool
}

func (r *recorder) Step(s runtime.StepReport) {
	r.mu.Lock()
	r.steps = append(r.steps, s)
	r.mu.Unlock()
}
func (r *recorder) IterationDone(l []runtime.LoopPos) {
	r.mu.Lock()
	r.iterations = append(r.iterations, l)
	r.mu.Unlock()
}
func (r *recorder) Interrupted(at runtime.Position) {
	r.mu.Lock()
	r.interrupted, r.wasStopped = at, true
	r.mu.Unlock()
}

// answers is a scripted person at the terminal.
type answers struct {
	lines []string
	asked []string
}

func (a *answers) Ask(q string) (string, error) {
	a.asked = append(a.asked, q)
	if len(a.lines) == 0 {
		return "", errors.New("no more answers")
	}
	line := a.lines[0]
	a.lines = a.lines[1:]
	return line, nil
}

func el(ref, role, name string) *driver.Element {
	return &driver.Element{Ref: ref, Role: role, Name: name, Text: name, Visible: true, Enabled: true, Parent: -1}
}

func field(ref, name, id string) *driver.Element {
	e := el(ref, "textbox", name)
	e.Text, e.ID, e.Editable = "", id, true
	return e
}

func wikiSite() *drivertest.Fake {
	search := func() *driver.Tree {
		return &driver.Tree{URL: "http://wiki/", Title: "Wiki", Elements: []*driver.Element{
			field("q", "Search", "q"), el("go", "button", "Search"),
		}}
	}
	f := drivertest.New(search())
	f.Pages["http://wiki/"] = search
	f.OnClick["go"] = func(f *drivertest.Fake, _ *driver.Element) {
		q := f.Tree().Elements[0].Value
		f.SetTree(&driver.Tree{URL: "http://wiki/?q=" + q, Title: "Results", Elements: []*driver.Element{
			el("r1", "link", q+" National Park"), el("r2", "link", q), el("r3", "link", "Mountains of Africa"),
			field("notes", "Notes", "notes"),
		}})
	}
	return f
}

func TestNormalRun(t *testing.T) {
	file, task, info := load(t, `task look_up "Look up a keyword" {
  driver browser
  input keyword: text = "Kilimanjaro"
  anchor search_box = textbox(name: "Search", id: "q")
  op1 = open("http://wiki/")
  op2 = type(search_box, keyword)
  op3 = click(button("Search"))
  op4 = click(match_element<"the result about the keyword">(op2))
  op5 = type(textbox(id: "notes"), summarize<"in one sentence">(op4.text) + " (" + upper(keyword) + ")")
}`)
	f := wikiSite()
	rec := &recorder{}
	person := &answers{lines: []string{"The highest mountain of Africa."}}
	in := runtime.New(file, task, info, f, runtime.Options{
		Inputs: map[string]string{"keyword": "Mount Kenya"}, Observer: rec,
		Answerers: []dependency.Answerer{runtime.AskAnswerer{P: person}},
	})
	if _, err := in.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	tree := f.Tree()
	if got := tree.Elements[3].Value; got != "The highest mountain of Africa. (MOUNT KENYA)" {
		t.Errorf("notes = %q", got)
	}
	// The exact title match needs no judgement: the structural answerer
	// picked r2, and only the summary was asked.
	if clicked := f.Log[3].Target.Ref; clicked != "r2" {
		t.Errorf("clicked %s, want r2", clicked)
	}
	if len(person.asked) != 1 || !strings.Contains(person.asked[0], `summarize<"in one sentence">`) {
		t.Errorf("asked %q", person.asked)
	}
	if got := rec.steps[3].ValueFrom; got != "structural" {
		t.Errorf("op4's dependency answered by %q, want structural", got)
	}
	if got := rec.steps[4].ValueFrom; got != "ask" {
		t.Errorf("op5's dependency answered by %q, want ask", got)
	}
}

const readingList = `task abstracts "Fill abstracts" {
  driver browser
  anchor papers = table(name: "Reading list")
  for paper in rows(papers)[1:] {
    op1 = copy(paper.cell("Title"))
    op2 = type(paper.cell("Abstract"), "About " + upper(op1))
  }
}`

func readingTable() *drivertest.Fake {
	rows := [][]string{{"ResNet", ""}, {"Attention", ""}, {"BERT", ""}, {"GPT", ""}}
	return drivertest.New(drivertest.Index(&driver.Tree{Title: "Reading list",
		Elements: drivertest.Table("rl", "Reading list", []string{"Title", "Abstract"}, rows)}))
}

func abstracts(f *drivertest.Fake) []string {
	var out []string
	for _, e := range f.Tree().Elements {
		if e.Cell != nil && e.Cell.ColumnHeader == "Abstract" {
			out = append(out, e.Value)
		}
	}
	return out
}

func TestIterativeRun(t *testing.T) {
	file, task, info := load(t, readingList)
	f := readingTable()
	rec := &recorder{}
	stats, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"", "About ATTENTION", "About BERT", "About GPT"}
	if got := abstracts(f); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("abstracts = %q, want %q", got, want)
	}
	if stats.Iterations != 3 || len(rec.iterations) != 3 {
		t.Errorf("iterations = %d (recorded %d), want 3", stats.Iterations, len(rec.iterations))
	}
	if k := rec.iterations[0][0]; k.Var != "paper" || k.Index != 0 || k.Key != "Attention" {
		t.Errorf("first iteration recorded as %+v", k)
	}
}

func TestInterruptAndResume(t *testing.T) {
	file, task, info := load(t, readingList)
	f := readingTable()
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel while the second iteration types: Ctrl-C between steps.
	f.OnAction = func(n int, a driver.Action) {
		if n == 3 { // the second iteration's first step
			cancel()
		}
	}
	rec := &recorder{}
	_, err := runtime.New(file, task, info, f, runtime.Options{Observer: rec}).Run(ctx)
	if !errors.Is(err, runtime.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if !rec.wasStopped || len(rec.iterations) != 1 {
		t.Fatalf("recorded %d finished iterations, stopped=%v", len(rec.iterations), rec.wasStopped)
	}
	done := map[string]bool{}
	for _, it := range rec.iterations {
		done[it[0].Key] = true
	}
	before := len(f.Log)
	rec2 := &recorder{}
	_, err = runtime.New(file, task, info, f, runtime.Options{
		Observer: rec2, Done: func(p []runtime.LoopPos) bool { return done[p[len(p)-1].Key] },
	}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := abstracts(f); fmt.Sprint(got) != fmt.Sprint([]string{"", "About ATTENTION", "About BERT", "About GPT"}) {
		t.Errorf("after resume abstracts = %q", got)
	}
	// The resumed run redid nothing: 2 iterations of 2 actions each.
	if n := len(f.Log) - before; n != 4 {
		t.Errorf("resumed run performed %d actions, want 4", n)
	}
	for _, s := range rec2.steps {
		if s.Loops[0].Key == "Attention" {
			t.Errorf("resumed run redid the finished item: %+v", s)
		}
	}
}

func TestAnchorErrors(t *testing.T) {
	page := &driver.Tree{Elements: []*driver.Element{
		el("a", "button", "Save"), el("b", "button", "Save"), el("c", "button", "Cancel"),
	}}
	tests := []struct {
		step string
		want []string
	}{
		{`op1 = click(button(name: "Save"))`, []string{`button(name: "Save") is ambiguous`, `100%  button(name: "Save")`}},
		{`op1 = click(button(name: "Delete"))`, []string{`no element matches button(name: "Delete")`}},
		{`op1 = click(link(name: "Cancel"))`, []string{`no element matches link(name: "Cancel")`, `60%  button(name: "Cancel") — it is a button, not a link`}},
	}
	for _, tt := range tests {
		file, task, info := load(t, "task t {\n  driver browser\n  "+tt.step+"\n}")
		_, err := runtime.New(file, task, info, drivertest.New(page), runtime.Options{}).Run(context.Background())
		var stepErr *runtime.StepError
		if !errors.As(err, &stepErr) || stepErr.Step.Name.Name != "op1" {
			t.Fatalf("%s: err = %v, want a step error", tt.step, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tt.step, err, w)
			}
		}
		if !strings.HasPrefix(err.Error(), "t.cog:3:3: step op1 failed") {
			t.Errorf("error does not start with the step's position: %q", err)
		}
	}
}

func TestConfirm(t *testing.T) {
	src := "task t {\n  driver browser\n  confirm op1 = click(button(\"Send\"))\n  op2 = click(button(\"Send\"))\n}"
	page := func() *drivertest.Fake {
		return drivertest.New(&driver.Tree{Elements: []*driver.Element{el("s", "button", "Send")}})
	}
	file, task, info := load(t, src)

	f := page()
	_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--yes") || len(f.Log) != 0 {
		t.Errorf("without a person: err = %v, %d actions", err, len(f.Log))
	}

	f = page()
	person := &answers{lines: []string{"maybe", "n"}}
	rec := &recorder{}
	// "maybe" is asked again; "n" skips op1 and the run goes on with op2.
	if _, err := runtime.New(file, task, info, f, runtime.Options{Prompter: person, Observer: rec}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(person.asked) != 2 || rec.steps[0].Outcome != "declined" || len(f.Log) != 1 {
		t.Errorf("asked %d times, outcome %q, %d actions", len(person.asked), rec.steps[0].Outcome, len(f.Log))
	}

	f = page()
	if _, err := runtime.New(file, task, info, f, runtime.Options{Yes: true}).Run(context.Background()); err != nil || len(f.Log) != 2 {
		t.Errorf("--yes: err = %v, %d actions", err, len(f.Log))
	}
}

func TestDependencyWithoutResolver(t *testing.T) {
	file, task, info := load(t, `task t {
  driver browser
  op1 = type(textbox(id: "notes"), summarize<"in one sentence">("a long text"))
}`)
	f := drivertest.New(&driver.Tree{Elements: []*driver.Element{field("n", "Notes", "notes")}})
	_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
	for _, want := range []string{"t.cog:3:3", `summarize<"in one sentence">`, "OPENAI_API_KEY", "--ask"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// TestLaunchActivity: launch(app, activity:) reaches the driver as one
// "package/activity" text, the form `am start -n` takes.
func TestLaunchActivity(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{`launch("com.example.contacts", activity: ".MainActivity")`, "com.example.contacts/.MainActivity"},
		{`launch("com.example.contacts/.MainActivity")`, "com.example.contacts/.MainActivity"},
		{`launch("com.example.contacts")`, "com.example.contacts"},
	} {
		file, task, info := load(t, "task t {\n  driver android\n  op1 = "+tt.src+"\n}")
		f := drivertest.New(&driver.Tree{})
		if _, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background()); err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if len(f.Log) != 1 || f.Log[0].Op != "launch" || f.Log[0].Text != tt.want {
			t.Errorf("%s: driver got %+v, want launch %q", tt.src, f.Log, tt.want)
		}
	}
}
