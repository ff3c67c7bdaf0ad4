package runtime_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
)

// TestExploreBlockBudgetSpent: an explore block's budget is for the whole
// block; once its steps have spent it, a later miss in the block fails
// without exploring (not with a fresh default budget).
func TestExploreBlockBudgetSpent(t *testing.T) {
	src := `task notes {
  driver browser
  op1 = type(textbox(name: "Notes"), "hello")
  explore "save the notes", budget: 1 {
    op2 = click(button(name: "Save"))
    op3 = click(button(name: "Archive"))
  }
}`
	f := menuPage("More", "Save")
	_, log, _, err := runHeal(t, src, f, runtime.Options{})
	if err == nil || !strings.Contains(err.Error(), `no element matches button(name: "Archive")`) {
		t.Fatalf("err = %v, want op3's miss", err)
	}
	if !strings.Contains(err.Error(), "budget") {
		t.Errorf("err = %v, want it to say the budget is spent", err)
	}
	for _, r := range log.explored {
		if r.Step == "op3" {
			t.Errorf("op3 explored with the block's budget spent:\n%s", log.lines())
			break
		}
	}
	if got := clicked(f); got != "Notes,More,Save" {
		t.Errorf("clicked %q, want Notes,More,Save", got)
	}
}
