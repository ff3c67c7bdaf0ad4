package compiler

import (
	"slices"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Iteration over a plain list (not a table): when two or more operations
// act inside one item of a list, that item is the demonstrated one and the
// task repeats the same operations for every item after it,
//
//	for item in items(list(name: "Inbox"))[1:] {
//	  op3 = click(button(name: "Archive", within: item))
//	}
//
// Inside the loop a target is described by what it shares with its
// counterpart in a neighbouring item — the demonstrated item's own title
// would not be found in the next one — and looked for within the item.

// loopVar is the name of the loop's variable: row for tables, item for
// lists.
func (c *compiler) loopVar() string {
	if c.loopItems {
		return "item"
	}
	return "row"
}

// findListLoop is findLoop for lists: the first list item whose
// operations the demonstration repeated on the items after it (see
// loop_evidence.go). It reports whether it found one.
func (c *compiler) findListLoop() bool {
	for i, in := range c.infos {
		cont, idx, ok := itemKey(in.full)
		if !ok || c.seenItem(i, itemKey) {
			continue
		}
		// The item's operations end where another item's begin.
		last := i
		for j := i + 1; j < len(c.infos); j++ {
			if cj, ij, ok := itemKey(c.infos[j].full); ok && cj == cont {
				if ij != idx {
					last = j - 1 // what the person did between the items belongs to the first
					break
				}
				last = j
			}
		}
		l := listOf(in.full)
		c.loopLo, c.loopHi, c.loopItems = i, last, true
		c.loopTable, c.loopRow = cont, idx
		c.extendLoop(i)
		if c.filteredLoop(i, cont, idx) {
			return true
		}
		if !c.confirmLoop(itemKey) {
			c.loopItems = false
			continue
		}
		c.loopDesc = listDesc(c.tr, in.Target, in.Snapshot)
		if c.loopDesc == nil || c.loopDesc.Ctor == "table" {
			c.loopDesc = &targetDesc{Ctor: "list", Attrs: []describedAttr{{"path", l.Container}}}
		}
		return true
	}
	return false
}

// inLoopItem reports whether t lies in the item the loop iterates from.
func (c *compiler) inLoopItem(i int, t *trace.Target) bool {
	l := listOf(t)
	return c.loopItems && c.inLoop(i) && l != nil && l.Container == c.loopTable && l.Index == c.loopRow
}

// itemTarget is the expression for a target inside the loop's item: the
// item itself, or the element of the item that matches what target and
// its counterpart in a neighbouring item have in common.
func itemTarget(tr *trace.Trace, target *trace.Target, snapID string) ast.Expr {
	t, s, idx := findInSnapshot(tr, target, snapID)
	if t == nil {
		return ref("item")
	}
	ctor, base := ctorOf(t.Role)
	if s == nil || idx < 0 {
		return withinItem(&targetDesc{Ctor: ctor, Attrs: base})
	}
	li := s.Elements[idx].List
	if li == nil {
		return withinItem(&targetDesc{Ctor: ctor, Attrs: base})
	}
	// Drivers mark every element inside an item with the item's place;
	// the item is the outermost of them.
	item := idx
	for p := s.Elements[item].Parent; p >= 0 && p < len(s.Elements); p = s.Elements[item].Parent {
		if pl := s.Elements[p].List; pl == nil || pl.Container != li.Container || pl.Index != li.Index {
			break
		}
		item = p
	}
	if item == idx {
		return ref("item")
	}
	shared := sharedAttrs(s, idx, item)
	// The fewest shared attributes that single the element out in its
	// item; all of them when none does.
	for _, a := range shared {
		attrs := append(append([]describedAttr(nil), base...), a)
		if count(s, ctor, attrs, item) == 1 {
			return withinItem(&targetDesc{Ctor: ctor, Attrs: attrs})
		}
	}
	return withinItem(&targetDesc{Ctor: ctor, Attrs: append(append([]describedAttr(nil), base...), shared...)})
}

// sharedAttrs lists the attributes element idx has in common with the
// element at the same place in the item after (or before) its own item,
// in the order descriptions prefer them.
func sharedAttrs(s *trace.Snapshot, idx, item int) []describedAttr {
	own := s.Elements[idx]
	rel := strings.TrimPrefix(own.Path, s.Elements[item].Path)
	li := s.Elements[item].List
	var other *trace.Element
	for _, delta := range []int{1, -1} {
		for k := range s.Elements {
			e := &s.Elements[k]
			if e.List == nil || e.List.Container != li.Container || e.List.Index != li.Index+delta {
				continue
			}
			for q := range s.Elements {
				if s.Elements[q].Path == e.Path+rel && q != idx && under(s, q, k) {
					other = &s.Elements[q]
				}
			}
		}
		if other != nil {
			break
		}
	}
	if other == nil {
		return nil
	}
	var out []describedAttr
	// Not the description: it is the context around the item, the same
	// for every element in it.
	for _, n := range []string{"id", "name", "label", "placeholder", "text", "href"} {
		v := own.Get(n)
		if v != "" && v == other.Get(n) {
			out = append(out, describedAttr{n, v})
		}
	}
	// Last, the classes both have: an icon drawn by CSS (a like or share
	// button without text) is told from its siblings by its class alone.
	// A class is a token constraint at run time (every class written is
	// present), so a state class on one of them (active) is left out.
	if v := sharedTokens(own.Class, other.Class); v != "" {
		out = append(out, describedAttr{"class", v})
	}
	return out
}

// sharedTokens returns the space-separated tokens of a that b has too, in
// a's order.
func sharedTokens(a, b string) string {
	have := strings.Fields(b)
	var out []string
	for _, t := range strings.Fields(a) {
		if slices.Contains(have, t) && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return strings.Join(out, " ")
}

func withinItem(d *targetDesc) ast.Expr {
	c := d.Expr().(*ast.Call)
	c.Args = append(c.Args, named("within", ref("item")))
	return c
}
