package compiler

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Loops over the items that hold a value.
//
// "Click Share on all posts by @a": the demonstration does the same on
// several items of a list and leaves others out. When every item it did
// holds a text the others between them lack, and the screen names that
// text (screenValue), the items were chosen by it, and the task loops over
// the items that hold it:
//
//	op3 = assert(length(with_text(items(list(id: "area")), regex(…))) > 0, message: …)
//	for item in with_text(items(list(id: "area")), regex("posts by (\\S+)", text(id: "query").text)) {
//	  op4 = click(element(role: "generic", class: "share", within: item))
//	}
//
// When the screen also names how many items the person did ("on 6
// posts"), the loop takes that many: `[:parse_number(…)]`, which fails
// when fewer items hold the value. One item done is a filtered loop only
// when the screen says how many ("on 1 post by @kim"). An empty filter fails the assertion
// rather than doing nothing. Without such a value the demonstration stays
// what loop_evidence.go makes of it.

// filteredLoop looks, for the list loop starting at op i on item idx of
// container cont, for the items the demonstration did and a value that
// chose them. It sets the loop up and reports whether it found one.
func (c *compiler) filteredLoop(i int, cont string, idx int) bool {
	if c.literal {
		return false
	}
	if _, ok := library["with_text"]; !ok {
		return false // the function library cannot filter items by text
	}
	acted, end := c.actedItems(cont, idx)
	in := c.infos[i]
	_, s, tidx := findInSnapshot(c.tr, in.Target, in.Snapshot)
	if s == nil || tidx < 0 || s.Elements[tidx].List == nil {
		return false
	}
	items := itemElements(s, s.Elements[tidx].List.Container)
	if len(items) <= acted[len(acted)-1] {
		return false
	}
	for _, v := range filterValues(s, items, acted) {
		expr, ok := c.lookValue(i, v)
		if !ok || !shown(expr) || readsAny(s, items, expr) {
			continue
		}
		iter := call("with_text", call("items", c.loopListDesc(in, cont).Expr()), expr)
		holding := 0
		for _, it := range items {
			if slices.Contains(itemTexts(s, it), v) {
				holding++
			}
		}
		var sliced ast.Expr = iter
		if n, ok := c.lookValue(i, strconv.Itoa(len(acted))); ok && !readsAny(s, items, n) && countShown(n) != nil {
			sliced = &ast.Slice{X: iter, Hi: countShown(n)}
		} else if holding != len(acted) || len(acted) < 2 {
			// The person did some of the items that hold it, or one item
			// only, and the screen does not say how many.
			continue
		}
		c.setFilteredLoop(i, cont, idx, acted, end, sliced, iter, v)
		return true
	}
	return false
}

// actedItems returns the items of cont the demonstration did alike, from
// item idx on (ops [c.loopLo, c.loopHi] on it, then the same ops on later
// items, any left out between), and the last op they cover.
func (c *compiler) actedItems(cont string, idx int) ([]int, int) {
	acted, end := []int{idx}, c.loopHi
	for start := c.loopHi + 1; start < len(c.infos); {
		j := start
		for j < len(c.infos) && (c.incidental(j) || c.infos[j].Action == action.Scroll) {
			j++
		}
		if j >= len(c.infos) {
			break
		}
		k, ii, ok := itemKey(c.infos[j].full)
		if !ok || k != cont || ii <= acted[len(acted)-1] {
			break
		}
		stop, ok := c.matchBlock(j, ii-idx, itemKey)
		if !ok {
			break
		}
		acted, end, start = append(acted, ii), stop, stop+1
	}
	return acted, end
}

// itemElements returns the items of the list whose ref is container, by
// index: the outermost element of each index.
func itemElements(s *trace.Snapshot, container string) []int {
	var out []int
	for k := range s.Elements {
		l := s.Elements[k].List
		if l == nil || l.Container != container {
			continue
		}
		p := s.Elements[k].Parent
		if p >= 0 && p < len(s.Elements) {
			if pl := s.Elements[p].List; pl != nil && pl.Container == container && pl.Index == l.Index {
				continue
			}
		}
		for len(out) <= l.Index {
			out = append(out, -1)
		}
		out[l.Index] = k
	}
	return out
}

