package compiler

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Content on a later page, and a value chosen by its label.
//
// A contact book shows one card at a time with pages to turn. The person
// found the card the instruction names ("Find Mirella in the contact book
// and click on their phone number") and clicked the value labelled with
// the word the instruction names ("Phone: 712-494-2385"). On another
// instance the card may be on a later page and the value is another, so:
//
//	until visible(heading(name: regex("Find (.+?) in", text(id: "query").text))), max: 20 {
//	  op3_page = click(link(name: ">"))
//	}
//	op3 = click(element(css: "a", within: listitem(text: regex("their (\\pL+)", text(id: "query").text))))
//
// The loop is written only when the card's heading is a value the
// instruction names and the screen has a control that turns the page
// (nextNames); it does nothing when the card is already shown, and stops
// the run at its bound when the card is nowhere.

// nextNames are the names of the controls that turn to the next page.
var nextNames = map[string]bool{">": true, "»": true, "›": true, "next": true, "next page": true, "next ›": true, "next »": true}

// labelled is an item's text that starts with a label: "Phone: 712…".
var labelled = regexp.MustCompile(`^(\pL+(?: \pL+)?):\s*\S`)

// pageSearch returns, for a click of op i on a value inside a card whose
// heading the instruction names, the loop that turns pages until that
// card shows, followed by the step; nil when op i is no such click.
func (c *compiler) pageSearch(i int, st *state) []ast.Stmt {
	in := c.infos[i]
	if c.literal || in.Target == nil || in.Action != "click" || c.inLoop(i) {
		return nil
	}
	_, s, idx := findInSnapshot(c.tr, in.Target, in.Snapshot)
	if s == nil || idx < 0 {
		return nil
	}
	x := c.screenIndexOf(in.Snapshot)
	if x == nil {
		return nil
	}
	head := headingOver(s, idx)
	next := nextControl(s)
	if head < 0 || next == nil {
		return nil
	}
	want, ok := c.instructionPart(i, x, x.texts[head], false)
	if !ok {
		return nil
	}
	stepName := in.name
	loop := &ast.WhileStmt{Until: true, Cond: call("visible", &ast.Call{Fun: ref("heading"), Args: []*ast.Arg{named("name", want)}}), Options: []*ast.Arg{named("max", num(20))},
		Body: &ast.Block{Stmts: []ast.Stmt{&ast.Step{Name: ast.Ident{Name: c.unique(stepName+"_page", "_")}, Value: perform("click", next.Expr())}}}}
	loop.Comments.Leading = []ast.Comment{{Text: fmt.Sprintf("# %q, the card the instruction names, may be on a later page: turn pages until it shows", x.texts[head])}}
	s2 := &ast.Step{Name: ast.Ident{Name: stepName}, Value: withTimeout(withButton(c.withExample(i, c.stepExpr(i, st)), in.Button), c.tr, in.Events)}
	s2.Comments.Trailing = &ast.Comment{Text: "# " + cite(in.Events)}
	c.record(i, st)
	c.warn(in.Events, "%s: the card %q is named by the instruction and the screen turns pages: the run turns them until it shows", stepName, x.texts[head])
	return []ast.Stmt{loop, s2}
}

// headingOver returns the heading of the card that holds element idx: a
// heading under the nearest ancestor of idx that has one; -1 when none.
func headingOver(s *trace.Snapshot, idx int) int {
	for a, n := s.Elements[idx].Parent, 0; a >= 0 && a < len(s.Elements) && n < 8; a, n = s.Elements[a].Parent, n+1 {
		for k := range s.Elements {
			if s.Elements[k].Role == "heading" && s.Elements[k].Visible && s.Elements[k].Parent == a {
				return k
			}
		}
	}
	return -1
}

// nextControl describes the one visible link or button that turns to the
// next page, or nil.
func nextControl(s *trace.Snapshot) *targetDesc {
	var found *targetDesc
	for k := range s.Elements {
		e := &s.Elements[k]
		if !e.Visible || (e.Role != "link" && e.Role != "button") || !nextNames[strings.ToLower(strings.TrimSpace(e.Name))] {
			continue
		}
		if found != nil {
			return nil
		}
		found = &targetDesc{Ctor: e.Role, Attrs: []describedAttr{{"name", e.Name}}, Unique: true}
	}
	return found
}

