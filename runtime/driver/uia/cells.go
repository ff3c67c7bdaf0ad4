package uia

import "github.com/cogflow/cogflow/runtime/driver"

// Tables: a DataGrid or Table control, or any element with the Grid or
// Table pattern (a Win32 list view in report mode is a List with Grid),
// holds rows — DataItem or ListItem children, or any child with grid items
// in it — whose children are the cells. Column headers come from the
// TableItem pattern when the cell has it, else from the Header child's
// HeaderItems by column; a row header from TableItem or from a HeaderItem
// at the row's start. Grid items placed directly in the table (no row
// elements) are cells at their GridItem Row and Column.

// isTable reports whether a node is a table container.
func isTable(n *Node) bool {
	return n.ControlType == ctDataGrid || n.ControlType == ctTable || n.Has(PatternGrid) || n.Has(PatternTable)
}

// tables sets CellInfo in every table of the subtree.
func (z *normalizer) tables(n *Node) {
	ks := kids(n)
	if isTable(n) {
		z.table(n, ks)
	}
	for _, k := range ks {
		z.tables(k)
	}
}

// table sets CellInfo on the rows and cells of one table.
func (z *normalizer) table(t *Node, ks []*Node) {
	var headers []string
	row := 0
	for _, k := range ks {
		switch {
		case k.ControlType == ctHeader:
			for _, h := range kids(k) {
				if h.ControlType == ctHeaderItem {
					headers = append(headers, clean(h.Name))
				}
			}
		case k.ControlType == ctHeaderItem:
			headers = append(headers, clean(k.Name))
		case k.GridRow >= 0 && k.GridColumn >= 0:
			// A cell straight in the table.
			z.cell(t, k, k.GridRow, k.GridColumn, headers, "")
		case isRow(k):
			z.row(t, k, row, headers)
			row++
		}
	}
}

// isRow reports whether a table's child is a row.
func isRow(k *Node) bool {
	if k.ControlType == ctDataItem || k.ControlType == ctListItem {
		return true
	}
	for _, c := range kids(k) {
		if c.GridRow >= 0 || c.Has(PatternGridItem) {
			return true
		}
	}
	return false
}

// row sets CellInfo on a row (column -1) and its cells. The row index is
// the cells' GridItem Row when they give one, else the row's position
// among the table's rows.
func (z *normalizer) row(t, r *Node, pos int, headers []string) {
	cells := kids(r)
	rowHeader := ""
	idx := pos
	for _, c := range cells {
		if c.GridRow >= 0 {
			idx = c.GridRow
			break
		}
	}
	col := 0
	for _, c := range cells {
		if c.ControlType == ctHeaderItem && rowHeader == "" && col == 0 {
			rowHeader = clean(c.Name)
			continue
		}
		column := col
		if c.GridColumn >= 0 {
			column = c.GridColumn
		}
		z.cell(t, c, idx, column, headers, rowHeader)
		col++
	}
	for _, c := range cells {
		if len(c.RowHeaders) > 0 && rowHeader == "" {
			rowHeader = clean(c.RowHeaders[0])
		}
	}
	z.els[z.index[r]].Cell = &driver.CellInfo{Table: t.Ref, Row: idx, Column: -1, RowHeader: rowHeader}
}

// cell sets one cell's CellInfo. A cell without a description is
// described by its column header: that is what tells "12" in the Price
// column from "12" in the Quantity column.
func (z *normalizer) cell(t, c *Node, row, column int, headers []string, rowHeader string) {
	colHeader := ""
	if len(c.ColumnHeaders) > 0 {
		colHeader = clean(c.ColumnHeaders[0])
	} else if column >= 0 && column < len(headers) {
		colHeader = headers[column]
	}
	if len(c.RowHeaders) > 0 {
		rowHeader = clean(c.RowHeaders[0])
	}
	el := z.els[z.index[c]]
	el.Cell = &driver.CellInfo{Table: t.Ref, Row: row, Column: column, ColumnHeader: colHeader, RowHeader: rowHeader}
	if el.Description == "" {
		el.Description = colHeader
	}
	if el.Role == "text" || el.Role == "custom" || el.Role == "textbox" && !el.Editable {
		el.Role = "cell"
	}
}
