package compiler

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Descriptions that outlive the demonstrated instance.
//
// Some targets are described by what only the demonstrated instance had:
// a field found by a positional css selector ("tr:nth-of-type(1) > td >
// input") whose row moves when the layout changes, or a section header
// whose title the page numbers anew each time ("Section #22") and that no
// text on the screen names. generalized rewrites such a description, and
// only when the rewritten one still picks exactly the target on the
// demonstration's snapshot:
//
//   - a field with a label (or name, description, placeholder) that
//     identifies it alone loses its positional css selector: a label says
//     which field is meant, a position only where it was;
//   - a clicked element whose name holds a number (a numbered title, the
//     usual sign of generated content) and that is the only element of its
//     kind on the screen (its role and one stable class, or its role, its
//     tag and one stable class: `css: "h3.ui-accordion-header"`) is
//     described by its kind alone.
//
// Anything else keeps the demonstrated description: a description that
// matched two elements would make the run fail, and the compiler never
// writes one.

// generalized returns d, or the description that outlives the instance.
func (c *compiler) generalized(i int, t *trace.Target, d *targetDesc, snap string) *targetDesc {
	if c.literal || d == nil || t == nil {
		return d
	}
	_, s, idx := findInSnapshot(c.tr, c.infos[i].Target, snap)
	if s == nil || idx < 0 || t != c.infos[i].full {
		return d
	}
	if g := withoutPosition(s, idx, d, t); g != nil {
		c.evidence = append(c.evidence, Evidence{Step: c.infos[i].name, Chosen: g.String(),
			Why: fmt.Sprintf("the field's %s identifies it alone on the demonstration's screen; the positional selector %q is left out", describedBy(g), d.Get("css"))})
		return g
	}
	if g := byKind(s, idx, d, t, c.infos[i].Action); g != nil {
		c.evidence = append(c.evidence, Evidence{Step: c.infos[i].name, Value: d.Get("name"), Chosen: g.String(),
			Why: "its name holds a number (generated content) that no text on the screen names, and it is the only element of its kind on the demonstration's screen"})
		return g
	}
	return d
}

// positional reports whether a css selector says where an element is
// rather than what it is.
func positional(css string) bool {
	return strings.Contains(css, ":nth-") || strings.Contains(css, ":first-") || strings.Contains(css, ":last-")
}

// identifying are the attributes that say what a field is.
var identifying = []string{"label", "name", "description", "placeholder"}

func describedBy(d *targetDesc) string {
	for _, n := range identifying {
		if d.Get(n) != "" {
			return n
		}
	}
	return "description"
}

// withoutPosition drops a positional css selector from the description of
// a field that its label (or name, description, placeholder) identifies
// alone; nil when that does not apply.
func withoutPosition(s *trace.Snapshot, idx int, d *targetDesc, t *trace.Target) *targetDesc {
	if !positional(d.Get("css")) || d.Within != nil || d.Frame != nil {
		return nil
	}
	e := &s.Elements[idx]
	if !isField(t) {
		return nil
	}
	var kept []describedAttr
	has := false
	for _, a := range d.Attrs {
		switch {
		case a.Name == "css":
			continue
		case a.Name == "path" || a.Name == "xpath":
			return nil // another position: nothing gained
		}
		for _, n := range identifying {
			if a.Name == n {
				has = true
			}
		}
		kept = append(kept, a)
	}
	if !has || count(s, d.Ctor, kept, -1) != 1 || !matches(e, d.Ctor, kept) {
		return nil
	}
	return &targetDesc{Ctor: d.Ctor, Attrs: kept, Unique: true}
}

// byKind describes a clicked element with a numbered name by its kind
// alone, when it is the only one of its kind; nil otherwise.
func byKind(s *trace.Snapshot, idx int, d *targetDesc, t *trace.Target, op action.Name) *targetDesc {
	switch op {
	case action.Click, action.DoubleClick, action.RightClick:
	default:
		return nil
	}
	e := &s.Elements[idx]
	if isField(t) || !numbered(e.Name) || d.Within != nil {
		return nil
	}
	ctor, base := ctorOf(e.Role)
	// The fewest words of the kind that single it out: one stable class,
	// else the tag with one stable class (an <h3> header among <p> rows
	// styled alike).
	var kinds [][]describedAttr
	toks := strings.Fields(stableClass(e.Class))
	for _, tok := range toks {
		kinds = append(kinds, []describedAttr{{"class", tok}})
	}
	if tag := tagOf(e.Path); tag != "" {
		for _, tok := range toks {
			kinds = append(kinds, []describedAttr{{"css", tag + "." + tok}})
		}
	}
	for _, k := range kinds {
		kind := append(append([]describedAttr(nil), base...), k...)
		if countKind(s, ctor, kind) == 1 && kindMatches(e, ctor, kind) {
			return &targetDesc{Ctor: ctor, Attrs: kind, Unique: true}
		}
	}
	return nil
}

// tagOf is the element name a browser path ends with ("div[1]/h3" → h3),
// or "" when the path's last step is not a plain name.
func tagOf(path string) string {
	last := path[strings.LastIndex(path, "/")+1:]
	if i := strings.IndexByte(last, '['); i >= 0 {
		last = last[:i]
	}
	for _, r := range last {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return ""
		}
	}
	return last
}

// kindMatches is matches for a kind, whose css is a tag and a class.
func kindMatches(e *trace.Element, ctor string, kind []describedAttr) bool {
	var rest []describedAttr
	for _, a := range kind {
		if a.Name != "css" {
			rest = append(rest, a)
			continue
		}
		tag, cls, _ := strings.Cut(a.Value, ".")
		if tagOf(e.Path) != tag || !slices.Contains(strings.Fields(e.Class), cls) {
			return false
		}
	}
	return matches(e, ctor, rest)
}

// countKind counts the elements of a kind.
func countKind(s *trace.Snapshot, ctor string, kind []describedAttr) int {
	n := 0
	for k := range s.Elements {
		if kindMatches(&s.Elements[k], ctor, kind) {
			n++
		}
	}
	return n
}

// numbered reports whether a name holds a number: "Section #22", "Item 7".
func numbered(name string) bool {
	return strings.IndexFunc(name, unicode.IsDigit) >= 0
}

// stateWords mark class tokens that say what state an element is in
// (hovered, open, chosen) rather than what it is: they change as a person
// acts, so a description never asks for them.
var stateWords = []string{"state", "hover", "active", "focus", "selected", "collapsed", "expanded", "open", "closed", "disabled", "checked", "current"}

// stableClass is the class tokens of an element without its state tokens.
func stableClass(class string) string {
	var out []string
	for _, tok := range strings.Fields(class) {
		low, state := strings.ToLower(tok), false
		for _, w := range stateWords {
			if strings.Contains(low, w) {
				state = true
			}
		}
		if !state {
			out = append(out, tok)
		}
	}
	return strings.Join(out, " ")
}
