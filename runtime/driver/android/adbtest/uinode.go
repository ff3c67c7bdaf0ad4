package adbtest

import (
	"fmt"
	"strings"
)

// rect is a node's bounds in screen pixels, half open: [X1,X2) × [Y1,Y2),
// printed as uiautomator does: "[x1,y1][x2,y2]".
type rect struct{ X1, Y1, X2, Y2 int }

func (r rect) contains(x, y int) bool { return x >= r.X1 && x < r.X2 && y >= r.Y1 && y < r.Y2 }

func (r rect) String() string { return fmt.Sprintf("[%d,%d][%d,%d]", r.X1, r.Y1, r.X2, r.Y2) }

func (r rect) empty() bool { return r.X2 <= r.X1 || r.Y2 <= r.Y1 }

// intersect clips r to o, as uiautomator reports only the visible part of a
// node that is scrolled partly out of its parent.
func (r rect) intersect(o rect) rect {
	r.X1, r.Y1 = max(r.X1, o.X1), max(r.Y1, o.Y1)
	r.X2, r.Y2 = min(r.X2, o.X2), min(r.Y2, o.Y2)
	return r
}

// node is one view of a rendered screen. The same tree serves the XML dump,
// hit testing of taps and the screenshot, so the three always agree.
type node struct {
	class, text, id, pkg, desc    string
	clickable, focusable, focused bool
	scrollable, longClickable     bool
	checkable, checked, password  bool
	selected, disabled            bool
	bounds                        rect
	children                      []*node
	// onTap runs with the app's lock held when a tap lands on this node.
	onTap func(a *App)
}

// add appends children and returns n, to build trees as expressions.
func (n *node) add(children ...*node) *node {
	n.children = append(n.children, children...)
	return n
}

// hit returns the node a tap at (x, y) goes to, as Android dispatches
// touches: children in reverse drawing order (the last drawn is on top),
// the deepest clickable view wins, else the nearest clickable ancestor.
func (n *node) hit(x, y int) *node {
	if !n.bounds.contains(x, y) {
		return nil
	}
	for i := len(n.children) - 1; i >= 0; i-- {
		if h := n.children[i].hit(x, y); h != nil {
			return h
		}
	}
	if n.clickable && !n.disabled {
		return n
	}
	return nil
}

// writeXML writes n as uiautomator's dump does: one line, attributes in
// uiautomator's order, index = position among siblings.
func (n *node) writeXML(b *strings.Builder, index int) {
	fmt.Fprintf(b, `<node index="%d" text="%s" resource-id="%s" class="%s" package="%s" content-desc="%s"`,
		index, xmlEscape(n.text), xmlEscape(n.id), n.class, n.pkg, xmlEscape(n.desc))
	fmt.Fprintf(b, ` checkable="%t" checked="%t" clickable="%t" enabled="%t" focusable="%t" focused="%t"`,
		n.checkable, n.checked, n.clickable, !n.disabled, n.focusable, n.focused)
	fmt.Fprintf(b, ` scrollable="%t" long-clickable="%t" password="%t" selected="%t" bounds="%s"`,
		n.scrollable, n.longClickable, n.password, n.selected, n.bounds)
	if len(n.children) == 0 {
		b.WriteString(" />")
		return
	}
	b.WriteString(">")
	for i, c := range n.children {
		c.writeXML(b, i)
	}
	b.WriteString("</node>")
}

// dumpXML renders a window's tree as `uiautomator dump` writes it: an XML
// declaration with single quotes, one line, no trailing newline.
func dumpXML(root *node) string {
	var b strings.Builder
	b.WriteString(`<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0">`)
	root.writeXML(&b, 0)
	b.WriteString("</hierarchy>")
	return b.String()
}

// xmlEscape escapes what Android's XmlSerializer escapes in attributes;
// other characters, non-ASCII included, are written as UTF-8.
func xmlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\n':
			b.WriteString("&#10;")
		case r < 0x20:
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
