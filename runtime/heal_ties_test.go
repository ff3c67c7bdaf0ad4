package runtime_test

import (
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestHealTieNotedOnce: a tie that anchoring settles on the screen
// exploration reached is the step's one choice, noted once, though the
// exploration's goal check anchored the target there too.
func TestHealTieNotedOnce(t *testing.T) {
	f := drivertest.New(&driver.Tree{URL: "http://site/notes", Title: "Notes", Elements: []*driver.Element{
		{Ref: "form", Role: "generic", Path: "form", Visible: true, Parent: -1},
		{Ref: "t0", Role: "textbox", Name: "Notes", ID: "notes", Path: "form/input", Editable: true, Visible: true, Enabled: true, Parent: 0},
		{Ref: "m0", Role: "button", Name: "More", Text: "More", Path: "form/button", Visible: true, Enabled: true, Parent: 0},
	}})
	f.OnClick["m0"] = func(f *drivertest.Fake, _ *driver.Element) {
		t := f.Tree()
		els := append([]*driver.Element(nil), t.Elements...)
		els = append(els, &driver.Element{Ref: "menu", Role: "generic", Path: "form/div", Visible: true, Parent: 0})
		for _, ref := range []string{"s1", "s2"} {
			els = append(els, &driver.Element{Ref: ref, Role: "button", Name: "Save", Text: "Save",
				Path: "form/div/button[" + ref[1:] + "]", Visible: true, Enabled: true, Parent: 3})
		}
		f.SetTree(&driver.Tree{URL: t.URL, Title: t.Title, Elements: els})
	}
	_, log, _, err := runHeal(t, saveNotes, f, runtime.Options{Heal: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := clicked(f); got != "Notes,More,Save" {
		t.Errorf("clicked %q", got)
	}
	const note = "twins: 2 tied, the first of identical siblings taken"
	var ties []string
	for _, s := range log.steps {
		if s.Step == "op2" {
			ties = s.Ties
		}
	}
	if len(ties) != 1 || ties[0] != note {
		t.Errorf("op2's ties = %q, want the one tie %q", ties, note)
	}
}
