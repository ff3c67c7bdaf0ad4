package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// filesTable is a table of files whose Name cells, when clicked, run
// change on the table's rows (deleting one, rendering them anew, …).
func filesTable(names []string, change func(names []string, clicked int) []string) *drivertest.Fake {
	var f *drivertest.Fake
	var build func(names []string, gen string) *driver.Tree
	build = func(names []string, gen string) *driver.Tree {
		var rows [][]string
		for _, n := range names {
			rows = append(rows, []string{n})
		}
		tree := drivertest.Index(&driver.Tree{Title: "Files",
			Elements: drivertest.Table("f"+gen, "Files", []string{"Name"}, rows)})
		for _, e := range tree.Elements {
			if e.Cell != nil && e.Cell.Column == 0 {
				row := e.Cell.Row
				e.Editable = false
				f.OnClick[e.Ref] = func(f *drivertest.Fake, _ *driver.Element) {
					f.SetTree(build(change(names, row), gen+"x"))
				}
			}
		}
		return tree
	}
	f = drivertest.New(&driver.Tree{})
	f.SetTree(build(names, ""))
	return f
}

// TestStructuralDrift: rows(…)[i], .cell(…) and next(…) are found again
// through the structure; when the element in that place is another one
// now, the step fails and acts on nothing.
func TestStructuralDrift(t *testing.T) {
	loop := "task t {\n  driver browser\n  for f in rows(table(name: \"Files\")) {\n    op1 = click(f.cell(\"Name\"))\n  }\n}"
	nextStep := "task t {\n  driver browser\n  op1 = click(next(rows(table(name: \"Files\"))[0]).cell(\"Name\"))\n  op2 = copy(op1)\n}"
	tests := []struct {
		name, src string
		change    func(names []string, clicked int) []string
		clicks    int    // actions that reached the page
		err       string // "" for a run that must succeed
	}{
		// Each click deletes its row: every later row is found where it
		// moved, none skipped.
		{"each row deleted in turn", loop, func(n []string, i int) []string {
			return append(append([]string(nil), n[:i]...), n[i+1:]...)
		}, 3, ""},
		{"a later row deleted", loop, func(n []string, i int) []string {
			if i != 0 {
				return n
			}
			return []string{n[0], n[2]}
		}, 1, `rows(table(name: "Files"))[1] was row(text: "b.txt") and is now row(text: "c.txt")`},
		{"rows rendered anew, same content", loop, func(n []string, _ int) []string { return n },
			3, ""},
		{"row renamed under the loop", loop, func(n []string, i int) []string {
			out := append([]string(nil), n...)
			if i+1 < len(out) {
				out[i+1] = "renamed.txt"
			}
			return out
		}, 1, `was row(text: "b.txt") and is now row(text: "renamed.txt")`},
		{"next after a deletion", nextStep, func(n []string, i int) []string {
			if i != 1 {
				return n
			}
			return append(append([]string(nil), n[:i]...), n[i+1:]...)
		}, 1, `next(rows(table(name: "Files"))[0]) was row(text: "b.txt") and is now row(text: "c.txt")`},
		{"the row before deleted", nextStep, func(n []string, _ int) []string { return n[1:] },
			1, `rows(table(name: "Files"))[0] was row(text: "a.txt") and is now row(text: "b.txt")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, task, info := load(t, tt.src)
			f := filesTable([]string{"a.txt", "b.txt", "c.txt"}, tt.change)
			_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
			} else {
				var drift *runtime.DriftError
				if !errors.As(err, &drift) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want a drift error with %q", err, tt.err)
				}
			}
			if len(f.Log) != tt.clicks {
				t.Errorf("%d actions reached the page, want %d: %+v", len(f.Log), tt.clicks, f.Log)
			}
			for i, a := range f.Log {
				if want := []string{"a.txt", "b.txt", "c.txt"}[min(i, 2)]; tt.err == "" && a.Target.Text != want {
					t.Errorf("action %d on %q, want %q", i+1, a.Target.Text, want)
				}
			}
		})
	}
}

// TestChosenElementDoesNotDrift: an element a answerer chose once is found
// again by what it was (its role, name, text, path); when it is gone, a
// look-alike is not taken for it.
func TestChosenElementDoesNotDrift(t *testing.T) {
	src := `task t {
  driver browser
  input keyword: text = "Mount Kenya"
  op1 = click(match_element<"the result about the keyword">(keyword))
  op2 = copy(op1)
}`
	file, task, info := load(t, src)
	f := drivertest.New(&driver.Tree{Elements: []*driver.Element{
		el("r1", "link", "Mount Kenya National Park"), el("r2", "link", "Mount Kenya"),
	}})
	f.OnClick["r2"] = func(f *drivertest.Fake, _ *driver.Element) {
		f.SetTree(&driver.Tree{Elements: []*driver.Element{el("r1", "link", "Mount Kenya National Park")}})
	}
	_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
	var ae *runtime.AnchorError
	if !errors.As(err, &ae) || ae.Ambiguous || !strings.Contains(err.Error(), `name is "Mount Kenya National Park"`) {
		t.Fatalf("err = %v, want no match listing the look-alike", err)
	}
	if len(f.Log) != 1 {
		t.Errorf("%d actions, want only the click: %+v", len(f.Log), f.Log)
	}
}

// TestWithinScopeIsStrict: the scope of within: is anchored by the same
// rules, so a missing scope is an error, not the nearest look-alike's
// button.
func TestWithinScopeIsStrict(t *testing.T) {
	src := "task t {\n  driver browser\n  op1 = click(button(name: \"Rename\", within: listitem(name: \"report.txt\")))\n}"
	file, task, info := load(t, src)
	page := drivertest.Index(&driver.Tree{Elements: []*driver.Element{
		el("l", "list", "Files"),
		el("l-0", "listitem", "report.txt.bak"), el("l-0-b", "button", "Rename"),
		el("l-1", "listitem", "notes.md"), el("l-1-b", "button", "Rename"),
	}})
	f := drivertest.New(page)
	_, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), `no element matches listitem(name: "report.txt")`) ||
		!strings.Contains(err.Error(), `name is "report.txt.bak"`) {
		t.Fatalf("err = %v", err)
	}
	if len(f.Log) != 0 {
		t.Errorf("acted: %+v", f.Log)
	}
}
