package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Choices by an icon read from the screen.
//
// "Click on the item with the <icon> icon": the instruction shows an icon
// (an element with no text, told by its classes) and the person clicks
// the item of the list that carries the same icon. The program reads the
// icon's classes where the instruction shows it and clicks the icon with
// those classes inside the list:
//
//	op4 = click(element(class: element(class: "ui-icon", within: text(id: "query")).class, within: menu(id: "menu")))
//
// The icon in the instruction is described by the classes it shares with
// every icon of its kind (the tokens other than the one that tells this
// icon from the others), so that another instance, showing another icon,
// reads that one. A click on the icon inside an item is a click on the
// item. At run time an instruction that shows no icon, or a list without
// an icon of those classes, is an anchoring error that names the
// description: the run never clicks the demonstrated item instead.
//
// Both descriptions must pick, on the demonstration's screen, the icon in
// the instruction and the icon inside the clicked item, with the
// runtime's matching model; otherwise the choice stays one that needs
// judgement (choice_icon.go).

// iconReadChoice returns the click target reading the icon the screen
// shows at shownAt, for the clicked item idx (of op) whose icon carries
// tok.
func (c *compiler) iconReadChoice(op int, s *trace.Snapshot, snap string, idx int, tok, shownAt string, list *targetDesc) (ast.Expr, string, bool) {
	if list == nil {
		return nil, "", false
	}
	shown, mine := -1, -1
	for k := range s.Elements {
		e := &s.Elements[k]
		if e.Text != "" || !slices.Contains(strings.Fields(e.Class), tok) {
			continue
		}
		switch {
		case e.Path == shownAt && !inControl(s, k):
			shown = k
		case within(s, k, idx):
			mine = k
		}
	}
	if shown < 0 || mine < 0 || s.Elements[shown].Parent < 0 {
		return nil, "", false
	}
	var kindTokens []string
	for _, cl := range strings.Fields(s.Elements[shown].Class) {
		if cl != tok {
			kindTokens = append(kindTokens, cl)
		}
	}
	if len(kindTokens) == 0 {
		return nil, "", false // nothing but the icon itself describes it
	}
	parent := s.Elements[shown].Parent
	iconKind := []describedAttr{{"class", strings.Join(kindTokens, " ")}}
	if chosen(s, "element", iconKind, parent) != shown {
		return nil, "", false
	}
	root := containerIndex(s, list, idx)
	if root < 0 || chosen(s, "element", []describedAttr{{"class", s.Elements[shown].Class}}, root) != mine {
		return nil, "", false
	}
	if s.Elements[parent].Ref == "" {
		return nil, "", false
	}
	holder := describe(c.tr, &trace.Target{Ref: s.Elements[parent].Ref}, snap)
	icon := &ast.Call{Fun: ref("element"), Args: []*ast.Arg{named("class", str(iconKind[0].Value)), named("within", holder.Expr())}}
	read := &ast.Member{X: icon, Name: ast.Ident{Name: "class"}}
	target := &ast.Call{Fun: ref("element"), Args: []*ast.Arg{named("class", read), named("within", list.Expr())}}
	c.revealNested(op, s, snap, root, target)
	why := fmt.Sprintf("the clicked element carries the icon %q that the screen shows at %s, and no other item does: the icon's classes are read there and the item's icon of those classes is clicked", tok, shownAt)
	return target, why, true
}

// containerIndex is the element of the snapshot a list description
// stands for, when it is an ancestor of idx; -1 when not. The description
// picks one element, so it is looked for once, not at every ancestor.
func containerIndex(s *trace.Snapshot, list *targetDesc, idx int) int {
	if list.Within != nil || list.Frame != nil {
		return -1
	}
	if k := chosen(s, list.Ctor, list.Attrs, -1); k >= 0 && k != idx && under(s, idx, k) {
		return k
	}
	return -1
}

// revealNested makes the step about to be emitted open, before it, the
// nested menus of the list that its target may lie in: another instance's
// icon may be one that only a submenu shows, closed until its item is
// clicked. For each item of the list that holds a nested menu hidden on
// the demonstration's screen, an if clicks the item when the target is
// not shown:
//
//	if !visible(element(class: …, within: menu(id: "menu"))) {
//	  open_submenu = click(menuitem(name: "Playback"))
//	}
//
// Opening a menu changes nothing; a target shown nowhere still fails its
// step, naming its description.
func (c *compiler) revealNested(op int, s *trace.Snapshot, snap string, root int, target ast.Expr) {
	var body []ast.Stmt
	for k := range s.Elements {
		e := &s.Elements[k]
		if e.Role != "menu" || e.Visible || k == root || !within(s, k, root) {
			continue
		}
		opener := submenuOpener(s, k, root)
		if opener < 0 || s.Elements[opener].Ref == "" {
			continue
		}
		d := describe(c.tr, &trace.Target{Ref: s.Elements[opener].Ref}, snap)
		body = append(body, &ast.IfStmt{
			Cond: &ast.Unary{Op: "!", X: call("visible", target)},
			Then: &ast.Block{Stmts: []ast.Stmt{&ast.Step{Name: ast.Ident{Name: c.unique("open_submenu", "_")}, Value: call("click", d.Expr())}}},
		})
	}
	if len(body) == 0 {
		return
	}
	if c.reveal == nil {
		c.reveal = map[int]ast.Stmt{}
	}
	// One if per nested menu; several become one block of ifs in order.
	if len(body) == 1 {
		c.reveal[op] = body[0]
		return
	}
	first := body[0].(*ast.IfStmt)
	for _, b := range body[1:] {
		first.Then.Stmts = append(first.Then.Stmts, b)
	}
	c.reveal[op] = first
}

// submenuOpener is the visible item of the list that holds the nested
// menu k and opens it: the shown element with a name nearest above it
// whose role is a menu item; -1 when none.
func submenuOpener(s *trace.Snapshot, k, root int) int {
	for p, n := s.Elements[k].Parent, 0; p >= 0 && p != root && n <= len(s.Elements); p, n = s.Elements[p].Parent, n+1 {
		// The item that holds the nested menu; its label is a sibling of
		// the menu: the first shown menuitem child of p.
		for j := range s.Elements {
			ej := &s.Elements[j]
			if ej.Parent == p && j != k && ej.Visible && ej.Role == "menuitem" && ej.Name != "" {
				return j
			}
		}
		if s.Elements[p].Role == "menuitem" && s.Elements[p].Visible && s.Elements[p].Name != "" {
			return p
		}
	}
	return -1
}

// withReveals puts, before each step of steps that has one, what shows
// its target (revealNested).
func (c *compiler) withReveals(steps []ast.Stmt) []ast.Stmt {
	if len(c.reveal) == 0 {
		return steps
	}
	out := make([]ast.Stmt, 0, len(steps)+len(c.reveal))
	for _, st := range steps {
		if s, ok := st.(*ast.Step); ok {
			for i, r := range c.reveal {
				if c.infos[i].name == s.Name.Name {
					out = append(out, r)
				}
			}
		}
		out = append(out, st)
	}
	return out
}
