package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
)

// twinPage is a form with a heading and two identical buttons side by
// side, each after a span whose text is before[k].
func twinPage(name string, before [2]string) *driver.Tree {
	els := []*driver.Element{{Ref: "form", Role: "generic", Path: "form", Text: "Pick one", Visible: true, Parent: -1},
		{Ref: "h", Role: "text", Path: "form/h2", Text: "Pick one", Visible: true, Parent: 0}}
	for k := range 2 {
		if before[k] != "" {
			els = append(els, &driver.Element{Ref: "s" + string(rune('1'+k)), Role: "text", Path: "form/span[" + string(rune('1'+k)) + "]",
				Text: before[k], Visible: true, Parent: 0})
		}
		els = append(els, &driver.Element{Ref: "b" + string(rune('1'+k)), Role: "button", Name: name, Text: name,
			Path: "form/button[" + string(rune('1'+k)) + "]", Visible: true, Enabled: true, Parent: 0})
	}
	return &driver.Tree{URL: "http://site/", Elements: els}
}

// A run settles twins only when taking the first cannot be wrong or do
// harm; otherwise the step fails saying why. A settled tie is in the
// step's report and its journal line.
func TestRunTwins(t *testing.T) {
	cases := []struct {
		name   string
		button string
		before [2]string
		kb     []string
		want   string // the ref clicked, or a part of the error
	}{
		{"alike: the first", "Edit", [2]string{}, nil, "b1"},
		{"irreversible by its words", "Delete", [2]string{}, nil, "their action cannot be undone (its words say delete)"},
		{"irreversible by the knowledge base", "Archive", [2]string{}, []string{"archive"}, "its words say archive"},
		{"another word of the knowledge base", "Archive", [2]string{}, []string{"settle up"}, "b1"},
		{"told apart by the text before", "Edit", [2]string{"Invoice 1", "Invoice 2"}, nil, "the text just before each differs"},
		{"the same text before each", "Edit", [2]string{"Item", "Item"}, nil, "b1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file, task, info := load(t, "task t {\n  driver browser\n  op1 = click(button(name: \""+tc.button+"\"))\n}")
			f := drivertest.New(twinPage(tc.button, tc.before))
			clicked := ""
			for _, ref := range []string{"b1", "b2"} {
				f.OnClick[ref] = func(*drivertest.Fake, *driver.Element) { clicked = ref }
			}
			root := t.TempDir()
			w, err := journal.Open(root, journal.RunMeta{Workflow: "t.cog", Task: "t", Row: -1})
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			_, runErr := runtime.New(file, task, info, f, runtime.Options{IrreversibleWords: tc.kb,
				Observer: runtime.Observers{rec, &runtime.JournalObserver{W: w, Task: "t"}}}).Run(context.Background())
			if err := w.Finish(journal.OK, runErr); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(tc.want, "b") {
				if runErr == nil || !strings.Contains(runErr.Error(), "is ambiguous") || !strings.Contains(runErr.Error(), tc.want) {
					t.Fatalf("err = %v, want an ambiguity saying %q", runErr, tc.want)
				}
				if clicked != "" {
					t.Fatalf("clicked %s despite the error", clicked)
				}
				return
			}
			if runErr != nil || clicked != tc.want {
				t.Fatalf("clicked %q, err %v; want %s clicked", clicked, runErr, tc.want)
			}
			const note = "twins: 2 tied, the first of identical siblings taken"
			if len(rec.steps) != 1 || len(rec.steps[0].Ties) != 1 || rec.steps[0].Ties[0] != note {
				t.Fatalf("step reports %+v, want the tie %q", rec.steps, note)
			}
			run, err := journal.Load(root, w.ID())
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Steps) != 1 || len(run.Steps[0].Ties) != 1 || run.Steps[0].Ties[0] != note {
				t.Fatalf("journal steps %+v, want the tie %q", run.Steps, note)
			}
			var shown strings.Builder
			if err := journal.Render(&shown, run); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(shown.String(), "step op1 (line 3) settled a tie: "+note) {
				t.Errorf("runs show lacks the tie:\n%s", shown.String())
			}
		})
	}
}
