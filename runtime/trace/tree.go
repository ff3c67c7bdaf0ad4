package trace

import "sort"

// Caps on context texts, in runes.
const (
	maxParentText  = 200
	maxSiblingText = 80
	maxSiblings    = 3
	maxItemTexts   = 5
)

// TargetOf describes element i of a snapshot as an event target: its
// attributes and its context (parent and sibling texts, table headers, the
// list it belongs to), computed from the snapshot. It panics if i is out
// of range.
func TargetOf(tree *Snapshot, i int) *Target {
	els := tree.Elements
	e := &els[i]
	t := &Target{Ref: e.Ref, Attributes: e.Attributes}
	c := &Context{}
	own := textOf(e)

	for p := e.Parent; p >= 0 && p < len(els) && p != i; p = els[p].Parent {
		if txt := els[p].Text; txt != "" && txt != own {
			c.ParentText = capText(txt, maxParentText)
			break
		}
		if els[p].Parent >= p { // malformed tree: parents come first
			break
		}
	}

	type sib struct {
		dist int
		text string
	}
	var sibs []sib
	for j := range els {
		s := &els[j]
		if j == i || s.Parent != e.Parent {
			continue
		}
		if txt := textOf(s); txt != "" {
			d := j - i
			if d < 0 {
				d = -d
			}
			sibs = append(sibs, sib{d, capText(txt, maxSiblingText)})
		}
	}
	sort.SliceStable(sibs, func(a, b int) bool { return sibs[a].dist < sibs[b].dist })
	for k := 0; k < len(sibs) && k < maxSiblings; k++ {
		c.SiblingTexts = append(c.SiblingTexts, sibs[k].text)
	}

	// The nearest element, the target itself or an ancestor, that is a
	// cell or row, and that is a list item.
	for k, n := i, 0; k >= 0 && k < len(els) && n < len(els) && (c.Headers == nil || c.List == nil); k, n = els[k].Parent, n+1 {
		a := &els[k]
		if c.Headers == nil && a.Cell != nil {
			c.Headers = &Headers{Table: pathOf(tree, a.Cell.Table), Column: a.Cell.ColumnHeader,
				Row: a.Cell.RowHeader, RowIndex: a.Cell.Row, ColumnIndex: a.Cell.Column}
		}
		if c.List == nil && a.List != nil {
			c.List = listContext(tree, a.List)
		}
	}

	if c.ParentText != "" || len(c.SiblingTexts) > 0 || c.Headers != nil || c.List != nil {
		t.Context = c
	}
	return t
}

func listContext(tree *Snapshot, li *ListInfo) *ListContext {
	lc := &ListContext{Container: pathOf(tree, li.Container), Index: li.Index, Size: li.Size}
	type item struct {
		index int
		text  string
	}
	// An item and the elements inside it may share a list position (the
	// walker marks both); the first one at each position, the outermost,
	// stands for the item.
	var items []item
	seen := map[int]bool{}
	for k := range tree.Elements {
		x := &tree.Elements[k]
		if x.List != nil && x.List.Container == li.Container && !seen[x.List.Index] {
			seen[x.List.Index] = true
			items = append(items, item{x.List.Index, capText(textOf(x), maxSiblingText)})
		}
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].index < items[b].index })
	lo := li.Index - maxItemTexts/2
	if lo < 0 {
		lo = 0
	}
	for _, it := range items {
		if it.index >= lo && len(lc.ItemTexts) < maxItemTexts {
			lc.ItemTexts = append(lc.ItemTexts, it.text)
		}
	}
	return lc
}

func textOf(e *Element) string {
	if e.Text != "" {
		return e.Text
	}
	return e.Name
}

func pathOf(tree *Snapshot, ref string) string {
	for i := range tree.Elements {
		if tree.Elements[i].Ref == ref {
			return tree.Elements[i].Path
		}
	}
	return ""
}

func capText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
