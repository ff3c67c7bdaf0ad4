package uia

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// runWorkflow parses, checks and runs a workflow with the interpreter on
// a driver over a fake of root, and returns the fake's log.
func runWorkflow(t *testing.T, root *Node, src string) []string {
	t.Helper()
	d, fk := testDriver(root)
	if err := runOn(t, d, src); err != nil {
		t.Fatalf("run: %v\nlog: %q", err, fk.log)
	}
	return fk.log
}

// runOn parses, checks and runs a workflow on a driver, and returns the
// run's error.
func runOn(t *testing.T, d *Driver, src string) error {
	t.Helper()
	f, diags := syntax.Parse("t.cog", []byte(src))
	if f == nil || diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	info, diags := check.Check(f, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	var task *ast.Task
	for _, d := range f.Decls {
		if tk, ok := d.(*ast.Task); ok {
			task = tk
		}
	}
	_, err := runtime.New(f, task, info, d, runtime.Options{}).Run(context.Background())
	return err
}

// TestInterpreterOnSnapshots runs a workflow through the interpreter
// over the Monster window: every step anchors in the normalized tree and
// acts API-first.
func TestInterpreterOnSnapshots(t *testing.T) {
	log := runWorkflow(t, monsterRoot(t), `task monster "Pick a pet and search" {
  driver uia
  input query: text = "parrots"
  op1 = click(listitem(name: "Birds"))
  op2 = type(textbox(class: "TextBox"), query)
  op3 = click(button(name: "<"))
  op4 = click(menuitem(text: "Font"))
  op5 = key("Ctrl+S")
}
`)
	want := `select Birds; set-value TextBox; invoke <; expand Font; keys [17] 83 '\x00'`
	if got := strings.Join(log, "; "); got != want {
		t.Errorf("log\n got %q\nwant %q", got, want)
	}
}

// booksGrid is a WPF-shaped DataGrid "Books" (Title, Price) with the rows
// Dune 12, Emma 9 and Ulysses 15, in a window.
func booksGrid() *Node {
	header := node(ctHeader, "", "DataGridColumnHeadersPresenter",
		node(ctHeaderItem, "Title", "DataGridColumnHeader"), node(ctHeaderItem, "Price", "DataGridColumnHeader"))
	row := func(i int, title, price string) *Node {
		r := node(ctDataItem, "Item "+title, "DataGridRow", gridCell(title, i, 0, "Title"), gridCell(price, i, 1, "Price"))
		r.Ref = "row" + title
		for j, c := range r.Children {
			c.Ref = r.Ref + "." + string(rune('a'+j))
			c.Name = c.Children[0].Name // WPF names a cell by its content
			c.Patterns = append(c.Patterns, PatternSelectionItem)
		}
		return r
	}
	grid := node(ctDataGrid, "Books", "DataGrid", header, row(0, "Dune", "12"), row(1, "Emma", "9"), row(2, "Ulysses", "15"))
	grid.Ref, grid.Patterns = "grid", []int{PatternGrid, PatternTable}
	return node(ctWindow, "Shop", "Window", grid)
}

// TestInterpreterRows runs an iterative workflow over a WPF-shaped
// DataGrid: rows() and .cell("Header") find the rows and cells by the
// CellInfo normalization gave them.
func TestInterpreterRows(t *testing.T) {
	log := runWorkflow(t, booksGrid(), `task prices "Select each book's price" {
  driver uia
  for book in rows(table(name: "Books"))[1:] {
    op1 = click(book.cell("Price"))
  }
}
`)
	// Rows 1 and 2 (the loop skips row 0), column "Price".
	want := "select 9; select 15"
	if got := strings.Join(log, "; "); got != want {
		t.Errorf("log %q, want %q", got, want)
	}
}

// TestInterpreterLookup: find_row, lookup and with_text work on UIA
// tables through the same navigator as in the browser.
func TestInterpreterLookup(t *testing.T) {
	log := runWorkflow(t, booksGrid(), `task lookup "Select prices found by title" {
  driver uia
  op1 = click(find_row(table(name: "Books"), "Title", "Emma").cell("Price"))
  op2 = assert(lookup(table(name: "Books"), "Ulysses") == "15")
  op3 = click(with_text(rows(table(name: "Books")), "Dune")[0].cell("Price"))
}
`)
	if got, want := strings.Join(log, "; "), "select 9; select 12"; got != want {
		t.Errorf("log %q, want %q", got, want)
	}
}
