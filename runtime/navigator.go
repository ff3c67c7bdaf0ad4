package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// navigator answers the function library's structural questions (rows,
// cell, items, next, previous, texts) from the driver's tree. The elements
// it returns are derived: each remembers how it was reached (the third row
// of this table, the Title cell of that row) and is found again that way
// whenever it is used, so a loop keeps working while the page changes.
type navigator struct {
	in  *Interp
	ctx context.Context
}

func (n navigator) elem(h any) (*Elem, error) {
	e, ok := h.(*Elem)
	if !ok {
		return nil, fmt.Errorf("not an element of this run")
	}
	return e, nil
}

// relatives lists the elements that share a parent structure with el, in
// order: the data rows of its table (header rows have Row < 0) or the items
// of its list.
func relatives(t *driver.Tree, container string, rows bool) []*driver.Element {
	var out []*driver.Element
	for _, e := range t.Elements {
		switch {
		case rows && e.Cell != nil && e.Cell.Table == container && e.Cell.Column < 0 && e.Cell.Row >= 0:
			out = append(out, e)
		case !rows && e.List != nil && e.List.Container == container && !insideItem(t, e):
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if rows {
			return out[i].Cell.Row < out[j].Cell.Row
		}
		return out[i].List.Index < out[j].List.Index
	})
	return out
}

// insideItem reports whether e lies within the list item it is marked
// with rather than being the item: drivers may mark every element of an
// item with the item's place.
func insideItem(t *driver.Tree, e *driver.Element) bool {
	if e.Parent < 0 || e.Parent >= len(t.Elements) {
		return false
	}
	p := t.Elements[e.Parent].List
	return p != nil && p.Container == e.List.Container && p.Index == e.List.Index
}

// children derives the rows of a table or the items of a list.
func (n navigator) children(h any, rows bool) ([]any, error) {
	parent, err := n.elem(h)
	if err != nil {
		return nil, err
	}
	live, err := n.in.anchorElement(n.ctx, parent)
	if err != nil {
		return nil, err
	}
	kind, fn := "items", "items"
	if rows {
		kind, fn = "rows", "rows"
	}
	found, err := n.relativesSoon(live.Ref, rows)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s: %s has no %s", fn, describe(live), kind)
	}
	out := make([]any, len(found))
	for i := range found {
		e := n.nth(parent, rows, i, fmt.Sprintf("%s(%s)[%d]", fn, parent.Origin, i))
		// What the list held when it was enumerated is what each item is:
		// a later iteration finding another item in its place fails
		// rather than acting on it (an earlier one deleted or moved it).
		e.Live = found[i]
		out[i] = e
	}
	return out, nil
}

// nth derives the i-th row or item of parent: the item that held that
// place when the list was enumerated, found again where it is now if
// earlier steps moved it (deleting the items before it, say).
func (n navigator) nth(parent *Elem, rows bool, i int, origin string) *Elem {
	e := &Elem{Origin: origin}
	e.derive = func(ctx context.Context, in *Interp) (*driver.Element, error) {
		live, err := in.anchorElement(ctx, parent)
		if err != nil {
			return nil, err
		}
		tree, err := in.observe(ctx)
		if err != nil {
			return nil, err
		}
		found := relativesOrChildren(tree, live.Ref, rows)
		if was := e.Live; was != nil && (i >= len(found) || !sameElement(was, found[i])) {
			if el := refind(found, was); el != nil {
				return el, nil
			}
		}
		if i >= len(found) {
			return nil, fmt.Errorf("there are only %d now", len(found))
		}
		return found[i], nil
	}
	return e
}

func (n navigator) Rows(table any) ([]any, error) { return n.children(table, true) }
func (n navigator) Items(list any) ([]any, error) { return n.children(list, false) }

// Cell derives the cell under a column header in a row.
func (n navigator) Cell(row any, header string) (any, error) {
	r, err := n.elem(row)
	if err != nil {
		return nil, err
	}
	cell := &Elem{Origin: fmt.Sprintf("%s.cell(%q)", r.Origin, header)}
	cell.derive = func(ctx context.Context, in *Interp) (*driver.Element, error) {
		live, err := in.anchorElement(ctx, r)
		if err != nil {
			return nil, err
		}
		if live.Cell == nil {
			return nil, fmt.Errorf("%s is not a table row", describe(live))
		}
		tree, err := in.observe(ctx)
		if err != nil {
			return nil, err
		}
		var headers []string
		for _, e := range tree.Elements {
			c := e.Cell
			if c == nil || c.Table != live.Cell.Table || c.Row != live.Cell.Row || c.Column < 0 || c.Row < 0 {
				continue
			}
			if normalize(c.ColumnHeader) == normalize(header) {
				return e, nil
			}
			headers = append(headers, fmt.Sprintf("%q", c.ColumnHeader))
		}
		return nil, fmt.Errorf("the row has no column %q (columns: %s)", header, strings.Join(headers, ", "))
	}
	// Resolve now, so that a wrong header fails at the step that names it.
	if _, err := n.in.anchorElement(n.ctx, cell); err != nil {
		return nil, err
	}
	return cell, nil
}

