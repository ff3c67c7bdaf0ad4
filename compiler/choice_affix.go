package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Choices among suggestions by what was typed.
//
// An autocomplete shows, under the field, the items that start with what
// the person typed, and the person clicks one. The clicked item's text is
// the demonstration's: another instance types another prefix and shows
// other items. When the clicked list item's text starts with the value the
// step just before typed, the click compiles to the first item that starts
// with that value and, when the screen quotes the item's ending ("… ends
// with "an""), that ends with the ending read from the screen:
//
//	op4 = click(first(with_suffix(with_prefix(items(list(path: "ul")), op3), regex("…", text(id: "query").text))), example: "Iran")
//
// The filter must keep the clicked item alone on the demonstration's
// screen; otherwise the demonstrated element stays. An instance whose list
// holds no such item fails the step (first of an empty list), never clicks
// another.

// affixChoice returns the choice of a suggestion by the typed prefix (and
// a suffix the screen quotes) for a click of op i on target t, or false.
func (c *compiler) affixChoice(i int, t *trace.Target, st *state, snap string) (ast.Expr, bool) {
	in := c.infos[i]
	if c.literal || t == nil || t != in.full || in.Action != action.Click {
		return nil, false
	}
	_, s, idx := findInSnapshot(c.tr, in.Target, snap)
	if s == nil || idx < 0 {
		return nil, false
	}
	item, list := suggestionItem(s, idx)
	if item < 0 {
		return nil, false
	}
	text := normalSpace(s.Elements[item].Text)
	if text == "" {
		return nil, false
	}
	// The suggestions of the field typed into just before: a list of
	// results after a search button is another choice (which result is
	// meant needs judgement, or a value the screen names).
	n := len(st.sources)
	if i == 0 || n == 0 || c.infos[i-1].Action != action.Type || st.sources[n-1].field == "" ||
		st.sources[n-1].field != fieldKey(c.infos[i-1].full) {
		return nil, false
	}
	prefix := &st.sources[n-1]
	if v := normalSpace(prefix.value); v == "" || !strings.HasPrefix(text, v) {
		return nil, false
	}
	ld := suggestionListDesc(s, list)
	items := []int{}
	for k := range s.Elements {
		if s.Elements[k].Parent == list && s.Elements[k].Role == "listitem" {
			items = append(items, k)
		}
	}
	expr := call("with_prefix", call("items", ld.Expr()), ref(prefix.name))
	keep := func(pred func(string) bool) {
		var out []int
		for _, k := range items {
			if pred(normalSpace(s.Elements[k].Text)) {
				out = append(out, k)
			}
		}
		items = out
	}
	pv := normalSpace(prefix.value)
	keep(func(x string) bool { return strings.HasPrefix(x, pv) })
	ev := Evidence{Step: in.name, Value: text}
	if suf, sexpr := c.quotedSuffix(i, s, text); sexpr != nil {
		expr = call("with_suffix", expr, sexpr)
		keep(func(x string) bool { return strings.HasSuffix(x, suf) })
		ev.Found = append(ev.Found, fmt.Sprintf("the ending %q, quoted on the screen", suf))
	}
	if len(items) != 1 || items[0] != item {
		// Another item the filter keeps would be a guess between them:
		// what made the person pick this one is not on the screen.
		ev.Why = fmt.Sprintf("%d items start with the typed value (and end as the screen quotes), not the clicked one alone; the demonstrated element is kept", len(items))
		c.evidence = append(c.evidence, ev)
		return nil, false
	}
	out := call("first", expr)
	c.example(i, str(text))
	ev.Chosen = printer.ExprString(out)
	ev.Why = fmt.Sprintf("the clicked suggestion starts with the value %s typed; the filter keeps it alone on the demonstration's screen", prefix.name)
	c.evidence = append(c.evidence, ev)
	return out, true
}

// suggestionItem returns the list item that holds element idx (itself or
// an ancestor, a listitem whose parent is a list) and that list, or -1.
func suggestionItem(s *trace.Snapshot, idx int) (item, list int) {
	for k, n := idx, 0; k >= 0 && k < len(s.Elements) && n < len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		e := &s.Elements[k]
		if e.Role != "listitem" {
			continue
		}
		p := e.Parent
		if p >= 0 && p < len(s.Elements) && s.Elements[p].Role == "list" {
			return k, p
		}
		return -1, -1
	}
	return -1, -1
}

// suggestionListDesc describes the list by its id when it is its own (not
// generated), else by its path: a suggestion list is added to the page when
// it first shows, with a generated id and often no class of its own.
func suggestionListDesc(s *trace.Snapshot, list int) *targetDesc {
	e := &s.Elements[list]
	if e.ID != "" && !generatedID(e.ID) && count(s, "list", []describedAttr{{"id", e.ID}}, -1) == 1 {
		return &targetDesc{Ctor: "list", Attrs: []describedAttr{{"id", e.ID}}, Unique: true}
	}
	return &targetDesc{Ctor: "list", Attrs: []describedAttr{{"path", e.Path}}}
}

// quotedSuffix looks for an ending of text (two characters or more,
// shorter than text, longest first) that the screen quotes and that a
// program reads from the screen as shown; "" and nil when none.
func (c *compiler) quotedSuffix(i int, s *trace.Snapshot, text string) (string, ast.Expr) {
	r := []rune(text)
	for n := len(r) - 1; n >= 2; n-- {
		suf := string(r[len(r)-n:])
		if strings.TrimSpace(suf) != suf || !quotedOnScreen(s, suf) {
			continue
		}
		if e, ok := c.lookValue(i, suf); ok && shown(e) && quoted(e) {
			return suf, e
		}
	}
	return "", nil
}

// normalSpace collapses runs of white space and trims the ends.
func normalSpace(v string) string { return strings.Join(strings.Fields(v), " ") }
