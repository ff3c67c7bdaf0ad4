package uia

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// menu_path opens a menu path by its items' names: each item but the last
// expanded through ExpandCollapse (and checked to be expanded), the last
// invoked through Invoke. An item is looked for where the item before it
// put its submenu: among its descendants (WPF, WinForms and XAML menus
// keep the submenu under the item) or in a popup menu, a top-level Menu
// window (Win32 menus), named after the item or opened by the expansion.
// The first item is looked for among the window's menu items that are
// not inside another menu item (a menu bar's, or an open context menu's).
// A missing item fails with the names that were there; an item without
// the pattern its place needs fails too: menu_path never clicks.

// errNoMenu is wrapped by menu_path's errors about a missing item.
var errNoMenu = errors.New("no such menu item")

// menuPath performs menu_path in the current window, or in the window
// titled within (which becomes the current one, as switch_window makes
// it).
func (d *Driver) menuPath(ctx context.Context, path []string, within string) error {
	if len(path) == 0 {
		return errors.New("the path names no menu item")
	}
	for _, name := range path {
		if clean(name) == "" {
			return errors.New("the path has an empty item name")
		}
	}
	if within != "" {
		w, err := d.findWindow(within)
		if err != nil {
			return err
		}
		if err := d.auto.Activate(w.ID); err != nil {
			return err
		}
		d.window = w.ID
	}
	var expanded []*Node // the items expanded so far
	err := d.walkPath(ctx, path, &expanded)
	if err != nil {
		// Leave the menus as they were: an open menu would swallow the
		// next step's input. Best effort: the error is the path's.
		for i := len(expanded) - 1; i >= 0; i-- {
			_ = d.auto.Pattern(expanded[i].Ref, OpCollapse, "")
		}
	}
	return err
}

// walkPath expands the path's items but the last in turn, noting each in
// expanded, and invokes the last.
func (d *Driver) walkPath(ctx context.Context, path []string, expanded *[]*Node) error {
	var parent *Node // the item expanded last
	var opened []*Node
	for i, name := range path {
		root, popups, err := d.menuWalk(ctx)
		if err != nil {
			return err
		}
		scope := topItems(root, popups)
		if parent != nil {
			scope = subItems(root, popups, parent, opened)
		}
		item, err := pickItem(scope, name, path[:i])
		if err != nil {
			return err
		}
		if i == len(path)-1 {
			return d.invokeItem(item, path)
		}
		if item.Expanded != stateExpanded && item.Has(PatternExpandCollapse) && item.Enabled {
			*expanded = append(*expanded, item) // opened here: closed again on failure
		}
		if opened, err = d.expandItem(ctx, item, popups); err != nil {
			return err
		}
		parent = item
	}
	return nil
}

// menuWalk walks the window and the open popup menus, and indexes both
// for acting.
func (d *Driver) menuWalk(ctx context.Context) (*Node, []*Node, error) {
	root, _, err := d.walk(ctx)
	if err != nil {
		return nil, nil, err
	}
	popups, err := d.auto.Popups(d.limits)
	if err != nil {
		return nil, nil, fmt.Errorf("looking for popup menus: %w", err)
	}
	for _, p := range popups {
		index(p, d.nodes)
	}
	return root, popups, nil
}

// isItem reports whether a node is a menu item.
func isItem(n *Node) bool { return n.ControlType == ctMenuItem }

// items collects the menu items of a subtree that have no menu item
// between them and the subtree's root: a menu's own items, not their
// submenus'.
func items(n *Node, out []*Node) []*Node {
	for _, c := range n.Children {
		if c == nil {
			continue
		}
		if isItem(c) {
			out = append(out, c)
			continue
		}
		out = items(c, out)
	}
	return out
}

// topItems are the items a path starts from: the window's outermost
// menu items, then those of the open popups (a context menu).
func topItems(root *Node, popups []*Node) []*Node {
	out := items(&Node{Children: []*Node{root}}, nil)
	for _, p := range popups {
		out = items(&Node{Children: []*Node{p}}, out)
	}
	return out
}