// instructionPart returns the program that reads value from the
// instruction on op i's screen, by the words around it
// (regex("Find (.+?) in", …)); with word set, the value is one word
// read after the word before it, whatever follows ("their (\\pL+)").
// Case is ignored in finding it; the program reads the instruction's own.
func (c *compiler) instructionPart(i int, x *screenIndex, value string, word bool) (ast.Expr, bool) {
	for _, k := range instructions(x) {
		text := x.texts[k]
		at := strings.Index(strings.ToLower(text), strings.ToLower(value))
		if at <= 0 {
			continue
		}
		before := strings.Fields(text[:at])
		if len(before) == 0 {
			continue
		}
		var pat string
		if word {
			pat = regexp.QuoteMeta(before[len(before)-1]) + ` (\pL+)`
		} else {
			after := strings.Fields(text[at+len(value):])
			if len(after) == 0 {
				continue
			}
			pat = regexp.QuoteMeta(before[len(before)-1]) + ` (.+?) ` + regexp.QuoteMeta(after[0])
		}
		desc, _ := sourceDesc(c.tr, x, k)
		if desc == nil || !desc.Unique {
			continue
		}
		e := call("regex", str(pat), ref(screenRef))
		if got, ok := evalScreen(e, text); !ok || !strings.EqualFold(got, value) {
			continue
		}
		return substRef(e, screenRef, &ast.Member{X: desc.Expr(), Name: ast.Ident{Name: "text"}}), true
	}
	return nil, false
}

// labelChoice is the choice of a value by its label: a click inside a
// list item whose text starts with a label ("Phone: …"), of a list whose
// items all do, where the instruction names the label's word. The target
// is the element of its tag within the item the instruction's word names.
func (c *compiler) labelChoice(i int, t *trace.Target, snap string) (ast.Expr, bool) {
	if c.literal || t == nil || t != c.infos[i].full {
		return nil, false
	}
	_, s, idx := findInSnapshot(c.tr, c.infos[i].Target, snap)
	x := c.screenIndexOf(snap)
	if s == nil || idx < 0 || x == nil || s.Elements[idx].List == nil {
		return nil, false
	}
	item := idx
	li := s.Elements[idx].List
	for p := s.Elements[item].Parent; p >= 0 && p < len(s.Elements); p = s.Elements[item].Parent {
		if pl := s.Elements[p].List; pl == nil || pl.Container != li.Container || pl.Index != li.Index {
			break
		}
		item = p
	}
	m := labelled.FindStringSubmatch(x.texts[item])
	if m == nil || item == idx {
		return nil, false
	}
	// Every item of the list is labelled, each differently.
	labels := map[string]bool{}
	for k := range s.Elements {
		if e := &s.Elements[k]; e.List != nil && e.List.Container == li.Container && k != item && s.Elements[e.Parent].List == nil {
			lm := labelled.FindStringSubmatch(x.texts[k])
			if lm == nil || labels[strings.ToLower(lm[1])] {
				return nil, false
			}
			labels[strings.ToLower(lm[1])] = true
		}
	}
	if len(labels) == 0 {
		return nil, false
	}
	want, ok := c.instructionPart(i, x, m[1], true)
	if !ok {
		return nil, false
	}
	tag := tagOf(s.Elements[idx].Path)
	if tag == "" || tagCount(s, item, tag) != 1 {
		return nil, false
	}
	itemCtor, _ := ctorOf(s.Elements[item].Role)
	within := &ast.Call{Fun: ref(itemCtor), Args: []*ast.Arg{named("text", want)}}
	c.example(i, str(x.texts[idx]))
	return &ast.Call{Fun: ref("element"), Args: []*ast.Arg{named("css", str(tag)), named("within", within)}}, true
}

// tagCount counts the elements of a tag under element item.
func tagCount(s *trace.Snapshot, item int, tag string) int {
	n := 0
	for k := range s.Elements {
		if tagOf(s.Elements[k].Path) == tag && under(s, k, item) {
			n++
		}
	}
	return n
}
