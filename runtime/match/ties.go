package match

import (
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Ties the screen itself settles. Decide calls two candidates that score
// about equally well an ambiguity, and the run stops there. Three kinds
// of tie are no real choice, because what the description asks and what
// the screen shows single out one candidate, or make the candidates one
// control; Settle decides them, and leaves every other tie an ambiguity:
//
//   - case: the description writes "Next" and the screen shows "Next"
//     and "next". Names and texts are compared without case, but the one
//     written exactly as the screen writes it is the one meant;
//   - nesting: every tied candidate lies inside the next (a button and the
//     row of the form that holds only it, both reading "Search"; a button
//     and its own label). The one control among them is meant; when none
//     of them is a control, the innermost, since a click on it is a click
//     on all of them;
//   - twins: the page shows the same control more than once side by side:
//     the same role and the same attributes (name, text, id, class, value,
//     …), children of the same parent, all of them shown. Nothing on the
//     screen tells them apart, for a person either, so the first in the
//     page's order is taken. Two "Delete" buttons in two rows or list
//     items are not twins (each is inside its own row or item, which tells
//     them apart: within:), nor are two buttons with different ids or
//     classes. Siblings a driver reports as the items of one list (a row
//     of buttons) are twins when they are alike in everything else.
//     Twins are never settled when a guess could do harm or be wrong:
//     when their action cannot be undone (their words, or the knowledge
//     base's, say delete, send, pay …: Irreversible), or when what
//     surrounds them differs (their descriptions, the nearest text before
//     each, their rows' headers: Around), which tells them apart for a
//     person though not for the description. Those stay ambiguities, and
//     the Outcome says why (Why).

// tieAt is a tied candidate: its index among those given and its
// attributes.
type tieAt struct {
	index int
	c     Candidate
}

// Around is what surrounds an element, by which a person tells two
// otherwise identical controls apart: the nearest text before it (Before)
// and its row's header.
type Around struct{ Before, RowHeader string }

// Settle returns the outcome of Decide on ranked, with a tie among the
// best candidates settled by the rules above when one applies. at fills
// c with candidate i, as for Choose. around says what surrounds candidate
// i, false when the caller cannot tell; nil: never, so twins are never
// settled. ranked must not be empty.
func (m *Matcher) Settle(ranked []Scored, at func(i int, c *Candidate), around func(i int) (Around, bool)) Outcome {
	out := Decide(ranked) // sorts ranked, best first
	if !out.Ambiguous {
		return out
	}
	var tied []tieAt
	for _, r := range ranked {
		if ranked[0].Score-r.Score >= minMargin {
			break
		}
		t := tieAt{index: r.Index}
		at(r.Index, &t.c)
		tied = append(tied, t)
	}
	n := len(tied)
	if exact := m.exactCase(tied); len(exact) > 0 {
		tied = exact
	}
	if len(tied) == 1 {
		return Outcome{Winner: tied[0].index, Settled: "case", Tied: n}
	}
	if w := innermost(tied); w >= 0 {
		return Outcome{Winner: w, Settled: "nesting", Tied: n}
	}
	w, why := m.twins(tied, around)
	if w >= 0 {
		return Outcome{Winner: w, Settled: "twins", Tied: n}
	}
	out.Why = why
	return out
}

// SetIrreversible adds a project's irreversible words (its knowledge
// base's) to the built-in ones the twins rule refuses to guess on; it
// returns m.
func (m *Matcher) SetIrreversible(words []string) *Matcher {
	m.irreversible = words
	return m
}

// exactCase keeps the tied candidates whose names and texts read exactly
// as the description writes them, case included (spaces collapsed); nil
// when the description writes neither or no candidate does.
func (m *Matcher) exactCase(tied []tieAt) []tieAt {
	var out []tieAt
	for _, t := range tied {
		ok, compared := true, false
		for _, w := range m.ws {
			if w.key != "name" && w.key != "text" && w.key != "label" {
				continue
			}
			compared = true
			if spaced(t.c.Attrs.Get(w.key)) != spaced(w.raw) {
				ok = false
				break
			}
		}
		if !compared {
			return nil
		}
		if ok {
			out = append(out, t)
		}
	}
	return out
}

// spaced collapses runs of spaces, keeping case.
func spaced(s string) string { return strings.Join(strings.Fields(s), " ") }

// innermost returns, when each tied candidate lies inside the one below
// it by path, the one control among them, or the deepest when none is a
// control; -1 otherwise.
func innermost(tied []tieAt) int {
	deep := 0
	for k := range tied {
		if len(tied[k].c.Attrs.Path) > len(tied[deep].c.Attrs.Path) {
			deep = k
		}
	}
	inner := tied[deep].c.Attrs.Path
	if inner == "" {
		return -1
	}
	control := -1
	for k, t := range tied {
		if controlRoles[t.c.Attrs.Role] {
			if control >= 0 {
				return -1 // a control inside a control: which one is a choice
			}
			control = t.index
		}
		if k == deep {
			continue
		}
		p := t.c.Attrs.Path
		if p == "" || p == inner || !strings.HasPrefix(inner, p+"/") {
			return -1
		}
	}
	if control >= 0 {
		return control
	}
	return tied[deep].index
}

// controlRoles are the roles of the things a person acts on.
var controlRoles = map[string]bool{
	"button": true, "link": true, "textbox": true, "checkbox": true, "radio": true, "combobox": true,
	"menuitem": true, "option": true, "tab": true, "slider": true, "switch": true, "treeitem": true,
}

// twins returns the first (in the page's order) of tied candidates that
// are the same control shown several times; -1 when they are not, with
// the reason when they look alike but are not settled.
func (m *Matcher) twins(tied []tieAt, around func(i int) (Around, bool)) (int, string) {
	first := tied[0]
	for _, t := range tied {
		if t.index < first.index {
			first = t
		}
	}
	for _, t := range tied {
		a, b := &t.c.Attrs, &first.c.Attrs
		if !a.Visible || a.Path == "" || parentPath(a.Path) != parentPath(b.Path) || !sameFace(a, b) {
			return -1, ""
		}
	}
	const alike = "they look alike side by side, but "
	f := &first.c.Attrs
	if why := Irreversible(strings.Join([]string{f.Name, f.Label, f.Text, f.ID, f.Description}, " "), m.irreversible...); why != "" {
		return -1, alike + "their action cannot be undone (" + why + "), so cogflow does not guess which one is meant"
	}
	for _, t := range tied {
		if t.c.Attrs.Description != f.Description {
			return -1, alike + "their descriptions differ"
		}
	}
	if around == nil {
		return -1, alike + "what surrounds them could not be compared"
	}
	var want Around
	for k, t := range tied {
		got, ok := around(t.index)
		switch {
		case !ok:
			return -1, alike + "what surrounds them could not be compared"
		case k == 0:
			want = got
		case got.RowHeader != want.RowHeader:
			return -1, alike + "their rows' headers differ"
		case got.Before != want.Before:
			return -1, alike + "the text just before each differs"
		}
	}
	return first.index, ""
}

// sameFace reports whether two elements show and carry the same things:
// everything but where they are and the context a driver describes them
// by (compared apart, to say why).
func sameFace(a, b *trace.Attributes) bool {
	return a.Role == b.Role && a.Name == b.Name && a.Text == b.Text && a.ID == b.ID && a.Class == b.Class &&
		a.Value == b.Value && a.Placeholder == b.Placeholder && a.Label == b.Label && a.Href == b.Href &&
		a.Enabled == b.Enabled && a.Checked == b.Checked
}

// parentPath is the path of an element's parent: its own without the last
// step.
func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// Node is an element of a screen, in document order (parents before
// their children), as Before reads it.
type Node struct {
	Parent     int // index of the parent, -1 for a root
	Role, Text string
}

// Before is the nearest text before element i of a screen of n elements
// that node reads: among the elements before it in document order, the
// last that is neither its ancestor nor a control or inside one (the
// twin before it must not count), its text trimmed; "" when none has
// text. It is what a person reads a row of controls by.
func Before(i, n int, node func(j int) Node) string {
	if i < 0 || i >= n {
		return ""
	}
	ancestor := map[int]bool{}
	// The hop bound guards against a parent cycle in a driver's tree.
	for p, hops := node(i).Parent, 0; p >= 0 && p < n && hops < n; p, hops = node(p).Parent, hops+1 {
		ancestor[p] = true
	}
	for j := i - 1; j >= 0; j-- {
		if ancestor[j] || inControl(j, n, node) {
			continue
		}
		if t := strings.TrimSpace(node(j).Text); t != "" {
			return t
		}
	}
	return ""
}

// inControl reports whether element j is a control or lies inside one.
func inControl(j, n int, node func(j int) Node) bool {
	for p, hops := j, 0; p >= 0 && p < n && hops <= n; p, hops = node(p).Parent, hops+1 {
		if controlRoles[node(p).Role] {
			return true
		}
	}
	return false
}
