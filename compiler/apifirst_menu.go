package compiler

// The api-first rule "menu-path": in a UIA demonstration, a run of clicks
// through a menu (the menu bar's item, the submenus' items, the item
// chosen) becomes one menu_path(["File", "Save As..."]) step, which
// expands each item through its ExpandCollapse pattern and invokes the
// last, by name, without the pointer.
//
// The snapshots must prove the run is a menu path. The UIA recorder takes
// a click's snapshot when the button goes down, before the application
// reacts, so a click's effect is in the next click's snapshot. A run is
// clicks on menu items (or on an item's text), each a plain step (no modifier
// keys, no options, an element written as constants, nothing later
// referring to it), such that:
//   - the first item is not inside another menu item (menu_path starts
//     from the window's outermost items);
//   - each next item is, in its own snapshot, in the submenu of the item
//     clicked before it (that item is the nearest menu item above it, or
//     the nearest menu is named after it), and was not shown there in
//     that item's snapshot: the click opened it;
//   - the last item shows no submenu in the next snapshot, when there is
//     one (it was chosen, not opened);
//   - no other item where menu_path looks for one has its name (case,
//     spacing and access keys aside): menu_path would fail on the two.
// Anything less and the clicks stay: API-first never changes meaning.

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/runtime/trace"
)

func init() {
	apiRewrites = append(apiRewrites, apiRewrite{name: "menu-path", run: (*compiler).menuPaths})
}

// menuClick is a step that clicks a menu item, with where its snapshot
// shows the item.
type menuClick struct {
	step *ast.Step
	op   *info
	name string
	snap *trace.Snapshot
	at   int // the item's index in snap
}

// menuPaths replaces the menu paths of every block of a UIA workflow.
func (c *compiler) menuPaths(f *ast.File) {
	if c.tr.Driver != trace.DriverUIA {
		return
	}
	for _, d := range f.Decls {
		t, ok := d.(*ast.Task)
		if !ok {
			continue
		}
		anchors := map[string]*ast.AnchorDecl{}
		for _, s := range t.Body.Stmts {
			if a, ok := s.(*ast.AnchorDecl); ok {
				anchors[a.Name.Name] = a
			}
		}
		var dropped []string
		var walk func(b *ast.Block)
		walk = func(b *ast.Block) {
			b.Stmts, dropped = c.foldMenus(b.Stmts, anchors, dropped)
			for _, s := range b.Stmts {
				for _, inner := range ast.Bodies(s) {
					walk(inner)
				}
			}
		}
		walk(t.Body)
		t.Body.Stmts = dropUnused(t.Body.Stmts, dropped)
	}
}

// foldMenus returns stmts with each proven menu path made one step, and
// adds to dropped the anchors the removed clicks referred to.
func (c *compiler) foldMenus(stmts []ast.Stmt, anchors map[string]*ast.AnchorDecl, dropped []string) ([]ast.Stmt, []string) {
	var out []ast.Stmt
	for i := 0; i < len(stmts); i++ {
		first, ok := c.asMenuClick(stmts[i], anchors)
		if !ok || !c.topLevelItem(first) {
			out = append(out, stmts[i])
			continue
		}
		run := []menuClick{first}
		for k := i + 1; k < len(stmts); k++ {
			next, ok := c.asMenuClick(stmts[k], anchors)
			if !ok || !opens(run[len(run)-1], next) {
				break
			}
			run = append(run, next)
		}
		// The longest prefix whose last item was chosen, not opened.
		for len(run) >= 2 && !c.chosen(run[len(run)-1]) {
			run = run[:len(run)-1]
		}
		if len(run) < 2 || !unambiguous(run) || usesAny(stmts[i+len(run):], stmts[i:i+len(run)]) {
			out = append(out, stmts[i])
			continue
		}
		out = append(out, menuPathStep(run))
		for _, m := range run {
			if r, ok := clickArg(m.step).(*ast.Ref); ok {
				dropped = append(dropped, r.Name)
			}
		}
		i += len(run) - 1
	}
	return out, dropped
}

