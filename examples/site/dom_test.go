package site

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// A small DOM for the tests, built with encoding/xml in its lenient HTML
// mode: enough to find elements by id, tag or attribute and read their
// text, and to notice a tag closed in the wrong place.

type node struct {
	Tag      string
	Attrs    map[string]string
	Children []*node
	Parent   *node
	text     string // for text nodes (Tag == "")
}

func (n *node) Attr(name string) string { return n.Attrs[name] }

func (n *node) Has(name string) bool {
	_, ok := n.Attrs[name]
	return ok
}

// Text is the element's text content with white space collapsed.
func (n *node) Text() string {
	var b strings.Builder
	var walk func(*node)
	walk = func(m *node) {
		if m.Tag == "" {
			b.WriteString(m.text)
			b.WriteString(" ")
		}
		for _, c := range m.Children {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// RawText is the element's text as written, for a textarea's value.
func (n *node) RawText() string {
	var b strings.Builder
	for _, c := range n.Children {
		b.WriteString(c.text)
	}
	// The HTML parser drops one newline right after <textarea>.
	return strings.TrimPrefix(b.String(), "\n")
}

// All returns the elements below n (n included) for which match is true,
// in document order.
func (n *node) All(match func(*node) bool) []*node {
	var out []*node
	var walk func(*node)
	walk = func(m *node) {
		if m.Tag != "" && match(m) {
			out = append(out, m)
		}
		for _, c := range m.Children {
			walk(c)
		}
	}
	walk(n)
	return out
}

func (n *node) Tags(tag string) []*node {
	return n.All(func(m *node) bool { return m.Tag == tag })
}

func (n *node) First(match func(*node) bool) *node {
	if all := n.All(match); len(all) > 0 {
		return all[0]
	}
	return nil
}

func (n *node) ByID(id string) *node {
	return n.First(func(m *node) bool { return m.Attr("id") == id })
}

// Named finds the first element with the tag whose aria-label is name.
func (n *node) Named(tag, name string) *node {
	return n.First(func(m *node) bool { return m.Tag == tag && m.Attr("aria-label") == name })
}

// Within reports whether n is inside an element with the tag.
func (n *node) Within(tag string) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Tag == tag {
			return true
		}
	}
	return false
}

// parseHTML builds the tree of a page; an end tag that does not close the
// innermost open element is an error.
func parseHTML(r io.Reader) (*node, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	d.AutoClose = xml.HTMLAutoClose
	d.Entity = xml.HTMLEntity
	root := &node{Tag: "#document"}
	cur := root
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := &node{Tag: strings.ToLower(t.Name.Local), Attrs: map[string]string{}, Parent: cur}
			for _, a := range t.Attr {
				n.Attrs[strings.ToLower(a.Name.Local)] = a.Value
			}
			cur.Children = append(cur.Children, n)
			cur = n
		case xml.EndElement:
			tag := strings.ToLower(t.Name.Local)
			if tag != cur.Tag {
				return nil, fmt.Errorf("</%s> closes <%s>", tag, cur.Tag)
			}
			cur = cur.Parent
		case xml.CharData:
			cur.Children = append(cur.Children, &node{Parent: cur, text: string(t)})
		}
	}
	if cur != root {
		return nil, fmt.Errorf("<%s> is never closed", cur.Tag)
	}
	return root, nil
}
