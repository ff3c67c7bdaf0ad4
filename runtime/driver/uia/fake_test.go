package uia

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// fake is an automation over a Node tree (a snapshot's): it walks the
// tree, applies pattern actions to the nodes as UIA providers would, and
// logs every call, so tests see which path an action took.
type fake struct {
	root      *Node
	log       []string
	fail      map[PatternOp]bool // pattern calls that fail
	windows   []driver.Window
	clipboard string
	walks     int
	closed    bool

	// Menus as providers show them: expanding an item of submenus
	// attaches its items as its children (WPF); expanding one of popups
	// opens that Menu as a top-level popup (Win32). Invoking an item
	// closes every open menu.
	submenus map[string][]*Node
	popupFor map[string]*Node
	popups   []*Node
	// stuck are elements whose patterns succeed without effect, as a
	// provider that ignores the call does.
	stuck map[string]bool
	// shown are elements whose provider keeps a value other than the
	// one set (SetValue stores shown(text)).
	shown map[string]func(string) string
}

func newFake(root *Node) *fake {
	return &fake{root: root, fail: map[PatternOp]bool{}, submenus: map[string][]*Node{}, popupFor: map[string]*Node{}, stuck: map[string]bool{}, windows: []driver.Window{
		{ID: "0x10", Title: "Monster Test App"}, {ID: "0x20", Title: "Untitled - Notepad"}, {ID: "0x30", Title: "Notepad Help"},
	}}
}

func (f *fake) logf(format string, args ...any) { f.log = append(f.log, fmt.Sprintf(format, args...)) }

