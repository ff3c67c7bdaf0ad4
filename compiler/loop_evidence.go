package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/printer"

	"github.com/cogflow/cogflow/runtime/trace"
)

// When a demonstration is evidence of iteration.
//
// One item done by hand — one row of a table, one item of a list, however
// many operations on it — says nothing about the other items: the person
// may have wanted that one only. Compiling it to a loop would act on items
// the demonstration never touched, and a loop over the items *after* it
// would not act on the demonstrated one at all. So the compiler makes a
// loop only when the demonstration itself repeats: the same operations
// (same actions, in the same columns of the row or the same place in the
// item) done on two or more consecutive items. The loop then starts at
// the first demonstrated item, so that every item the person did is done
// again, and goes on to the end of the list; the repetitions are the
// loop's later iterations, not steps of their own.
//
// Fields of a form are never items of a loop: a form whose rows look
// alike is a list to the UI extractor, but typing into its fields one
// after the other is filling the form.

// repeats reports how many consecutive items after the first one the
// demonstration did alike: ops [c.loopLo, c.loopHi] act on item first
// (by key), and each following block must do the same on item first+1,
// first+2, …. It returns the number of repetitions and the index of the
// last op they cover.
func (c *compiler) repeats(key func(*trace.Target) (string, int, bool)) (n, end int) {
	end = c.loopHi
	for start := c.loopHi + 1; start < len(c.infos); start = end + 1 {
		stop, ok := c.matchBlock(start, n+1, key)
		if !ok {
			break
		}
		n++
		end = stop
	}
	return n, end
}

// matchBlock reports whether the ops from start do what ops [c.loopLo,
// c.loopHi] did, on the item delta places further, and the index of the
// last op of that block. Incidental ops (see incidental) are skipped on
// both sides: whether a recorder saw them depends on timing, not on what
// the person did.
func (c *compiler) matchBlock(start, delta int, key func(*trace.Target) (string, int, bool)) (int, bool) {
	a, b, last, onItem := c.loopLo, start, start-1, false
	for a <= c.loopHi {
		if c.incidental(a) {
			a++
			continue
		}
		for b < len(c.infos) && c.incidental(b) && !c.folded[b] {
			b++
		}
		if b >= len(c.infos) {
			return 0, false
		}
		x, y := c.infos[a], c.infos[b]
		if x.Action != y.Action {
			return 0, false
		}
		xc, xi, xok := key(x.full)
		yc, yi, yok := key(y.full)
		switch {
		case xok != yok:
			return 0, false
		case !xok:
			// Outside the item: the same element (or none).
			if (x.desc == nil) != (y.desc == nil) || (x.desc != nil && x.desc.String() != y.desc.String()) {
				return 0, false
			}
		case xc != yc || yi != xi+delta || !c.sameSpot(x, y):
			return 0, false
		default:
			onItem = true
		}
		last = b
		a, b = a+1, b+1
	}
	return last, onItem
}

// incidental reports whether op i is a by-product of the ops around it
// rather than something the person did: a selection inside a text field
// (Ctrl+A before typing over it) is reported or not depending on how long
// the selection rested.
func (c *compiler) incidental(i int) bool {
	in := c.infos[i]
	return in.Action == action.SelectText && isField(in.full)
}

// sameSpot reports whether two ops' targets sit at the same place in
// their rows (the same column) or items: the loop body would describe
// both alike (the Odd button of one item and the Even button of the next
// are not the same step).
func (c *compiler) sameSpot(x, y *info) bool {
	a, b := x.full, y.full
	if ha, hb := headersOf(a), headersOf(b); ha != nil || hb != nil {
		return ha != nil && hb != nil && ha.ColumnIndex == hb.ColumnIndex
	}
	if a.Role != b.Role {
		return false
	}
	ex := printer.ExprString(itemTarget(c.tr, x.Target, x.Snapshot))
	ey := printer.ExprString(itemTarget(c.tr, y.Target, y.Snapshot))
	return ex == ey
}

