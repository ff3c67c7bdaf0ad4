package compiler

import (
	"github.com/cogflow/cogflow/runtime/match"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The compiler writes a description it has verified on the recorded
// snapshot; the runtime anchors it with runtime/match. A description is
// only taken as unique when both agree: it is the one exact fit in the
// snapshot, and the runtime's matching model, given the same candidates,
// chooses the demonstrated element. Where they differ (a second element
// whose name differs only in case, which the runtime counts as equal),
// the compiler tries the next description instead of writing one the
// run would find ambiguous.

// picks reports whether the description picks element idx of the
// snapshot, within root when root >= 0, by both measures.
func picks(s *trace.Snapshot, ctor string, attrs []describedAttr, root, idx int) bool {
	if idx < 0 || idx >= len(s.Elements) || count(s, ctor, attrs, root) != 1 || !matches(&s.Elements[idx], ctor, attrs) {
		return false
	}
	return chosen(s, ctor, attrs, root) == idx
}

// chosen is the element of the snapshot that the runtime's matching model
// picks for the description among the elements under root (all of them
// when root < 0), as anchoring a step would; -1 when it picks none.
func chosen(s *trace.Snapshot, ctor string, attrs []describedAttr, root int) int {
	d := match.Description{Role: ctor, Attrs: map[string]string{}, Index: -1}
	for _, a := range attrs {
		if a.Name == "role" {
			d.Role = a.Value // element(role: …), as the runtime reads it
			continue
		}
		d.Attrs[a.Name] = a.Value
	}
	var idxs []int
	for i := range s.Elements {
		// within: takes the descendants of its element, not the element.
		if root < 0 || (i != root && under(s, i, root)) {
			idxs = append(idxs, i)
		}
	}
	out := match.New(d).ChooseAround(len(idxs), func(k int, c *match.Candidate) {
		e := &s.Elements[idxs[k]]
		c.Attrs, c.Position = e.Attributes, placeOf(e)
	}, func(k int) (match.Around, bool) {
		// What surrounds a tied candidate, read as the runtime reads it
		// on a live screen, so that both settle twins alike.
		i := idxs[k]
		var a match.Around
		if c := s.Elements[i].Cell; c != nil {
			a.RowHeader = c.RowHeader
		}
		a.Before = match.Before(i, len(s.Elements), func(j int) match.Node {
			return match.Node{Parent: s.Elements[j].Parent, Role: s.Elements[j].Role, Text: s.Elements[j].Text}
		})
		return a, true
	})
	if out.Winner < 0 {
		return -1
	}
	return idxs[out.Winner]
}

// placeOf is a snapshot element's position for index:, as the runtime
// computes a live element's.
func placeOf(e *trace.Element) int {
	var listIndex, column, row int
	if e.List != nil {
		listIndex = e.List.Index
	}
	if e.Cell != nil {
		column, row = e.Cell.Column, e.Cell.Row
	}
	return match.Place(e.List != nil, listIndex, e.Cell != nil, column, row)
}
