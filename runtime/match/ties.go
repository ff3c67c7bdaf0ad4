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

// tieAt is a tied candidate: its index among those given and its
// attributes.
type tieAt struct {
	index int
	c     Candidate
}

// Settle returns the outcome of Decide on ranked, with a tie among the
// best candidates settled by the rules above when one applies. at fills
// c with candidate i, as for Choose. ranked must not be empty.
func (m *Matcher) Settle(ranked []Scored, at func(i int, c *Candidate)) Outcome {
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
	if exact := m.exactCase(tied); len(exact) > 0 {
		tied = exact
	}
	if len(tied) == 1 {
		return Outcome{Winner: tied[0].index}
	}
	if w := innermost(tied); w >= 0 {
		return Outcome{Winner: w}
	}
	if w := twins(tied); w >= 0 {
		return Outcome{Winner: w}
	}
	return out
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
// are the same control shown several times, -1 when they are not.
func twins(tied []tieAt) int {
	first := tied[0]
	for _, t := range tied {
		if t.index < first.index {
			first = t
		}
	}
	for _, t := range tied {
		a, b := &t.c.Attrs, &first.c.Attrs
		if !a.Visible || a.Path == "" || parentPath(a.Path) != parentPath(b.Path) || !sameFace(a, b) {
			return -1
		}
	}
	return first.index
}

// sameFace reports whether two elements show and carry the same things:
// everything but where they are.
func sameFace(a, b *trace.Attributes) bool {
	return a.Role == b.Role && a.Name == b.Name && a.Text == b.Text && a.ID == b.ID && a.Class == b.Class &&
		a.Value == b.Value && a.Placeholder == b.Placeholder && a.Label == b.Label && a.Href == b.Href &&
		a.Description == b.Description && a.Enabled == b.Enabled && a.Checked == b.Checked
}

// parentPath is the path of an element's parent: its own without the last
// step.
func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