// rowKey places a target in a table row.
func rowKey(t *trace.Target) (string, int, bool) {
	if h := headersOf(t); h != nil && h.Table != "" {
		return h.Table, h.RowIndex, true
	}
	return "", 0, false
}

// itemKey places a target in a list item; form fields are in none.
func itemKey(t *trace.Target) (string, int, bool) {
	if l := listOf(t); l != nil && l.Container != "" && headersOf(t) == nil && !isField(t) {
		return l.Container, l.Index, true
	}
	return "", 0, false
}

// isField reports whether t is a form control: typed into, toggled or
// chosen from.
func isField(t *trace.Target) bool {
	if t == nil {
		return false
	}
	switch t.Role {
	case "textbox", "searchbox", "checkbox", "radio", "switch", "combobox", "listbox", "slider", "spinbutton":
		return true
	}
	return t.Editable && t.Role != "cell"
}

// confirmLoop keeps the loop found at [c.loopLo, c.loopHi] only when the
// demonstration repeated it; the repetitions' ops are folded into the
// loop. Without a repetition there is no loop.
func (c *compiler) confirmLoop(key func(*trace.Target) (string, int, bool)) bool {
	n, end := c.repeats(key)
	if n == 0 || c.passedOver(key, n, end) {
		c.loopLo, c.loopHi = -1, -1
		return false
	}
	c.loopReps = n
	for j := c.loopHi + 1; j <= end; j++ {
		c.folded[j] = true
		c.loopFolded = append(c.loopFolded, c.infos[j].Events...)
	}
	return true
}

// passedOver reports whether, after the n repetitions ending at op end,
// the demonstration acted on a later item of the loop's list on its own:
// it left out an item between (did items 1–5, then 7, of 8) or did the
// next one differently. Either way the person chose item by item (the
// posts of one user among others'), and a loop to the end of the list
// would act on items the person saw and left alone — silently wrong on
// replay. Each demonstrated item is then compiled on its own. (A
// demonstration that simply stops, items 1–2 of 3, stays a loop: nothing
// in it tells a choice from a sample.)
func (c *compiler) passedOver(key func(*trace.Target) (string, int, bool), n, end int) bool {
	for j := end + 1; j < len(c.infos); j++ {
		if k, i, ok := key(c.infos[j].full); ok && k == c.loopTable && i > c.loopRow+n {
			return true
		}
	}
	return false
}

// loopComment explains the loop in the workflow.
func (c *compiler) loopComment() string {
	what, whole := "row", "table"
	if c.loopItems {
		what, whole = "item", "list"
	}
	return fmt.Sprintf("# iterative: the demonstration did %ss %d–%d of the %s alike (the repetition: %s); the loop does every %s from %s %d on",
		what, c.loopRow+1, c.loopRow+1+c.loopReps, whole, cite(c.loopFolded), what, what, c.loopRow+1)
}

// seenItem reports whether an op before op i acted on the same item as
// op i: a loop starts at the first op on its item, never in its middle.
func (c *compiler) seenItem(i int, key func(*trace.Target) (string, int, bool)) bool {
	ci, ii, ok := key(c.infos[i].full)
	if !ok {
		return false
	}
	for j := 0; j < i; j++ {
		if cj, ij, ok := key(c.infos[j].full); ok && cj == ci && ij == ii {
			return true
		}
	}
	return false
}

// onOtherItem reports whether t lies in the loop's table or list, on
// another item than the demonstrated one.
func (c *compiler) onOtherItem(t *trace.Target) bool {
	for _, key := range []func(*trace.Target) (string, int, bool){rowKey, itemKey} {
		if k, i, ok := key(t); ok && k == c.loopTable && i != c.loopRow {
			return true
		}
	}
	return false
}

// identified reports whether a target's description names it by an
// identifying attribute — an id, or for a form field its label, name or
// placeholder — unique on the screen it was recorded on. Such an element is
// described by it wherever it sits: that a UI extractor took its form for
// a list does not make it one item of many to choose from. (Without a
// snapshot to verify against, an id is taken as unique: that is what ids
// are for.)
func identified(t *trace.Target, d *targetDesc) bool {
	if d == nil || t == nil {
		return false
	}
	if d.Get("id") != "" && (d.Unique || d.Within == nil) {
		return true
	}
	if !isField(t) || !d.Unique || d.Within != nil {
		return false
	}
	return d.Get("label") != "" || d.Get("name") != "" || d.Get("placeholder") != ""
}