// asMenuClick reads a step as a click on a menu item: a plain click
// step, whose op is one unmodified left click on a named menu item (or on
// its content) found in its snapshot, that the step's element names by
// constants.
func (c *compiler) asMenuClick(s ast.Stmt, anchors map[string]*ast.AnchorDecl) (menuClick, bool) {
	st, ok := s.(*ast.Step)
	op := c.stepOp(s)
	if !ok || st.Confirm || op < 0 {
		return menuClick{}, false
	}
	in := c.infos[op]
	if in.Action != action.Click || in.Target == nil || in.Target.Ref == "" || in.Snapshot == "" {
		return menuClick{}, false
	}
	for _, id := range in.Events {
		e := c.tr.Event(id)
		if e == nil || e.Kind != trace.KindClick || (e.Button != "" && e.Button != trace.ButtonLeft) || modified(e.Key) {
			return menuClick{}, false
		}
	}
	arg := clickArg(st)
	if r, ok := arg.(*ast.Ref); ok && anchors[r.Name] != nil {
		arg = anchors[r.Name].Value
	}
	if !constantElement(arg) {
		return menuClick{}, false
	}
	snap, ok := c.tr.Snapshots[in.Snapshot]
	if !ok {
		return menuClick{}, false
	}
	for i := range snap.Elements {
		if snap.Elements[i].Ref != in.Target.Ref {
			continue
		}
		if at := itemAt(&snap, i); at >= 0 && snap.Elements[at].Name != "" {
			return menuClick{step: st, op: in, name: snap.Elements[at].Name, snap: &snap, at: at}, true
		}
		break
	}
	return menuClick{}, false
}

// itemAt is the menu item a click on element i landed on: the element, or
// the menu item whose content it is (UIA's ElementFromPoint gives the
// deepest element, such as the text block of a WPF menu item); -1 when
// the click was on no menu item.
func itemAt(s *trace.Snapshot, i int) int {
	for hops := 0; i >= 0 && i < len(s.Elements) && hops < 3; i, hops = s.Elements[i].Parent, hops+1 {
		switch s.Elements[i].Role {
		case "menuitem":
			return i
		case "text", "image", "element":
			continue // content: the item is further up
		}
		return -1
	}
	return -1
}

// modified reports whether a click had a modifier key held.
func modified(k *trace.Key) bool { return k != nil && (k.Ctrl || k.Alt || k.Shift || k.Meta) }

// clickArg is the element of a step click(element), or nil for any other
// step.
func clickArg(st *ast.Step) ast.Expr {
	cl, ok := st.Value.(*ast.Call)
	if !ok || cl.CalleeName() != string(action.Click) || len(cl.Args) != 1 || cl.Args[0].Name != nil {
		return nil
	}
	return cl.Args[0].Value
}

// constantElement reports whether e is role(attr: "literal", …): an
// element the workflow names the same way on every run, not one chosen
// by a dependency, an input or a loop.
func constantElement(e ast.Expr) bool {
	cl, ok := e.(*ast.Call)
	if !ok || !check.ElementRoles[cl.CalleeName()] {
		return false
	}
	for _, a := range cl.Args {
		switch a.Value.(type) {
		case *ast.StringLit, *ast.NumberLit:
		default:
			return false
		}
	}
	return true
}

// ancestors calls f on each ancestor of element i of a snapshot, nearest
// first, until f returns true; it reports whether one did.
func ancestors(s *trace.Snapshot, i int, f func(e *trace.Element) bool) bool {
	for p, hops := s.Elements[i].Parent, 0; p >= 0 && p < len(s.Elements) && hops < len(s.Elements); p, hops = s.Elements[p].Parent, hops+1 {
		if f(&s.Elements[p]) {
			return true
		}
	}
	return false
}

// topLevelItem reports whether the item is not inside another menu item.
func (c *compiler) topLevelItem(m menuClick) bool {
	return !ancestors(m.snap, m.at, func(e *trace.Element) bool { return e.Role == "menuitem" })
}

// isItem reports whether a snapshot element is the clicked item m: the
// same ref, or a menu item of the same name.
func (m menuClick) isItem(e *trace.Element) bool {
	return (e.Ref != "" && e.Ref == m.snap.Elements[m.at].Ref) || (e.Role == "menuitem" && e.Name == m.name)
}

// opens reports whether the click on prev opened next's menu: next's
// snapshot (taken after prev's click) has next in prev's submenu, and
// prev's snapshot showed no item named like next inside prev.
func opens(prev, next menuClick) bool {
	// The nearest menu item above next is prev (or the nearest menu is
	// the popup named after prev): next is in prev's own submenu, where
	// menu_path looks for it, not in a submenu of it.
	if !inMenuOf(next.snap, next.at, prev) {
		return false
	}
	for i := range prev.snap.Elements {
		e := &prev.snap.Elements[i]
		if e.Role == "menuitem" && e.Name == next.name && e.Visible && ancestors(prev.snap, i, prev.isItem) {
			return false // already open before the click: the click may have closed it
		}
	}
	return true
}

