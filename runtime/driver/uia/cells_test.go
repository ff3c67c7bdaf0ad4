package uia

import (
	"strconv"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// The snapshots hold no table, so these trees are built by hand after
// the shapes UIA gives the two usual tables: a WPF DataGrid (rows are
// DataItems, cells Custom elements with GridItem and TableItem) and a
// Win32 list view in report mode (a List with the Grid pattern, a Header
// of HeaderItems, ListItems whose Text children are grid items).

func gridCell(name string, row, col int, colHeader string) *Node {
	c := node(ctCustom, "", "DataGridCell", node(ctText, name, "TextBlock"))
	c.GridRow, c.GridColumn = row, col
	c.Patterns = []int{PatternGridItem, PatternTableItem}
	if colHeader != "" {
		c.ColumnHeaders = []string{colHeader}
	}
	return c
}

func TestWPFDataGrid(t *testing.T) {
	header := node(ctHeader, "", "DataGridColumnHeadersPresenter",
		node(ctHeaderItem, "Title", "DataGridColumnHeader"), node(ctHeaderItem, "Price", "DataGridColumnHeader"))
	row := func(i int, title, price string) *Node {
		r := node(ctDataItem, "Item "+title, "DataGridRow", gridCell(title, i, 0, "Title"), gridCell(price, i, 1, ""))
		r.Patterns = []int{PatternSelectionItem}
		return r
	}
	grid := node(ctDataGrid, "Books", "DataGrid", header, row(0, "Dune", "12"), row(1, "Emma", "9"))
	grid.Ref, grid.Patterns = "grid", []int{PatternGrid, PatternTable, PatternSelection}
	els := Normalize(node(ctWindow, "Shop", "Window", grid))

	var cells []string
	for _, e := range els {
		if e.Cell == nil {
			continue
		}
		if e.Cell.Table != "grid" {
			t.Errorf("%s: table %q", e.Path, e.Cell.Table)
		}
		cells = append(cells, strings.Join([]string{e.Role, e.Text, strconv.Itoa(e.Cell.Row), strconv.Itoa(e.Cell.Column), e.Cell.ColumnHeader, e.Description}, ":"))
	}
	want := []string{
		"row:Dune 12:0:-1::",
		"cell:Dune:0:0:Title:Title",
		"cell:12:0:1:Price:Price", // the header by column when TableItem gives none
		"row:Emma 9:1:-1::",
		"cell:Emma:1:0:Title:Title",
		"cell:9:1:1:Price:Price",
	}
	if got := strings.Join(cells, " "); got != strings.Join(want, " ") {
		t.Errorf("cells\n got %v\nwant %v", cells, want)
	}
	for _, e := range els {
		if e.Role == "row" && (e.List == nil || e.List.Size != 2) {
			t.Errorf("row %s is not an item of the grid's 2: %+v", e.Path, e.List)
		}
	}
}

func TestWin32ListViewReport(t *testing.T) {
	sub := func(name string, row, col int) *Node {
		c := node(ctText, name, "")
		c.GridRow, c.GridColumn = row, col
		c.Patterns = []int{PatternGridItem, PatternTableItem}
		return c
	}
	item := func(i int, file, size string) *Node {
		return node(ctListItem, file, "", sub(file, i, 0), sub(size, i, 1))
	}
	lv := node(ctList, "Files", "SysListView32",
		node(ctHeader, "", "", node(ctHeaderItem, "Name", ""), node(ctHeaderItem, "Size", "")),
		item(0, "a.txt", "1 KB"), item(1, "b.txt", "3 KB"), item(2, "c.txt", "2 KB"))
	lv.Ref, lv.Patterns = "lv", []int{PatternGrid, PatternSelection}
	els := Normalize(lv)
	var sizes []string
	for _, e := range els {
		if e.Cell != nil && e.Cell.ColumnHeader == "Size" {
			sizes = append(sizes, e.Text+"@"+strconv.Itoa(e.Cell.Row))
			if e.Role != "cell" {
				t.Errorf("%s is %s, want cell", e.Path, e.Role)
			}
		}
		if e.Role == "listitem" && (e.List == nil || e.List.Container != "lv" || e.List.Size != 3) {
			t.Errorf("%s: list %+v", e.Path, e.List)
		}
	}
	if got := strings.Join(sizes, ","); got != "1 KB@0,3 KB@1,2 KB@2" {
		t.Errorf("size cells %s", got)
	}
}

// TestRowHeaders checks a row header given by a HeaderItem at the start
// of a row, which is then not a cell.
func TestRowHeaders(t *testing.T) {
	row := func(h, v string) *Node {
		return node(ctDataItem, "", "Row", node(ctHeaderItem, h, "RowHeader"), node(ctText, v, "Cell"))
	}
	tbl := node(ctTable, "Stats", "Table", node(ctHeader, "", "", node(ctHeaderItem, "Value", "")), row("Mon", "3"), row("Tue", "5"))
	tbl.Ref = "t"
	els := Normalize(tbl)
	for _, e := range els {
		if e.Name == "5" && (e.Cell == nil || e.Cell.RowHeader != "Tue" || e.Cell.Row != 1 || e.Cell.Column != 0 || e.Cell.ColumnHeader != "Value") {
			t.Errorf("cell 5: %+v", e.Cell)
		}
		if e.Role == "columnheader" && e.Cell != nil {
			t.Errorf("header item %q is a cell", e.Name)
		}
	}
}

// TestReadSnapshotErrors checks that bad snapshots give errors, not
// panics or empty trees.
func TestReadSnapshotErrors(t *testing.T) {
	deep := strings.Repeat(`{"ControlTypeId": 50026, "Children": [`, 300) + `{"ControlTypeId": 50020}` + strings.Repeat(`]}`, 300)
	tests := []struct{ name, json, want string }{
		{"not json", `{"Name": `, "unexpected end"},
		{"no control type", `{"Name": "x"}`, "no control type"},
		{"pattern without id", `{"ControlTypeId": 50000, "Patterns": [{"Name": "InvokePattern"}]}`, "has no id"},
		{"too deep", deep, "deeper than"},
		{"bad child", `{"ControlTypeId": 50000, "Children": [{"Name": "c"}]}`, "no control type"},
	}
	for _, tt := range tests {
		n, err := ReadSnapshot([]byte(tt.json))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, %v; want an error with %q", tt.name, n, err, tt.want)
		}
	}
	// Wrong types in properties are ignored, like absent ones.
	n, err := ReadSnapshot([]byte("\xef\xbb\xbf" + `{"ControlTypeId": 50000, "Properties": {"30005": {"Value": 7}, "30001": {"Value": "x"}}}`))
	if err != nil || n.Name != "" || n.Rect != (driver.Rect{}) {
		t.Errorf("%+v, %v", n, err)
	}
	if _, err := LoadSnapshot("testdata/nope.snapshot"); err == nil {
		t.Error("a missing file loads")
	}
	if Normalize(nil) != nil {
		t.Error("a nil tree normalizes to elements")
	}
}