// rowCells lists the cells of a data row, left to right.
func rowCells(tree *driver.Tree, row *driver.Element) []*driver.Element {
	var out []*driver.Element
	for _, e := range tree.Elements {
		if c := e.Cell; c != nil && c.Table == row.Cell.Table && c.Row == row.Cell.Row && c.Column >= 0 && c.Row >= 0 {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Cell.Column < out[j].Cell.Column })
	return out
}

// Cells derives the cells of a row, left to right: lookup() reads them
// in key–value tables, which have no headers to name a cell by. Each is
// found again by its column, as Cell finds one by its header.
func (n navigator) Cells(row any) ([]any, error) {
	r, err := n.elem(row)
	if err != nil {
		return nil, err
	}
	live, err := n.in.anchorElement(n.ctx, r)
	if err != nil {
		return nil, err
	}
	if live.Cell == nil || live.Cell.Column >= 0 {
		return nil, fmt.Errorf("%s is not a table row", describe(live))
	}
	tree, err := n.in.observe(n.ctx)
	if err != nil {
		return nil, err
	}
	found := rowCells(tree, live)
	out := make([]any, len(found))
	for i, c := range found {
		column := c.Cell.Column
		cell := &Elem{Origin: fmt.Sprintf("cells(%s)[%d]", r.Origin, i), Live: c}
		cell.derive = func(ctx context.Context, in *Interp) (*driver.Element, error) {
			live, err := in.anchorElement(ctx, r)
			if err != nil {
				return nil, err
			}
			if live.Cell == nil {
				return nil, fmt.Errorf("%s is not a table row", describe(live))
			}
			tree, err := in.observe(ctx)
			if err != nil {
				return nil, err
			}
			for _, e := range rowCells(tree, live) {
				if e.Cell.Column == column {
					return e, nil
				}
			}
			return nil, fmt.Errorf("the row has no column %d now", column)
		}
		out[i] = cell
	}
	return out, nil
}

// step derives the item delta places after el in its list or table.
func (n navigator) step(h any, delta int, fn string) (any, error) {
	e, err := n.elem(h)
	if err != nil {
		return nil, err
	}
	out := &Elem{Origin: fmt.Sprintf("%s(%s)", fn, e.Origin)}
	out.derive = func(ctx context.Context, in *Interp) (*driver.Element, error) {
		live, err := in.anchorElement(ctx, e)
		if err != nil {
			return nil, err
		}
		tree, err := in.observe(ctx)
		if err != nil {
			return nil, err
		}
		var sibs []*driver.Element
		var at int
		switch {
		case live.Cell != nil && live.Cell.Column < 0:
			sibs, at = relatives(tree, live.Cell.Table, true), live.Cell.Row
		case live.List != nil:
			sibs, at = relatives(tree, live.List.Container, false), live.List.Index
		default:
			return nil, fmt.Errorf("%s is not an item of a list or table", describe(live))
		}
		if was := out.Live; was != nil && (at+delta < 0 || at+delta >= len(sibs) || !sameElement(was, sibs[at+delta])) {
			if el := refind(sibs, was); el != nil {
				return el, nil // the item it was, moved
			}
		}
		if at+delta < 0 || at+delta >= len(sibs) {
			return nil, fmt.Errorf("there is no item %d places from item %d (of %d)", delta, at, len(sibs))
		}
		return sibs[at+delta], nil
	}
	if _, err := n.in.anchorElement(n.ctx, out); err != nil {
		return nil, err
	}
	return out, nil
}

func (n navigator) Next(el any) (any, error)     { return n.step(el, 1, "next") }
func (n navigator) Previous(el any) (any, error) { return n.step(el, -1, "previous") }

// Text reads an element's visible text (its value for fields).
func (n navigator) Text(h any) (string, error) {
	e, err := n.elem(h)
	if err != nil {
		return "", err
	}
	live, err := n.in.anchorElement(n.ctx, e)
	if err != nil {
		return "", err
	}
	return elementText(live), nil
}

// elementText is what an element "says": a field's value, else its text.
func elementText(el *driver.Element) string {
	if el.Editable && el.Value != "" {
		return el.Value
	}
	if el.Text != "" {
		return el.Text
	}
	return el.Value
}