// find finds a node by Ref.
func (f *fake) find(ref string) *Node {
	var found *Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Ref == ref {
			found = n
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(f.root)
	for _, p := range f.popups {
		walk(p)
	}
	return found
}

// opPatterns are the patterns the fake's elements must support for each
// pattern action, as UIA providers do (GetCurrentPattern returns none).
var opPatterns = map[PatternOp]int{
	OpInvoke: PatternInvoke, OpToggle: PatternToggle, OpSelect: PatternSelectionItem, OpAddToSelection: PatternSelectionItem,
	OpExpand: PatternExpandCollapse, OpCollapse: PatternExpandCollapse, OpSetValue: PatternValue, OpScrollIntoView: PatternScrollItem,
}

func (f *fake) Popups(Limits) ([]*Node, error) { return f.popups, nil }

// expand shows a menu item's submenu; collapse hides it.
func (f *fake) expand(n *Node) {
	if items, ok := f.submenus[n.Ref]; ok && n.Expanded != 1 {
		n.Children = append(n.Children, items...)
	}
	if p, ok := f.popupFor[n.Ref]; ok && !containsRef(f.popups, p.Ref) {
		f.popups = append(f.popups, p)
	}
	n.Expanded = 1
}

func (f *fake) collapse(n *Node) {
	if items, ok := f.submenus[n.Ref]; ok && n.Expanded == 1 {
		n.Children = n.Children[:len(n.Children)-len(items)]
	}
	if p, ok := f.popupFor[n.Ref]; ok {
		var keep []*Node
		for _, q := range f.popups {
			if q != p {
				keep = append(keep, q)
			}
		}
		f.popups = keep
	}
	n.Expanded = 0
}

// closeMenus collapses every expanded menu item, as invoking an item does.
func (f *fake) closeMenus() {
	var open []*Node
	var walk func(n *Node)
	walk = func(n *Node) {
		for _, c := range n.Children {
			walk(c)
		}
		if n.ControlType == ctMenuItem && n.Expanded == 1 {
			open = append(open, n)
		}
	}
	walk(f.root)
	for _, p := range f.popups {
		walk(p)
	}
	for _, n := range open {
		f.collapse(n)
	}
}

func (f *fake) Walk(window string, lim Limits) (*Node, error) {
	f.walks++
	return f.root, nil
}

func (f *fake) FromPoint(x, y int) (*Node, error) {
	var hit *Node // popups are on top: they are walked last
	var walk func(n *Node)
	walk = func(n *Node) {
		r := n.Rect
		if float64(x) >= r.X && float64(x) < r.X+r.W && float64(y) >= r.Y && float64(y) < r.Y+r.H {
			hit = n // the deepest one wins: children come later
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(f.root)
	for _, p := range f.popups {
		walk(p)
	}
	if hit == nil {
		return nil, errors.New("no element there")
	}
	return hit, nil
}

func (f *fake) Focused() (*Node, error) {
	var foc *Node
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Focused {
			foc = n
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(f.root)
	if foc == nil {
		return f.root, nil
	}
	return foc, nil
}

func (f *fake) Pattern(ref string, op PatternOp, text string) error {
	n := f.find(ref)
	if n == nil {
		return errors.New("UIA_E_ELEMENTNOTAVAILABLE")
	}
	if p, ok := opPatterns[op]; ok && !n.Has(p) {
		f.logf("%s %s: no pattern", op, firstOf(n.Name, n.ClassName))
		return fmt.Errorf("element %s does not support the pattern for %s", ref, op)
	}
	if f.fail[op] {
		f.logf("%s %s failed", op, n.Name)
		return errors.New("E_FAIL")
	}
	f.logf("%s %s", op, firstOf(n.Name, n.ClassName))
	if f.stuck[ref] {
		return nil
	}
	switch op {
	case OpSetValue:
		n.Value = text
		if show := f.shown[ref]; show != nil {
			n.Value = show(text)
		}
	case OpToggle:
		n.ToggleState = (n.ToggleState + 1) % f.toggleStates(n)
	case OpSelect:
		n.Selected = true
	case OpExpand:
		f.expand(n)
	case OpCollapse:
		f.collapse(n)
	case OpInvoke:
		if n.ControlType == ctMenuItem {
			f.closeMenus()
		}
	case OpFocus:
		n.Focused = true
	}
	return nil
}

// toggleStates is how many states a toggle cycles through: three for a
// three-state check box (named so in tests: "3state"), else two.
func (f *fake) toggleStates(n *Node) int {
	if n.ClassName == "3state" {
		return 3
	}
	return 2
}

func (f *fake) ClickablePoint(ref string) (float64, float64, bool, error) {
	return 0, 0, false, nil
}

func (f *fake) Click(x, y float64, button string, count int) error {
	f.logf("click %s %d @%g,%g", button, count, x, y)
	if button == "left" && count == 1 {
		f.clickMenu(x, y)
	}
	return nil
}

// clickMenu does what a click does to a menu: the item under the point
// (or whose content is) opens its submenu, or is chosen and closes the
// menus.
func (f *fake) clickMenu(x, y float64) {
	var path []*Node
	var walk func(n *Node, up []*Node)
	walk = func(n *Node, up []*Node) {
		up = append(up, n)
		r := n.Rect
		if x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H {
			path = append([]*Node(nil), up...) // the deepest one wins
		}
		for _, c := range n.Children {
			walk(c, up)
		}
	}
	walk(f.root, nil)
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if n.ControlType != ctMenuItem {
			continue
		}
		switch {
		case n.Has(PatternExpandCollapse) && n.Expanded != 1:
			f.expand(n)
		case n.Has(PatternExpandCollapse):
			f.collapse(n)
		default:
			f.closeMenus()
		}
		return
	}
}
func (f *fake) MoveTo(x, y float64) error { f.logf("move @%g,%g", x, y); return nil }
func (f *fake) Drag(x1, y1, x2, y2 float64) error {
	f.logf("drag @%g,%g-%g,%g", x1, y1, x2, y2)
	return nil
}
func (f *fake) Wheel(x, y float64, n int) error { f.logf("wheel %d @%g,%g", n, x, y); return nil }
func (f *fake) Keys(c Chord) error {
	f.logf("keys %v %d %q", c.Mods, c.Key, c.Rune)
	return nil
}
func (f *fake) Type(text string) error { f.logf("type %q", text); return nil }
func (f *fake) Windows() ([]driver.Window, error) {
	return f.windows, nil
}
func (f *fake) Activate(id string) error    { f.logf("activate %s", id); return nil }
func (f *fake) CloseWindow(id string) error { f.logf("close %s", id); return nil }
func (f *fake) Launch(_ context.Context, app string) (driver.Window, error) {
	f.logf("launch %s", app)
	if strings.Contains(app, "missing") {
		return driver.Window{}, errors.New("the system cannot find the file specified")
	}
	return driver.Window{ID: "0x40", Title: app}, nil
}
func (f *fake) Clipboard() (string, error)        { return f.clipboard, nil }
func (f *fake) SetClipboard(text string) error    { f.clipboard = text; return nil }
func (f *fake) Screenshot(string) ([]byte, error) { return []byte("\x89PNG"), nil }
func (f *fake) Close() error                      { f.closed = true; return nil }

// testDriver is a driver over a fake of the five snapshots in one window
// (see monster), with no pause between stability walks.
func testDriver(root *Node) (*Driver, *fake) {
	f := newFake(root)
	d := newDriver(f, driver.Options{})
	d.settle = 0
	return d, f
}
