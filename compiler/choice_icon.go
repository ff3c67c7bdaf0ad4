package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Choices tied to an icon the screen shows.
//
// "Find and click on the item with the <icon> icon": the instruction shows
// an icon (an element with no text, told by its class) and the person
// clicks the one item of the menu that carries the same icon. The clicked
// item's name is the demonstration's, and the screen never writes it, so a
// description by that name clicks the same item on every instance, and
// reports ok on the instances whose icon is another one. The click reads
// the icon's classes where the instruction shows it (choice_icon_read.go);
// when no description of the icon can be verified on the demonstration's
// screen, it becomes a choice that needs judgement (a match_element
// dependency, with a warning): a run with no model fails at it instead of
// clicking the demonstrated item.

// iconTiedChoice returns the dependency for a click of op i whose target
// carries an icon class that another element of the screen, outside every
// list and control (the instruction), shows too, and no other item does.
func (c *compiler) iconTiedChoice(i int, t *trace.Target, st *state, snap string) (ast.Expr, bool) {
	in := c.infos[i]
	if c.literal || t == nil || t != in.full {
		return nil, false
	}
	switch in.Action {
	case action.Click, action.DoubleClick, action.RightClick:
	default:
		return nil, false
	}
	_, s, idx := findInSnapshot(c.tr, in.Target, snap)
	if s == nil || idx < 0 || !(itemRoles[s.Elements[idx].Role] || listOf(t) != nil) {
		// Only an item of a menu or list is chosen by its icon; a control
		// that merely shares a class with a decoration (a slider's handle)
		// is not a choice at all.
		return nil, false
	}
	tok, shownAt := iconTie(s, idx)
	if tok == "" {
		return nil, false
	}
	within := listDesc(c.tr, t, snap)
	if target, why, ok := c.iconReadChoice(i, s, snap, idx, tok, shownAt, within); ok {
		c.evidence = append(c.evidence, Evidence{Step: in.name, Value: tok, Found: []string{shownAt}, Chosen: printer.ExprString(target), Why: why})
		return target, true
	}
	c.todo = true
	dep := &ast.Dependency{Sub: ast.Ident{Name: "match_element"}, Description: &ast.StringLit{Value: todoElement}}
	if within != nil {
		dep.Inputs = append(dep.Inputs, named("within", within.Expr()))
	}
	why := fmt.Sprintf("the clicked element carries the icon %q that the screen shows at %s, and no other item does: the choice follows an icon, which no program reads", tok, shownAt)
	c.evidence = append(c.evidence, Evidence{Step: in.name, Value: tok, Found: []string{shownAt}, Why: why})
	c.warn(in.Events, "%s: %s (%s): %s; which item to choose needs judgement; fill in the match_element description", in.name, in.Action, strings.Join(in.Events, ", "), why)
	return dep, true
}

// itemRoles are the roles of the items a menu or a list offers to choose
// from.
var itemRoles = map[string]bool{"menuitem": true, "listitem": true, "option": true, "treeitem": true, "tab": true, "row": true}

// iconTie returns a class token of an icon inside element idx (an element
// with no text) that no other element inside a list item or a control has,
// and that an icon outside every list item and control shows (its path
// returned too); "" when none.
func iconTie(s *trace.Snapshot, idx int) (tok, at string) {
	for k := range s.Elements {
		e := &s.Elements[k]
		if e.Text != "" || e.Class == "" || !within(s, k, idx) {
			continue
		}
		for _, cl := range strings.Fields(e.Class) {
			other, shown := 0, ""
			for o := range s.Elements {
				oe := &s.Elements[o]
				if o == k || oe.Text != "" || !slices.Contains(strings.Fields(oe.Class), cl) {
					continue
				}
				if inControl(s, o) {
					other++
				} else if shown == "" {
					shown = oe.Path
				}
			}
			if other == 0 && shown != "" {
				return cl, shown
			}
		}
	}
	return "", ""
}

// within reports whether element k is idx or lies inside it.
func within(s *trace.Snapshot, k, idx int) bool {
	for n := 0; k >= 0 && k < len(s.Elements) && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		if k == idx {
			return true
		}
	}
	return false
}

// inControl reports whether element k lies in a list item or a control
// (one of the things a person clicks), itself included.
func inControl(s *trace.Snapshot, k int) bool {
	for n := 0; k >= 0 && k < len(s.Elements) && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		e := &s.Elements[k]
		if e.List != nil {
			return true
		}
		switch e.Role {
		case "button", "link", "menuitem", "menu", "listitem", "list", "tab", "option", "checkbox", "radio", "row", "cell", "toolbar", "menubar":
			return true
		}
	}
	return false
}
