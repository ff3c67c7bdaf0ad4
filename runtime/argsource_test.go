package runtime_test

import (
	"context"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

// TestJournalArgSources: each argument's source in the journal says where
// its value came from: a literal, an input, a function, an element
// description, or the answerer of a dependency written as the argument.
func TestJournalArgSources(t *testing.T) {
	file, task, info := load(t, `task t "g" {
  driver browser
  input who: text = "OK"
  op1 = click(match_element<"the button named like who">(who))
  op2 = type(textbox(name: "Box"), who)
  op3 = type(textbox(name: "Box"), upper(who))
  op4 = type(textbox(name: "Box"), "plain")
  op5 = type(textbox(name: "Box"), (who))
  op6 = type(textbox(name: "Box"), ("pl" + "ain"))
  op7 = type(textbox(name: "Box"), join(" ", ["a", who]))
  op8 = type(textbox(name: "Box"), join(" ", ["a", "b"]))
}`)
	f := drivertest.New(&driver.Tree{Title: "Page", Elements: []*driver.Element{el("b1", "button", "OK"), el("t1", "textbox", "Box")}})
	root := t.TempDir()
	w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Secrets: redact.New(), Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runtime.New(file, task, info, f, runtime.Options{Observer: &runtime.JournalObserver{W: w, Task: "t"}}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(journal.OK, nil); err != nil {
		t.Fatal(err)
	}
	run, err := journal.Load(root, w.ID())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]journal.Source{
		"op1": {journal.SourceStructural},
		"op2": {journal.SourceStructural, journal.SourceInput},
		"op3": {journal.SourceStructural, journal.SourceFunction},
		"op4": {journal.SourceStructural, journal.SourceLiteral},
		"op5": {journal.SourceStructural, journal.SourceInput},    // in parentheses, still the input
		"op6": {journal.SourceStructural, journal.SourceLiteral},  // a constant written in the workflow
		"op7": {journal.SourceStructural, journal.SourceFunction}, // a function of the input
		"op8": {journal.SourceStructural, journal.SourceFunction},
	}
	if len(run.Steps) != len(want) {
		t.Fatalf("%d steps journaled, want %d", len(run.Steps), len(want))
	}
	for _, s := range run.Steps {
		var got []journal.Source
		for _, a := range s.Args {
			got = append(got, a.Source)
		}
		if len(got) != len(want[s.Step]) {
			t.Errorf("%s: sources %v, want %v", s.Step, got, want[s.Step])
			continue
		}
		for i := range got {
			if got[i] != want[s.Step][i] {
				t.Errorf("%s: sources %v, want %v", s.Step, got, want[s.Step])
				break
			}
		}
	}
}
