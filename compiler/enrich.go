package compiler

import (
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// constructors are the element constructors of the language.
var constructors = map[string]bool{}

func init() {
	for _, c := range strings.Fields(`element button link textbox checkbox radio combobox listbox list
listitem menu menuitem option tab table row cell heading image text dialog region slider switch tree treeitem`) {
		constructors[c] = true
	}
}

// describedAttr is one attribute of an element description.
type describedAttr struct {
	Name  string
	Value string
}

// targetDesc is an element description: a constructor, the attributes that make
// the element unique, and the element it lies within.
type targetDesc struct {
	Ctor   string
	Attrs  []describedAttr
	Within *targetDesc
	// Frame is the frame: attribute, the child-frame index path.
	Frame []int
	// Unique reports whether the description was verified to pick the
	// element in the snapshot: its one exact fit there, and the one the
	// runtime's matching model chooses (agree.go).
	Unique bool
}

// Expr builds the constructor call.
func (d *targetDesc) Expr() ast.Expr {
	c := &ast.Call{Fun: ref(d.Ctor)}
	for _, a := range d.Attrs {
		c.Args = append(c.Args, named(a.Name, str(a.Value)))
	}
	if d.Within != nil {
		c.Args = append(c.Args, named("within", d.Within.Expr()))
	}
	if d.Frame != nil {
		c.Args = append(c.Args, named("frame", frameList(d.Frame)))
	}
	return c
}

// String is the description's canonical text.
func (d *targetDesc) String() string { return printer.ExprString(d.Expr()) }

// Get returns an attribute's value.
func (d *targetDesc) Get(name string) string {
	for _, a := range d.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// findInSnapshot completes a target from its snapshot: when the target names a
// ref of the snapshot, the snapshot's attributes and context fill what the
// event left out. It returns the snapshot (nil when there is none) and the
// element's index there (-1 when not found).
func findInSnapshot(tr *trace.Trace, t *trace.Target, snapID string) (*trace.Target, *trace.Snapshot, int) {
	if t == nil {
		return nil, nil, -1
	}
	s, ok := tr.Snapshots[snapID]
	if !ok {
		return t, nil, -1
	}
	idx := -1
	if t.Ref != "" {
		for i := range s.Elements {
			if s.Elements[i].Ref == t.Ref {
				idx = i
				break
			}
		}
	}
	if idx < 0 {
		return t, &s, -1
	}
	full := trace.TargetOf(&s, idx)
	if t.Context != nil {
		full.Context = t.Context
	}
	full.Secret = t.Secret // the event says what the snapshot cannot
	return full, &s, idx
}

// matches reports whether a snapshot element fits a constructor and
// attributes; a scorer in the spirit of the runtime's anchoring, strict.
func matches(e *trace.Element, ctor string, attrs []describedAttr) bool {
	if ctor != "element" && e.Role != ctor {
		return false
	}
	for _, a := range attrs {
		if a.Name == "class" {
			// As at run time: every class written is present.
			if sharedTokens(a.Value, e.Class) != strings.Join(strings.Fields(a.Value), " ") {
				return false
			}
			continue
		}
		if e.Get(a.Name) != a.Value {
			return false
		}
	}
	return true
}

// count returns how many elements of the snapshot (under root, when root
// is not -1) fit the description.
func count(s *trace.Snapshot, ctor string, attrs []describedAttr, root int) int {
	n := 0
	for i := range s.Elements {
		if root >= 0 && !under(s, i, root) {
			continue
		}
		if matches(&s.Elements[i], ctor, attrs) {
			n++
		}
	}
	return n
}

func under(s *trace.Snapshot, i, root int) bool {
	for k, n := i, 0; k >= 0 && k < len(s.Elements) && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		if k == root {
			return true
		}
	}
	return false
}

// candidates are the attribute sets tried, most robust first; paths last.
func candidates(t *trace.Target) [][]describedAttr {
	var out [][]describedAttr
	addSet := func(names ...string) {
		var set []describedAttr
		for _, n := range names {
			v := t.Get(n)
			if v == "" || (n == "id" && generatedID(v)) {
				return
			}
			set = append(set, describedAttr{n, v})
		}
		out = append(out, set)
	}
	addSet("name", "id")
	addSet("id")
	addSet("name")
	addSet("label")
	addSet("placeholder")
	addSet("text")
	addSet("name", "text")
	addSet("description")
	addSet("href")
	return out
}

func ctorOf(role string) (string, []describedAttr) {
	if constructors[role] {
		return role, nil
	}
	if role == "" {
		return "element", nil
	}
	return "element", []describedAttr{{"role", role}}
}

// describeTarget builds the description of a target: the first attribute set
// that matches exactly one element of the snapshot; failing that, the same
// within the target's list item, list or table; a path only when nothing
// else identifies it. Without a snapshot the most robust set is taken
// unverified (id and name first), within its list or table when its own
// attributes are only text.
func describeTarget(tr *trace.Trace, target *trace.Target, snapID string) *targetDesc {
	return withSelectors(describe(tr, target, snapID), target)
}

func describe(tr *trace.Trace, target *trace.Target, snapID string) *targetDesc {
	t, s, idx := findInSnapshot(tr, target, snapID)
	if t == nil {
		return &targetDesc{Ctor: "element"}
	}
	ctor, base := ctorOf(t.Role)
	cands := candidates(t)
	if s == nil || idx < 0 {
		d := &targetDesc{Ctor: ctor, Attrs: base}
		if len(cands) > 0 {
			// Prefer the id alone over name+id when there is no snapshot to
			// verify: ids are the stable part; keep the name for reading.
			d.Attrs = append(d.Attrs, cands[0]...)
		} else if t.Path != "" {
			d.Attrs = append(d.Attrs, describedAttr{"path", t.Path})
		}
		if t.ID == "" && t.Name == "" && t.Context != nil && t.Context.List != nil && t.Context.List.Container != "" && t.Context.Headers == nil {
			d.Within = &targetDesc{Ctor: "list", Attrs: []describedAttr{{"path", t.Context.List.Container}}}
		}
		return d
	}
	// With a snapshot: the smallest set that is unique; prefer id alone,
	// then name, keeping a readable name with an id.
	order := [][]string{{"id"}, {"name"}, {"label"}, {"placeholder"}, {"text"}, {"name", "text"}, {"description"}, {"href"}}
	for _, names := range order {
		set := pick(t, names)
		if set == nil {
			continue
		}
		if ctor == "text" && names[0] != "id" && picks(s, "element", set, -1, idx) {
			// "text" is the role of an element that declares none (a div
			// with a click handler): not a claim worth making when its
			// words alone pick it, since another layout of the page draws
			// the same control as a <button>.
			return &targetDesc{Ctor: "element", Attrs: set, Unique: true}
		}
		attrs := append(append([]describedAttr(nil), base...), set...)
		if picks(s, ctor, attrs, -1, idx) {
			if names[0] == "id" && t.Name != "" {
				attrs = append(append([]describedAttr(nil), base...), describedAttr{"name", t.Name}, describedAttr{"id", t.ID})
			}
			return &targetDesc{Ctor: ctor, Attrs: attrs, Unique: true}
		}
	}
	// Not unique on its own: within its list item, list or table.
	if c := container(s, idx); c >= 0 {
		within := withinDesc(tr, s, c, snapID)
		for _, names := range order {
			set := pick(t, names)
			if set == nil {
				continue
			}
			attrs := append(append([]describedAttr(nil), base...), set...)
			if picks(s, ctor, attrs, c, idx) {
				return &targetDesc{Ctor: ctor, Attrs: attrs, Within: within, Unique: within.Unique}
			}
		}
	}
	if t.Path != "" {
		attrs := append(append([]describedAttr(nil), base...), describedAttr{"path", t.Path})
		return &targetDesc{Ctor: ctor, Attrs: attrs, Unique: picks(s, ctor, attrs, -1, idx)}
	}
	d := &targetDesc{Ctor: ctor, Attrs: base}
	if len(cands) > 0 {
		d.Attrs = append(d.Attrs, cands[0]...)
	}
	return d
}

func pick(t *trace.Target, names []string) []describedAttr {
	var set []describedAttr
	for _, n := range names {
		v := t.Get(n)
		if v == "" || (n == "id" && generatedID(v)) {
			return nil
		}
		set = append(set, describedAttr{n, v})
	}
	return set
}

// container returns the index of the nearest ancestor of element i that is
// a list item, a list, a table row or a table, or -1.
func container(s *trace.Snapshot, i int) int {
	for k, n := s.Elements[i].Parent, 0; k >= 0 && k < len(s.Elements) && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
		e := &s.Elements[k]
		if e.List != nil || e.Role == "list" || e.Role == "table" || e.Role == "row" || e.Role == "listitem" {
			return k
		}
	}
	return -1
}