// itemChosen reports whether an op before op i acted in the same list
// item as l: the item was chosen then (the person selected its name, say),
// so a later click in it (its Rename button) is no new choice among the
// items and is described, uniquely, within that item.
func (c *compiler) itemChosen(i int, l *trace.ListContext) bool {
	for j := 0; j < i; j++ {
		if m := listOf(c.infos[j].full); m != nil && m.Container == l.Container && m.Index == l.Index {
			return true
		}
	}
	return false
}

// demonstratedChoice decides, for a click on an item of a list that no
// earlier step chose, whether to write the demonstrated item's own
// description instead of a TODO choice: when no language model will judge
// it (compile --no-llm), no earlier value flows into the choice (nothing
// the next run types would change it: it is made on the screen alone),
// and the description names exactly one element of the screen. On the
// same screen that is the item the person chose, so the workflow replays
// the demonstration; the warning says that another instance may need a
// choice. Otherwise the TODO stays, for the model or a person to describe.
func (c *compiler) demonstratedChoice(in *info, d *targetDesc, st *state) bool {
	if c.llm || len(st.sources) > 0 || d == nil || !d.Unique {
		return false
	}
	c.warn(in.Events, "%s: %s on a list item (%s): compiled as the item the demonstration chose, %s; on another screen the choice may need judgement: describe it with match_element",
		in.name, in.Action, strings.Join(in.Events, ", "), d.String())
	return true
}

// isItem reports whether target is an item of its list itself, not an
// element inside one: next(opK) is the whole item after opK's, so it only
// describes a target that is a whole item (the next search result), never
// a button inside it.
func isItem(tr *trace.Trace, target *trace.Target, snapID string) bool {
	t, s, idx := findInSnapshot(tr, target, snapID)
	if t == nil {
		return false
	}
	if s == nil || idx < 0 {
		switch t.Role {
		case "listitem", "row", "option", "menuitem", "treeitem", "article":
			return true
		}
		return false
	}
	li := s.Elements[idx].List
	if li == nil {
		return false
	}
	p := s.Elements[idx].Parent
	if p < 0 || p >= len(s.Elements) {
		return true
	}
	pl := s.Elements[p].List
	return pl == nil || pl.Container != li.Container || pl.Index != li.Index
}

// containerDesc describes a list or table. Its text is the text of its
// items — data that changes with what the page lists (an autocomplete's
// suggestions for what was typed so far) — so a container told apart only
// by its text is described by its path instead.
func containerDesc(tr *trace.Trace, ref, snapID string) *targetDesc {
	d := describeTarget(tr, &trace.Target{Ref: ref}, snapID)
	if d.Get("text") == "" {
		return d
	}
	s, ok := tr.Snapshots[snapID]
	if !ok {
		return d
	}
	if e := s.ByRef(ref); e != nil && e.Path != "" {
		ctor, base := ctorOf(e.Role)
		attrs := append(append([]describedAttr(nil), base...), describedAttr{"path", e.Path})
		return &targetDesc{Ctor: ctor, Attrs: attrs, Unique: count(&s, ctor, attrs, -1) == 1}
	}
	return d
}

// withinDesc describes the container element c a description is made
// unique within: a whole list or table by containerDesc (never by its
// items' text), an item by describeTarget (its text is what tells the chosen
// item from the others).
func withinDesc(tr *trace.Trace, s *trace.Snapshot, c int, snapID string) *targetDesc {
	switch s.Elements[c].Role {
	case "list", "table", "listbox", "grid", "tree", "menu", "tablist", "radiogroup":
		return containerDesc(tr, s.Elements[c].Ref, snapID)
	}
	return describeTarget(tr, &trace.Target{Ref: s.Elements[c].Ref}, snapID)
}
