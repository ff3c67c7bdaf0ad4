package compiler

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/compiler/internal/synth"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Choices by a position the screen names.
//
// "Focus into the 3rd input textbox", "click the second to last checkbox":
// the clicked element is one of several alike in a group, and the screen
// says which by its position. The click compiles to the n-th of the
// group's elements of that kind, n read from the screen on every run:
//
//	op1 = click(nth(all(textbox(within: element(id: "area"))), parse_ordinal(regex("(?i)\\b(…) input\\b", text(id: "query").text))), example: "3rd")
//
// The rule: the element is one of two or more visible elements of its kind
// (constructor and shared classes) in its nearest group; a text outside
// the group and outside the element names an ordinal ("3rd", "third",
// "last", "second to last") followed within three words by a word that
// names an element kind ("input", "checkbox", "button", …); that ordinal
// counted in the group, from its start or (for "last") from its end, is
// the clicked element; and the expression, evaluated on the
// demonstration's screen, picks exactly it. Anything less keeps the
// demonstrated element.

// ordinalMention finds an ordinal followed by a few words: the position
// and, in m[3], what it counts.
var ordinalMention = regexp.MustCompile(`(?i)\b([0-9]+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)((?: to last)?)((?: [\p{L}-]+){1,3})`)

// kindWords are the words a person names an element kind by after an
// ordinal, with the constructors each may count ("" any): an ordinal
// followed by none of them ("the first name"), or by one that counts
// another kind ("the 2nd checkbox" for a slider's handle), is no evidence.
var kindWords = map[string][]string{
	"input": {"textbox", "combobox", "checkbox", "radio"}, "inputs": {"textbox", "combobox", "checkbox", "radio"},
	"textbox": {"textbox"}, "textboxes": {"textbox"}, "field": {"textbox", "combobox"}, "fields": {"textbox", "combobox"},
	"box": {"textbox", "checkbox", "combobox"}, "entry": {"textbox"},
	"checkbox": {"checkbox"}, "checkboxes": {"checkbox"}, "radio": {"radio"},
	"button": {"button"}, "buttons": {"button"}, "link": {"link"}, "links": {"link"},
	"option": {"option", "radio"}, "tab": {"tab"}, "row": {"row"}, "cell": {"cell"},
	"image": {"image"}, "item": {""}, "element": {""}, "one": {""}, "result": {""}, "card": {""}, "icon": {""},
}

// countsKind reports whether a kind word may count elements of ctor.
func countsKind(word, ctor string) bool {
	for _, k := range kindWords[word] {
		if k == "" || k == ctor {
			return true
		}
	}
	return false
}

// ordinalChoice returns, for a click on target t of op i, the n-th element
// of its kind in its group, n read from the screen, when the rule above
// allows it.
func (c *compiler) ordinalChoice(i int, t *trace.Target, snap string) (ast.Expr, bool) {
	in := c.infos[i]
	if c.literal || t == nil || t != in.full {
		return nil, false
	}
	switch in.Action {
	case action.Click, action.DoubleClick, action.RightClick, action.Type:
	default:
		return nil, false
	}
	_, s, idx := findInSnapshot(c.tr, in.Target, snap)
	if s == nil || idx < 0 {
		return nil, false
	}
	ctor, _ := ctorOf(s.Elements[idx].Role)
	kind := kindAttrs(s, idx)
	group, members := ordinalGroup(s, idx, ctor, kind)
	if len(members) < 2 {
		return nil, false
	}
	pos := 0
	for k, m := range members {
		if m == idx {
			pos = k + 1
		}
	}
	within, ok := groupDesc(s, group, ctor, kind, len(members))
	if !ok {
		return nil, false
	}
	x := c.screenIndexOf(snap)
	if x == nil {
		return nil, false
	}
	// Innermost holders only: a wrapper's text repeats its child's, and
	// the child is the source to name.
	wrapper := make([]bool, len(s.Elements))
	for k := range s.Elements {
		if p := s.Elements[k].Parent; p >= 0 && p < len(wrapper) && x.texts[k] != "" {
			wrapper[p] = true
		}
	}
	for el := range s.Elements {
		text := x.texts[el]
		if text == "" || wrapper[el] || x.member[el] != "text" {
			continue
		}
		ex, word, ok := ordinalIn(text, ctor, pos, len(members))
		if !ok || under(s, el, group) || under(s, idx, el) {
			continue
		}
		d, _ := sourceDesc(c.tr, x, el)
		if d == nil {
			continue
		}
		pat := `(?i)\b([0-9]+(?:st|nd|rd|th)|[a-z]+(?: to last)?) ` + regexp.QuoteMeta(word) + `\b`
		probe := call("parse_ordinal", call("regex", str(pat), ref(screenRef)))
		got, err := (&synth.Program{Expr: probe}).Eval(map[string]string{screenRef: text})
		n, _ := strconv.Atoi(got)
		if err != nil || (n != pos && n != pos-len(members)-1) {
			continue
		}
		list := &ast.Call{Fun: ref(ctor)}
		for _, a := range kind {
			list.Args = append(list.Args, named(a.Name, str(a.Value)))
		}
		if within != nil {
			list.Args = append(list.Args, named("within", within.Expr()))
		}
		read := &ast.Member{X: d.Expr(), Name: ast.Ident{Name: "text"}}
		out := call("nth", call("all", list), call("parse_ordinal", call("regex", str(pat), read)))
		if in.Action != action.Type {
			// A typed value has its own example: when it is read from
			// the screen; the position is in the evidence.
			c.example(i, str(ex))
		}
		c.evidence = append(c.evidence, Evidence{Step: in.name, Value: ex, Chosen: printer.ExprString(out),
			Found: []string{fmt.Sprintf("%s in %s", printer.ExprString(d.Expr()), snap)},
			Why: fmt.Sprintf("the clicked %s is number %d of the %d of its kind in its group, and the screen names that position (%q); the expression picks it alone on the demonstration's screen",
				ctor, pos, len(members), ex)})
		return out, true
	}
	return nil, false
}

