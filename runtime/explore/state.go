package explore

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/match"
)

// actionable are the roles a click may do something on.
var actionable = map[string]bool{
	"button": true, "link": true, "menuitem": true, "tab": true, "checkbox": true, "radio": true,
	"switch": true, "listitem": true, "option": true, "combobox": true, "treeitem": true, "row": true,
}

// interactive reports whether an element is one a person could act on now.
func interactive(e *driver.Element) bool {
	return e != nil && e.Visible && e.Enabled && (actionable[e.Role] || e.Editable)
}

// stateKey names a screen state as knowledge files transitions under it
// (knowledge.StateKey): where it is and what it offers to act on, not the
// values typed; a list's items count only as how many there are.
func stateKey(t *driver.Tree) string { return knowledge.StateKey(t) }

// signature tells screens apart within one exploration, finer than
// stateKey: the place, the title and every interactive element's role and
// label, list items included (a file list and the contact list it leads
// to are different screens, though knowledge files both as "a list").
// Values typed are left out, so typing keeps the signature.
func signature(t *driver.Tree) string {
	var parts []string
	for _, e := range t.Elements {
		if interactive(e) {
			parts = append(parts, e.Role+":"+label(e))
		}
	}
	slices.Sort(parts)
	return place(t.URL) + "|" + t.Title + "|" + strings.Join(parts, ",")
}

// place is the part of a URL a screen depends on: the path, not the query.
func place(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return raw
	}
	if u.Scheme == "android-app" {
		return u.Host + u.Path
	}
	return u.Path
}

// label is the words that name an element to a person. A field's text is
// its value, which may be a secret: never part of a label.
func label(e *driver.Element) string {
	_, v := naming(e)
	return clip(v, 60)
}

// naming is the attribute that names an element, and its value: the
// first of name, label, text, placeholder and id that is set; a field's
// text is its value, never its name.
func naming(e *driver.Element) (attr, value string) {
	text := e.Text
	if e.Editable {
		text = ""
	}
	for _, a := range [...]struct{ name, v string }{
		{"name", e.Name}, {"label", e.Label}, {"text", text}, {"placeholder", e.Placeholder}, {"id", e.ID},
	} {
		if a.v != "" {
			return a.name, a.v
		}
	}
	return "", ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s // no more runes than bytes
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// describe writes an element as a .cog element description, the way a
// path keeps a target: the role and the one attribute that names it.
func describe(e *driver.Element) string {
	role := e.Role
	if role == "" {
		role = "element"
	}
	attr, v := naming(e)
	if attr == "" {
		return role + "()"
	}
	return fmt.Sprintf("%s(%s: %s)", role, attr, strconv.Quote(v))
}

// parseDescription reads back what describe wrote.
func parseDescription(s string) (match.Description, error) {
	d := match.Description{Attrs: map[string]string{}, Index: -1}
	open := strings.IndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return d, fmt.Errorf("the target %q is not an element description", s)
	}
	d.Role = s[:open]
	rest := strings.TrimSpace(s[open+1 : len(s)-1])
	for rest != "" {
		colon := strings.IndexByte(rest, ':')
		if colon <= 0 {
			return d, fmt.Errorf("the target %q is not an element description", s)
		}
		name := strings.TrimSpace(rest[:colon])
		rest = strings.TrimSpace(rest[colon+1:])
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return d, fmt.Errorf("the target %q: attribute %s: %v", s, name, err)
		}
		v, _ := strconv.Unquote(q)
		d.Attrs[name] = v
		rest = strings.TrimPrefix(strings.TrimSpace(rest[len(q):]), ",")
		rest = strings.TrimSpace(rest)
	}
	return d, nil
}

// anchor finds the one visible element of the tree a description means;
// none or an unclear choice is an error, never a guess.
func anchor(t *driver.Tree, desc string) (*driver.Element, error) {
	d, err := parseDescription(desc)
	if err != nil {
		return nil, err
	}
	var els []*driver.Element
	for _, e := range t.Elements {
		if e != nil && e.Visible {
			els = append(els, e)
		}
	}
	out := match.New(d).Choose(len(els), func(i int, c *match.Candidate) {
		e := els[i]
		c.Attrs = e.Attributes()
		c.Position = -1
	})
	switch {
	case out.Winner >= 0:
		return els[out.Winner], nil
	case out.Ambiguous:
		return nil, fmt.Errorf("%s matches more than one element on the screen", desc)
	}
	return nil, fmt.Errorf("%s is not on the screen", desc)
}
