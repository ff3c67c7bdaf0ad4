package runtime_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// selectorFake is the fake driver plus a Finder that evaluates css: as a
// table from selector to the refs it matches, the way the browser driver
// returns exactly what a selector matches.
type selectorFake struct {
	*drivertest.Fake
	css map[string][]string
}

func (f *selectorFake) Find(ctx context.Context, q driver.Query) ([]*driver.Element, error) {
	tree, _ := f.Observe(ctx)
	if !q.Hard() {
		return tree.Elements, nil
	}
	var out []*driver.Element
	for _, ref := range f.css[q.CSS] {
		for _, e := range tree.Elements {
			if e.Ref == ref {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// TestSelectorsAreHardConstraints: css: decides the candidates; the
// descriptive attributes only choose among them. A selector that matches
// nothing fails the step even when another element has the same name, and
// no action runs.
func TestSelectorsAreHardConstraints(t *testing.T) {
	page := func() *driver.Tree {
		return &driver.Tree{Elements: []*driver.Element{
			el("save1", "button", "Save"), el("save2", "button", "Save"), el("cancel", "button", "Cancel"),
			el("li1", "listitem", "one"), el("li2", "listitem", "two"),
		}}
	}
	css := map[string][]string{
		"#save": {"save2"}, ".btn": {"save1", "cancel"}, "button": {"save1", "save2", "cancel"},
		"li": {"li1", "li2"},
	}
	tests := []struct {
		name, step string
		clicked    string // the ref acted on, "" when the step must fail
		err        string
	}{
		{"one match wins", `click(button(name: "Save", css: "#save"))`, "save2", ""},
		{"selector alone", `click(element(css: "#save"))`, "save2", ""},
		{"name chooses among the matches", `click(button(name: "Cancel", css: ".btn"))`, "cancel", ""},
		{"a single match must fit its description", `click(button(name: "Delete", css: "#save"))`, "", `no element matches button(css: "#save", name: "Delete")`},
		{"a selector match is not judged by its place in the page walk", `click(button(name: "Save", css: "#save", path: "main/div[3]/button", description: "Order"))`, "save2", ""},
		{"no fuzzy fall-back", `click(button(name: "Save", css: "#missing"))`, "", `no element matches button(css: "#missing", name: "Save")`},
		{"ambiguous without a description", `click(element(css: "button"))`, "", "is ambiguous"},
		{"ambiguous among equal names", `click(button(name: "Save", css: "button"))`, "", "is ambiguous"},
		{"wait for a count", `wait(element(css: "li"), count: 2)`, "-", ""},
		{"wait for a count that never comes", `wait(element(css: "li"), count: 3, compare: "==", timeout: 0.3)`, "", "timed out after 300ms"},
		{"wait until gone", `wait(element(css: ".spinner"), hidden: true)`, "-", ""},
		{"wait until gone, never", `wait(element(css: "li"), hidden: true, timeout: 0.3)`, "", "no longer >= 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &selectorFake{Fake: drivertest.New(page()), css: css}
			file, task, info := load(t, "task t \"t\" {\n  driver browser\n  op1 = "+tt.step+"\n}\n")
			_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
			switch {
			case tt.clicked == "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one with %q", err, tt.err)
				}
				for _, a := range f.Log {
					if a.Op == "click" {
						t.Errorf("a click ran on %s after a failed anchoring", a.Target.Ref)
					}
				}
			case err != nil:
				t.Fatalf("run: %v", err)
			case tt.clicked != "-":
				if len(f.Log) != 1 || f.Log[0].Target == nil || f.Log[0].Target.Ref != tt.clicked {
					t.Fatalf("actions %+v, want one click on %s", f.Log, tt.clicked)
				}
			}
		})
	}
}