// ordinalIn finds in text the one ordinal that names position pos of n
// (from the start, or from the end for "last" forms) and is followed by a
// word that counts elements of ctor; it returns the ordinal as written and the word right after
// it. Two mentions that fit are no evidence of which one is meant.
func ordinalIn(text, ctor string, pos, n int) (string, string, bool) {
	var ex, word string
	found := 0
	for _, m := range ordinalMention.FindAllStringSubmatch(text, -1) {
		v, ok := ordinalValue(m[1], m[2] != "")
		if !ok || (v != pos && v != pos-n-1) {
			continue
		}
		after := strings.Fields(strings.ToLower(m[3]))
		named := false
		for _, w := range after {
			if countsKind(w, ctor) {
				named = true
			}
		}
		if !named || len(after) == 0 {
			continue
		}
		found++
		ex, word = m[1]+m[2], after[0]
	}
	return ex, word, found == 1
}

// ordinalGroup returns the nearest ancestor of element idx holding two or
// more visible elements of its kind, and those elements in document order.
func ordinalGroup(s *trace.Snapshot, idx int, ctor string, kind []describedAttr) (int, []int) {
	for a, hops := s.Elements[idx].Parent, 0; a >= 0 && a < len(s.Elements) && hops < len(s.Elements); a, hops = s.Elements[a].Parent, hops+1 {
		var members []int
		for k := range s.Elements {
			if s.Elements[k].Visible && under(s, k, a) && kindMatches(&s.Elements[k], ctor, kind) {
				members = append(members, k)
			}
		}
		if len(members) >= 2 {
			return a, members
		}
	}
	return -1, nil
}

// groupDesc describes the group for within:, by the nearest ancestor (the
// group or above) with a stable id that holds the same n elements of the
// kind; nil when the whole screen holds just those.
func groupDesc(s *trace.Snapshot, group int, ctor string, kind []describedAttr, n int) (*targetDesc, bool) {
	for a, hops := group, 0; a >= 0 && a < len(s.Elements) && hops < len(s.Elements); a, hops = s.Elements[a].Parent, hops+1 {
		if visibleKind(s, ctor, kind, a) != n {
			break
		}
		e := &s.Elements[a]
		if e.ID == "" || generatedID(e.ID) {
			continue
		}
		actor, abase := ctorOf(e.Role)
		attrs := append(append([]describedAttr(nil), abase...), describedAttr{"id", e.ID})
		if count(s, actor, attrs, -1) == 1 {
			return &targetDesc{Ctor: actor, Attrs: attrs, Unique: true}, true
		}
	}
	if visibleKind(s, ctor, kind, -1) == n {
		return nil, true
	}
	return nil, false
}

// visibleKind counts the visible elements of a kind (under root, unless -1).
func visibleKind(s *trace.Snapshot, ctor string, kind []describedAttr, root int) int {
	n := 0
	for k := range s.Elements {
		if s.Elements[k].Visible && (root < 0 || under(s, k, root)) && kindMatches(&s.Elements[k], ctor, kind) {
			n++
		}
	}
	return n
}
