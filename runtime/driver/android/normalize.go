package android

import (
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// Caps on the texts an element carries, in runes.
const (
	maxText = 200
	maxName = 120
)

// raw is one node of a dump in document order with what normalization
// learns about it.
type raw struct {
	n      *node
	parent int // index in the flat list, -1 for a root
	hidden bool
	keep   bool
	role   string
	text   string // own text, whitespace-collapsed
	desc   string // own content-desc, whitespace-collapsed
	elem   int    // index of its element, -1 when pruned
	web    bool   // inside a WebView
	bar    bool   // inside a toolbar
}

// flatten lists the nodes of h in document order (parents first).
func flatten(h *hierarchy) []raw {
	var out []raw
	screen := screenOf(h)
	var walk func(n *node, parent int, web, bar bool)
	walk = func(n *node, parent int, web, bar bool) {
		r := raw{n: n, parent: parent, elem: -1, web: web, bar: bar}
		r.text, r.desc = collapse(n.Text), collapse(n.ContentDesc)
		r.role = classRole(n.Class)
		// A node's own bounds decide, not its ancestors': real apps lay
		// out containers of zero height whose children are drawn, and
		// touched, all the same (uiautomator dumps only nodes Android
		// reports visible to the user).
		r.hidden = !onScreen(n.rect, screen)
		out = append(out, r)
		me := len(out) - 1
		web = web || simpleName(n.Class) == "WebView"
		bar = bar || isToolbar(n.Class, n.ResourceID)
		for i := range n.Nodes {
			walk(&n.Nodes[i], me, web, bar)
		}
	}
	for i := range h.Nodes {
		walk(&h.Nodes[i], -1, false, false)
	}
	return out
}

// screenOf is the area the dump's windows cover: the union of the root
// nodes' bounds (the dump carries no screen size). The zero rect means
// no root has an area, and then nothing is clipped.
func screenOf(h *hierarchy) rect {
	var s rect
	for i := range h.Nodes {
		r := h.Nodes[i].rect
		switch {
		case r.empty():
		case s.empty():
			s = r
		default:
			s = rect{min(s.L, r.L), min(s.T, r.T), max(s.R, r.R), max(s.B, r.B)}
		}
	}
	return s
}

// onScreen reports whether a node with bounds r can be seen: it has an
// area, and some of it lies on the screen.
func onScreen(r, screen rect) bool {
	if r.empty() {
		return false
	}
	if screen.empty() {
		return true
	}
	return r.L < screen.R && r.R > screen.L && r.T < screen.B && r.B > screen.T
}

// interactive reports whether a person can act on the node.
func (r *raw) interactive() bool {
	n := r.n
	return n.Clickable || n.LongClickable || n.Checkable || n.Scrollable || r.role == "textbox" ||
		r.role == "slider" || r.role == "combobox"
}

// important is AutoTask's interaction importance: a node matters when a
// person can act on it or read something from it, or when it is a list.
func (r *raw) important() bool {
	return r.interactive() || r.text != "" || r.desc != "" || r.role == "list"
}

// prune decides which nodes become elements, by AutoTask's two criteria:
// interaction importance (important) and layout importance — a node that
// matters for neither but groups two or more kept nodes stays, because it
// tells which texts belong together (a list item's title and subtitle); a
// wrapper around a single kept node goes, its child taking its place.
// Nodes without area or off the screen are not seen; what they hold is
// judged by its own bounds (their kept children are lifted to them).
func prune(rs []raw) {
	kids := make([]int, len(rs))
	for i := len(rs) - 1; i >= 0; i-- {
		r := &rs[i]
		r.keep = !r.hidden && (r.parent < 0 || r.important() || kids[i] >= 2)
		if r.keep && r.parent >= 0 {
			kids[r.parent]++
		} else if !r.keep && r.parent >= 0 {
			kids[r.parent] += kids[i] // its kept children are lifted to its parent
		}
	}
}

// normalize turns a parsed dump into the driver's tree.
func normalize(h *hierarchy, taken time.Time) *driver.Tree {
	rs := flatten(h)
	prune(rs)
	t := &driver.Tree{Taken: taken}
	var src []int // element index → raw index
	for i := range rs {
		r := &rs[i]
		if !r.keep {
			continue
		}
		parent := -1
		for p := r.parent; p >= 0; p = rs[p].parent {
			if rs[p].keep {
				parent = rs[p].elem
				break
			}
		}
		r.elem = len(t.Elements)
		src = append(src, i)
		t.Elements = append(t.Elements, baseElement(r, i, parent))
	}
	b := &builder{t: t, rs: rs, src: src}
	b.children()
	b.texts()
	b.lists()
	b.roles()
	b.names()
	b.paths()
	if len(t.Elements) > 0 {
		pkg := rs[src[0]].n.Package
		t.URL = "android-app://" + pkg
		t.Title = b.title()
	}
	return t
}

// baseElement is what a node says about itself.
func baseElement(r *raw, i, parent int) *driver.Element {
	n := r.n
	e := &driver.Element{
		Ref:     "n" + strconv.Itoa(i),
		Role:    r.role,
		ID:      shortID(n.ResourceID, n.Package),
		Class:   n.Class,
		Bounds:  driver.Rect{X: float64(n.rect.L), Y: float64(n.rect.T), W: float64(n.rect.R - n.rect.L), H: float64(n.rect.B - n.rect.T)},
		Visible: !r.hidden,
		Enabled: n.Enabled,
		Checked: n.Checked,
		Focus:   n.Focused,
		Secret:  n.Password,
		Parent:  parent,
	}
	if r.role == "textbox" {
		e.Editable = true
		hint := collapse(n.Hint)
		e.Placeholder = hint
		switch {
		case n.Password:
			// The dump shows dots; a secret's length is not for journals.
		case hint != "" && r.text == hint:
			// An empty field reports its hint as its text.
		case hint == "" && looksLikeHint(r.text, e.ID):
			// Dumps before Android 13 have no hint attribute; a text that
			// names the field's id ("Phone" in phone_input) is its hint.
			e.Placeholder = r.text
		default:
			e.Value = r.text
		}
	}
	return e
}

// builder refines the elements with what their place in the tree says.
type builder struct {
	t    *driver.Tree
	rs   []raw
	src  []int
	kids [][]int
	// all are the texts of each element and its descendants, in order.
	all [][]string
}

func (b *builder) raw(e int) *raw { return &b.rs[b.src[e]] }

func (b *builder) children() {
	b.kids = make([][]int, len(b.t.Elements))
	for i, e := range b.t.Elements {
		if e.Parent >= 0 {
			b.kids[e.Parent] = append(b.kids[e.Parent], i)
		}
	}
}

// own is the text an element shows itself. Password fields show nothing;
// content-desc is not shown text (it names icons) and stays out.
func (b *builder) own(i int) string {
	r := b.raw(i)
	if r.n.Password {
		return ""
	}
	return r.text
}

// descIn is the first content-desc in an element's subtree: the name of
// an icon-only button whose clickable parent has no text.
func (b *builder) descIn(i int) string {
	if d := b.raw(i).desc; d != "" {
		return d
	}
	for _, k := range b.kids[i] {
		if d := b.descIn(k); d != "" {
			return d
		}
	}
	return ""
}

func (b *builder) texts() {
	b.all = make([][]string, len(b.t.Elements))
	for i := range b.t.Elements {
		s := b.own(i)
		if s == "" {
			continue
		}
		for k := i; k >= 0; k = b.t.Elements[k].Parent {
			b.all[k] = append(b.all[k], s)
		}
	}
	for i, e := range b.t.Elements {
		if e.Role != "textbox" {
			e.Text = clip(strings.Join(b.all[i], " "), maxText)
		}
	}
}

// title is the screen's title: the first heading (a toolbar's or a
// dialog's title); "" when the screen has none.
func (b *builder) title() string {
	for _, e := range b.t.Elements {
		if e.Role == "heading" && e.Text != "" {
			return e.Text
		}
	}
	return ""
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// looksLikeHint reports whether a field's text is the field's own name
// rather than a value: short, and starting with the first word of its
// resource-id ("Phone" or "Phone number" in phone_input, "Search
// contacts" in search).
func looksLikeHint(text, id string) bool {
	words := strings.Fields(strings.ToLower(text))
	if len(words) == 0 || len(words) > 3 || id == "" {
		return false
	}
	if i := strings.LastIndex(id, "/"); i >= 0 {
		id = id[i+1:]
	}
	idWords := strings.FieldsFunc(strings.ToLower(id), func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	return len(idWords) > 0 && words[0] == idWords[0]
}