// listDesc describes the list or table a target belongs to, or nil.
func listDesc(tr *trace.Trace, target *trace.Target, snapID string) *targetDesc {
	t, s, idx := findInSnapshot(tr, target, snapID)
	if t == nil {
		return nil
	}
	if s != nil && idx >= 0 {
		for k, n := idx, 0; k >= 0 && n <= len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
			e := &s.Elements[k]
			ref := ""
			if e.List != nil {
				ref = e.List.Container
			} else if e.Cell != nil {
				ref = e.Cell.Table
			}
			if ref != "" {
				return containerDesc(tr, ref, snapID)
			}
		}
	}
	if t.Context != nil {
		if h := t.Context.Headers; h != nil && h.Table != "" {
			return &targetDesc{Ctor: "table", Attrs: []describedAttr{{"path", h.Table}}}
		}
		if l := t.Context.List; l != nil && l.Container != "" {
			return &targetDesc{Ctor: "list", Attrs: []describedAttr{{"path", l.Container}}}
		}
	}
	return nil
}

// identName makes a workflow name from a label: "Search" → search,
// "E-mail address" → e_mail_address.
func identName(s string) string {
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(s) {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			if us && b.Len() > 0 {
				b.WriteByte('_')
			}
			us = false
			b.WriteRune(r)
		} else {
			us = true
		}
		if b.Len() >= 30 {
			break
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if out == "" || unicode.IsDigit(rune(out[0])) {
		out = "v_" + out
	}
	return out
}

// labelOf is the human label of a field: its label, context label, name,
// placeholder, id.
func labelOf(t *trace.Target) string {
	if t == nil {
		return ""
	}
	for _, v := range []string{t.Label, t.Name, t.Placeholder} {
		if v != "" {
			return v
		}
	}
	if t.Context != nil && t.Context.Label != "" {
		return t.Context.Label
	}
	if t.Context != nil && t.Context.Headers != nil && t.Context.Headers.Column != "" {
		return t.Context.Headers.Column
	}
	return t.ID
}

// withSelectors keeps a target's exact selectors (an imported recording's
// css, xpath and frame) next to its descriptive attributes, so that a
// target given only by selectors never compiles to a bare element().
func withSelectors(d *targetDesc, t *trace.Target) *targetDesc {
	if t == nil || d == nil {
		return d
	}
	if t.CSS != "" || t.XPath != "" {
		// A selector says where the element is more exactly than the
		// recorder's path, which is only a last resort: keeping both would
		// demand that two structural guesses hold at once.
		kept := d.Attrs[:0:0]
		for _, a := range d.Attrs {
			if a.Name != "path" {
				kept = append(kept, a)
			}
		}
		d.Attrs = kept
	}
	if t.CSS != "" {
		d.Attrs = append(d.Attrs, describedAttr{"css", t.CSS})
	}
	if t.XPath != "" {
		d.Attrs = append(d.Attrs, describedAttr{"xpath", t.XPath})
	}
	if len(t.Frame) > 0 {
		d.Frame = append([]int{}, t.Frame...)
	}
	return d
}
