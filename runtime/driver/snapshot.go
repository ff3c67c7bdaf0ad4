package driver

import "github.com/cogflow/cogflow/runtime/trace"

// The conversions between an observation and the trace's snapshot: the
// trace is the contract between the recorders and the compiler, so it
// knows nothing of drivers; drivers write it.

// Attributes returns the element's attributes as a trace records them.
func (e *Element) Attributes() trace.Attributes {
	return trace.Attributes{
		Role: e.Role, Name: e.Name, Text: e.Text, ID: e.ID, Class: e.Class, Value: e.Value,
		Placeholder: e.Placeholder, Label: e.Label, Href: e.Href, Description: e.Description, Path: e.Path,
		Bounds:  trace.Rect{X: e.Bounds.X, Y: e.Bounds.Y, W: e.Bounds.W, H: e.Bounds.H},
		Visible: e.Visible, Enabled: e.Enabled, Editable: e.Editable, Checked: e.Checked, Focus: e.Focus,
	}
}

// SnapshotOf converts an observation into a trace snapshot.
func SnapshotOf(tree *Tree) trace.Snapshot {
	s := trace.Snapshot{URL: tree.URL, Title: tree.Title}
	if len(tree.Elements) > 0 {
		s.Elements = make([]trace.Element, len(tree.Elements))
	}
	for i, e := range tree.Elements {
		el := trace.Element{Ref: e.Ref, Attributes: e.Attributes(), Parent: e.Parent}
		if e.List != nil {
			el.List = &trace.ListInfo{Container: e.List.Container, Index: e.List.Index, Size: e.List.Size}
		}
		if e.Cell != nil {
			el.Cell = &trace.CellInfo{Table: e.Cell.Table, Row: e.Cell.Row, Column: e.Cell.Column,
				ColumnHeader: e.Cell.ColumnHeader, RowHeader: e.Cell.RowHeader}
		}
		s.Elements[i] = el
	}
	return s
}

// TargetOf describes element i of an observation as an event target, as
// trace.TargetOf does for a snapshot. It panics if i is out of range.
func TargetOf(tree *Tree, i int) *trace.Target {
	s := SnapshotOf(tree)
	return trace.TargetOf(&s, i)
}

// ElementOf returns a snapshot element as an Element (List and Cell keep
// the refs of their container and table).
func ElementOf(e trace.Element) *Element {
	a := e.Attributes
	d := &Element{
		Ref: e.Ref, Role: a.Role, Name: a.Name, Text: a.Text, ID: a.ID, Class: a.Class, Value: a.Value,
		Placeholder: a.Placeholder, Label: a.Label, Href: a.Href, Description: a.Description, Path: a.Path,
		Bounds:  Rect{X: a.Bounds.X, Y: a.Bounds.Y, W: a.Bounds.W, H: a.Bounds.H},
		Visible: a.Visible, Enabled: a.Enabled, Editable: a.Editable, Checked: a.Checked, Focus: a.Focus,
		Parent: e.Parent,
	}
	if e.List != nil {
		d.List = &ListInfo{Container: e.List.Container, Index: e.List.Index, Size: e.List.Size}
	}
	if e.Cell != nil {
		d.Cell = &CellInfo{Table: e.Cell.Table, Row: e.Cell.Row, Column: e.Cell.Column,
			ColumnHeader: e.Cell.ColumnHeader, RowHeader: e.Cell.RowHeader}
	}
	return d
}

// TreeOf returns a snapshot as a Tree (Taken is zero).
func TreeOf(s trace.Snapshot) *Tree {
	t := &Tree{URL: s.URL, Title: s.Title, Elements: make([]*Element, len(s.Elements))}
	for i, e := range s.Elements {
		t.Elements[i] = ElementOf(e)
	}
	return t
}

// Attr returns the attribute a description names, as trace.Attributes.Get
// does.
func (e *Element) Attr(name string) string {
	a := e.Attributes()
	return a.Get(name)
}
