package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// Anchoring: finding the live element a description means. Every recorded
// attribute votes with a weight; the best candidate must both match well
// and stand clearly above the next one. An unclear choice is an error that
// lists the candidates — cogflow never clicks on a guess.

// attrWeights are the votes of exact matches; a partial (substring) match
// earns half. Ids are the strongest evidence, paths the weakest: layouts
// shift, ids rarely do.
var attrWeights = map[string]float64{
	"id": 5, "name": 3, "text": 3, "label": 3, "placeholder": 2, "href": 2,
	"description": 1.5, "value": 1.5, "class": 1, "path": 1,
}

const (
	roleWeight = 2.0
	// minScore is the share of the possible score a winner needs.
	minScore = 0.5
	// minMargin is how far (as a share of the possible score) the winner
	// must stand above the runner-up.
	minMargin = 0.15
)

// Candidate is a live element with its anchoring score in [0, 1].
type Candidate struct {
	El    *driver.Element
	Score float64
}

// AnchorError says why no element could be chosen, with the best
// candidates so a person can fix the description.
type AnchorError struct {
	Locator    string
	Ambiguous  bool
	Candidates []Candidate
}

func (e *AnchorError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "%s is ambiguous: several elements match about equally well", e.Locator)
	} else {
		fmt.Fprintf(&b, "no element matches %s", e.Locator)
	}
	if len(e.Candidates) == 0 {
		b.WriteString(" (the page has no candidate at all)")
	}
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "\n  %3.0f%%  %s", c.Score*100, describe(c.El))
	}
	if e.Ambiguous {
		b.WriteString("\n  add an attribute that tells them apart: id, text, index, or within: the list, row or dialog it is in")
	}
	return b.String()
}

// score rates how well el matches l, in [0, 1].
func score(l *Locator, el *driver.Element) float64 {
	var got, total float64
	roleMismatch := false
	if l.Role != "" && l.Role != "element" {
		total += roleWeight
		if strings.EqualFold(el.Role, l.Role) {
			got += roleWeight
		} else {
			roleMismatch = true
		}
	}
	for k, want := range l.Attrs {
		w, ok := attrWeights[k]
		if !ok {
			continue
		}
		total += w
		got += w * similarity(attrOf(el, k), want)
	}
	if l.Index >= 0 {
		total++
		if el.List != nil && el.List.Index == l.Index {
			got++
		}
	}
	if total == 0 {
		return 0
	}
	s := got / total
	if roleMismatch {
		s *= 0.5 // a link is not a button, however alike their names
	}
	if !el.Visible {
		s *= 0.5 // what a person cannot see is a poor guess
	}
	return s
}

// similarity is 1 for an exact (case- and space-insensitive) match, 0.5
// when one contains the other, 0 otherwise.
func similarity(have, want string) float64 {
	h, w := normalize(have), normalize(want)
	switch {
	case h == "" || w == "":
		return 0
	case h == w:
		return 1
	case strings.Contains(h, w) || strings.Contains(w, h):
		return 0.5
	}
	return 0
}

func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func attrOf(el *driver.Element, k string) string {
	switch k {
	case "id":
		return el.ID
	case "name":
		return el.Name
	case "text":
		return el.Text
	case "label":
		return el.Label
	case "placeholder":
		return el.Placeholder
	case "href":
		return el.Href
	case "description":
		return el.Description
	case "value":
		return el.Value
	case "class":
		return el.Class
	case "path":
		return el.Path
	case "role":
		return el.Role
	}
	return ""
}

// Choose anchors a locator among candidates exactly as a running workflow
// does: the clear winner, or an *AnchorError. Drivers' tests use it to
// show that their normalized trees anchor the way recordings expect.
func Choose(l *Locator, candidates []*driver.Element) (*driver.Element, error) {
	return choose(l, candidates)
}

// choose picks the clear winner among candidates.
func choose(l *Locator, candidates []*driver.Element) (*driver.Element, error) {
	ranked := make([]Candidate, 0, len(candidates))
	for _, el := range candidates {
		if s := score(l, el); s > 0 {
			ranked = append(ranked, Candidate{El: el, Score: s})
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].Score > ranked[j].Score })
	top := ranked[:min(len(ranked), 5)]
	switch {
	case len(ranked) == 0 || ranked[0].Score < minScore:
		return nil, &AnchorError{Locator: l.String(), Candidates: top}
	case len(ranked) > 1 && ranked[0].Score-ranked[1].Score < minMargin:
		return nil, &AnchorError{Locator: l.String(), Ambiguous: true, Candidates: top}
	}
	return ranked[0].El, nil
}

// query turns a locator into a driver query for drivers that can search in
// place.
func query(l *Locator) driver.Query {
	q := driver.Query{
		Role: l.Role, Name: l.Attrs["name"], Text: l.Attrs["text"], ID: l.Attrs["id"],
		Class: l.Attrs["class"], Placeholder: l.Attrs["placeholder"], Label: l.Attrs["label"], Href: l.Attrs["href"],
	}
	hardQuery(l, &q)
	return q
}

// resolve finds the live element an Elem stands for now.
func (in *Interp) resolve(ctx context.Context, e *Elem) (*driver.Element, error) {
	if e.derive != nil {
		el, err := e.derive(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Origin, err)
		}
		e.Live = el
		return el, nil
	}
	l := e.Desc
	q := query(l)
	var scope *driver.Element
	if l.Within != nil {
		w, err := in.resolve(ctx, l.Within)
		if err != nil {
			return nil, err
		}
		scope = w
		q.Within = w.Ref
	}
	if q.Hard() {
		return in.resolveHard(ctx, e, q, scope)
	}
	candidates, err := in.candidates(ctx, q, scope)
	if err != nil {
		return nil, err
	}
	el, err := choose(l, candidates)
	if err != nil {
		return nil, err
	}
	e.Live = el
	return el, nil
}

// candidates asks the driver for elements, in place when it can. A search
// in place looks at likely candidates only (interactive elements, or
// those sharing an attribute); when it finds none, the whole observation
// decides — a plain text span within a list item is a fine target too.
func (in *Interp) candidates(ctx context.Context, q driver.Query, scope *driver.Element) ([]*driver.Element, error) {
	if f, ok := in.drv.(driver.Finder); ok {
		found, err := f.Find(ctx, q)
		if err != nil || len(found) > 0 {
			return found, err
		}
	}
	tree, err := in.observe(ctx)
	if err != nil {
		return nil, err
	}
	if scope == nil {
		return tree.Elements, nil
	}
	return descendants(tree, scope.Ref), nil
}

// descendants lists the elements under the element with the given Ref.
func descendants(t *driver.Tree, ref string) []*driver.Element {
	root := -1
	for i, e := range t.Elements {
		if e.Ref == ref {
			root = i
			break
		}
	}
	if root < 0 {
		return nil
	}
	var out []*driver.Element
	for _, e := range t.Elements {
		// The hop bound guards against a driver reporting a parent cycle.
		for p, hops := e.Parent, 0; p >= 0 && p < len(t.Elements) && hops < len(t.Elements); p, hops = t.Elements[p].Parent, hops+1 {
			if p == root {
				out = append(out, e)
				break
			}
		}
	}
	return out
}