// itemTexts are the short texts inside item element it: its sender, its
// author, its tag.
func itemTexts(s *trace.Snapshot, it int) []string {
	var out []string
	if it < 0 {
		return nil
	}
	for k := it + 1; k < len(s.Elements); k++ {
		if !under(s, k, it) {
			continue
		}
		if v := strings.TrimSpace(s.Elements[k].Text); v != "" && len([]rune(v)) <= 40 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// filterValues are the texts held by every acted item and by none of the
// items before the last acted one that the demonstration left out, those
// that some other item lacks first.
func filterValues(s *trace.Snapshot, items, acted []int) []string {
	common := itemTexts(s, items[acted[0]])
	for _, a := range acted[1:] {
		have := itemTexts(s, items[a])
		common = slices.DeleteFunc(common, func(v string) bool { return !slices.Contains(have, v) })
	}
	var tells, rest []string
	for _, v := range common {
		if !meaningful(v) {
			continue
		}
		skipped, lacking := false, false
		for k, it := range items {
			if slices.Contains(acted, k) {
				continue
			}
			has := slices.Contains(itemTexts(s, it), v)
			if has && k < acted[len(acted)-1] {
				skipped = true
			}
			if !has {
				lacking = true
			}
		}
		switch {
		case skipped:
		case lacking:
			tells = append(tells, v)
		default:
			rest = append(rest, v)
		}
	}
	return append(tells, rest...)
}

// readsAny reports whether a value program reads inside one of the items
// (or around them): the value must come from elsewhere.
func readsAny(s *trace.Snapshot, items []int, expr ast.Expr) bool {
	for _, it := range items {
		if it >= 0 && readsChosen(s, it, expr) != "" {
			return true
		}
	}
	return false
}

// loopListDesc describes the list a loop walks.
func (c *compiler) loopListDesc(in *info, cont string) *targetDesc {
	d := listDesc(c.tr, in.Target, in.Snapshot)
	if d == nil || d.Ctor == "table" {
		d = &targetDesc{Ctor: "list", Attrs: []describedAttr{{"path", cont}}}
	}
	return d
}

// setFilteredLoop makes the list loop a loop over the filtered items,
// folding the later items' ops into it.
func (c *compiler) setFilteredLoop(i int, cont string, idx int, acted []int, end int, iter, all ast.Expr, v string) {
	in := c.infos[i]
	c.loopItems, c.loopTable, c.loopRow = true, cont, idx
	c.loopReps = len(acted) - 1
	c.loopDesc = c.loopListDesc(in, cont)
	for j := c.loopHi + 1; j <= end; j++ {
		c.folded[j] = true
		c.loopFolded = append(c.loopFolded, c.infos[j].Events...)
	}
	c.loopIter = iter
	c.loopGuard = perform(action.Assert, &ast.Binary{Op: ">", X: call("length", all), Y: num(0)})
	c.loopGuard.Args = append(c.loopGuard.Args, named("message", str("no item of the list holds the value the screen names")))
	places := make([]string, len(acted))
	for k, a := range acted {
		places[k] = strconv.Itoa(a + 1)
	}
	c.loopNote = fmt.Sprintf("# iterative: the demonstration did items %s of the list alike, the items that hold %q (the repetition: %s); the loop does every item that holds the value the screen names",
		strings.Join(places, ", "), v, cite(c.loopFolded))
	c.evidence = append(c.evidence, Evidence{Step: in.name, Value: v, Why: fmt.Sprintf("the demonstration did the items holding %q and left the others", v)})
}

// countShown is the number a count program reads, as a number expression,
// when it reads the count as the screen writes it (a text, or that text's
// parse_number); nil for a computed count (arithmetic on another number is
// a coincidence).
func countShown(n ast.Expr) ast.Expr {
	if c, ok := n.(*ast.Call); ok {
		if r, ok := c.Fun.(*ast.Ref); ok && r.Name == "parse_number" && len(c.Args) >= 1 {
			if shown(c.Args[0].Value) {
				return n
			}
			return nil
		}
	}
	if !shown(n) {
		return nil
	}
	return call("parse_number", n)
}
