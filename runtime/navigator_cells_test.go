package runtime

import (
	"slices"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestRowCells: a row's cells are its own, left to right by column, even
// when the tree lists them out of order, a span skips a column, a header
// row shares the row's index space, or a nested table has its own rows.
func TestRowCells(t *testing.T) {
	cell := func(ref, table string, row, col int) *driver.Element {
		return &driver.Element{Ref: ref, Role: "cell", Cell: &driver.CellInfo{Table: table, Row: row, Column: col}}
	}
	row := &driver.Element{Ref: "r1", Role: "row", Cell: &driver.CellInfo{Table: "t", Row: 1, Column: -1}}
	tree := &driver.Tree{Elements: []*driver.Element{
		cell("head0", "t", -1, 0), // a header row's cell
		row,
		cell("r1c3", "t", 1, 3),
		cell("r1c0", "t", 1, 0),
		cell("r0c1", "t", 0, 1),
		cell("nested", "inner", 1, 1), // row 1 of a table inside the cell
		cell("r1c1", "t", 1, 1),       // spans columns 1 and 2
	}}
	var got []string
	for _, e := range rowCells(tree, row) {
		got = append(got, e.Ref)
	}
	if want := []string{"r1c0", "r1c1", "r1c3"}; !slices.Equal(got, want) {
		t.Errorf("cells = %v, want %v", got, want)
	}
}