// inMenuOf reports whether element i of a snapshot is in prev's own
// submenu: the nearest menu item above it is prev, or the nearest menu
// is the popup named after prev.
func inMenuOf(s *trace.Snapshot, i int, prev menuClick) bool {
	inside := false
	ancestors(s, i, func(e *trace.Element) bool {
		switch {
		case e.Role == "menu" && e.Name == prev.name:
			inside = true
		case e.Role == "menuitem":
			inside = prev.isItem(e)
		default:
			return false
		}
		return true
	})
	return inside
}

// unambiguous reports whether menu_path finds each item of the run as the
// one clicked: no other item where it looks (the outermost items for the
// first, the submenu of the item before for the others) has the name, as
// menu_path compares names. Two would fail the step where the click
// worked.
func unambiguous(run []menuClick) bool {
	for k, m := range run {
		n := 0
		for i := range m.snap.Elements {
			e := &m.snap.Elements[i]
			if e.Role != "menuitem" || menuKey(e.Name) != menuKey(m.name) {
				continue
			}
			if k == 0 && !ancestors(m.snap, i, func(e *trace.Element) bool { return e.Role == "menuitem" }) ||
				k > 0 && inMenuOf(m.snap, i, run[k-1]) {
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

// menuKey is a name as menu_path compares it (the uia driver's itemKey):
// case and spacing aside, without the access-key markers "&" and a
// leading "_".
func menuKey(s string) string {
	s = strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "&", "")
	return strings.ToLower(strings.TrimPrefix(s, "_"))
}

// chosen reports whether the click on m chose the item rather than opened
// a submenu: the next snapshot, when there is one, shows no menu item
// inside it.
func (c *compiler) chosen(m menuClick) bool {
	last := m.op.Events[len(m.op.Events)-1]
	after := false
	for i := range c.tr.Events {
		e := &c.tr.Events[i]
		if e.ID == last {
			after = true
			continue
		}
		if !after || e.Snapshot == "" {
			continue
		}
		s, ok := c.tr.Snapshots[e.Snapshot]
		if !ok {
			return false
		}
		for j := range s.Elements {
			if s.Elements[j].Role == "menuitem" && ancestors(&s, j, m.isItem) {
				return false
			}
		}
		return true
	}
	return true // the demonstration ended with the choice
}

// menuPathStep is the step that replaces a run: named after its last
// step (the names of steps the run kept stay put), citing every event.
func menuPathStep(run []menuClick) *ast.Step {
	path := &ast.ListLit{}
	var names, events []string
	for _, m := range run {
		path.Elems = append(path.Elems, str(m.name))
		names = append(names, m.name)
		events = append(events, m.op.Events...)
	}
	first, last := run[0].step, run[len(run)-1].step
	st := &ast.Step{Name: ast.Ident{Name: last.Name.Name}, Value: perform(action.MenuPath, path)}
	st.BlankLine = first.BlankLine
	st.Comments.Leading = append(st.Comments.Leading, first.Comments.Leading...)
	st.Comments.Leading = append(st.Comments.Leading, ast.Comment{Text: fmt.Sprintf(
		"# API-first: menu_path opens %s by the items' patterns, where the demonstration clicked them (%s).", strings.Join(names, " > "), cite(events))})
	st.Comments.Trailing = &ast.Comment{Text: "# " + cite(events)}
	return st
}

// dropUnused removes the anchors of names that nothing refers to any more.
func dropUnused(stmts []ast.Stmt, names []string) []ast.Stmt {
	if len(names) == 0 {
		return stmts
	}
	used := map[string]bool{}
	for _, s := range stmts {
		walkStmtExprs(s, func(e ast.Expr) {
			ast.Inspect(e, func(x ast.Expr) bool {
				if r, ok := x.(*ast.Ref); ok {
					used[r.Name] = true
				}
				return true
			})
		})
	}
	gone := map[string]bool{}
	for _, n := range names {
		gone[n] = !used[n]
	}
	var out []ast.Stmt
	for _, s := range stmts {
		if a, ok := s.(*ast.AnchorDecl); ok && gone[a.Name.Name] {
			continue
		}
		out = append(out, s)
	}
	return out
}