// subItems are the items of parent's submenu: its own item descendants
// (in the window or in a popup), else the items of the popups named
// after it or opened by its expansion.
func subItems(root *Node, popups []*Node, parent *Node, opened []*Node) []*Node {
	var out []*Node
	for _, tree := range append([]*Node{root}, popups...) {
		if p := findRef(tree, parent.Ref); p != nil {
			out = items(p, out)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, p := range popups {
		if strings.EqualFold(clean(p.Name), clean(parent.Name)) || containsRef(opened, p.Ref) {
			out = items(&Node{Children: []*Node{p}}, out)
		}
	}
	return out
}

func findRef(n *Node, ref string) *Node {
	if n == nil {
		return nil
	}
	if n.Ref == ref {
		return n
	}
	for _, c := range n.Children {
		if f := findRef(c, ref); f != nil {
			return f
		}
	}
	return nil
}

func containsRef(ns []*Node, ref string) bool {
	for _, n := range ns {
		if n.Ref == ref {
			return true
		}
	}
	return false
}

// itemKey is how menu_path compares names: case and spacing aside, and
// without the access-key markers of Win32 ("&File") and WPF ("_File").
func itemKey(s string) string {
	s = strings.ReplaceAll(clean(s), "&", "")
	return strings.ToLower(strings.TrimPrefix(s, "_"))
}

// pickItem finds the one item of scope named name; none or several fail
// with the names there were.
func pickItem(scope []*Node, name string, before []string) (*Node, error) {
	var found []*Node
	var names []string
	for _, n := range scope {
		names = append(names, fmt.Sprintf("%q", clean(n.Name)))
		if itemKey(n.Name) == itemKey(name) {
			found = append(found, n)
		}
	}
	where := "in the window"
	if len(before) > 0 {
		where = fmt.Sprintf("in the menu of %q", strings.Join(before, " > "))
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return nil, fmt.Errorf("%d menu items are named %q %s", len(found), name, where)
	case len(scope) == 0:
		return nil, fmt.Errorf("%w: %q: there is no menu item %s", errNoMenu, name, where)
	}
	return nil, fmt.Errorf("%w: %q %s; the items there are %s", errNoMenu, name, where, strings.Join(names, ", "))
}

// expandItem expands a menu item and checks that it is expanded; it
// returns the popups the expansion opened.
func (d *Driver) expandItem(ctx context.Context, item *Node, before []*Node) ([]*Node, error) {
	if !item.Has(PatternExpandCollapse) {
		return nil, fmt.Errorf("menu item %q has no submenu to open (no ExpandCollapse pattern)", clean(item.Name))
	}
	if !item.Enabled {
		return nil, fmt.Errorf("menu item %q is disabled", clean(item.Name))
	}
	if item.Expanded != stateExpanded {
		if err := d.auto.Pattern(item.Ref, OpExpand, ""); err != nil {
			return nil, fmt.Errorf("menu item %q: expand: %w", clean(item.Name), err)
		}
	}
	root, popups, err := d.menuWalk(ctx)
	if err != nil {
		return nil, err
	}
	now := findRef(root, item.Ref)
	for _, p := range popups {
		if now == nil {
			now = findRef(p, item.Ref)
		}
	}
	if now == nil {
		return nil, fmt.Errorf("menu item %q is gone after expanding it", clean(item.Name))
	}
	if now.Expanded != stateExpanded && now.Expanded != statePartially {
		return nil, fmt.Errorf("menu item %q is %s after expand", clean(item.Name), expandName(now.Expanded))
	}
	var opened []*Node
	for _, p := range popups {
		if !containsRef(before, p.Ref) {
			opened = append(opened, p)
		}
	}
	return opened, nil
}

// invokeItem invokes the path's last item.
func (d *Driver) invokeItem(item *Node, path []string) error {
	name := clean(item.Name)
	if !item.Has(PatternInvoke) {
		if item.Has(PatternExpandCollapse) {
			return fmt.Errorf("menu item %q opens a submenu and cannot be invoked: end the path at one of its items", name)
		}
		return fmt.Errorf("menu item %q has no Invoke pattern", name)
	}
	if !item.Enabled {
		return fmt.Errorf("menu item %q is disabled", name)
	}
	if err := d.auto.Pattern(item.Ref, OpInvoke, ""); err != nil {
		return fmt.Errorf("%s: invoke: %w", strings.Join(path, " > "), err)
	}
	return nil
}
