package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/match"
)

// Anchoring: finding the live element a description means, by the one
// matching model of runtime/match (shared with the compiler). An unclear
// choice is an error that lists the candidates — cogflow never acts on a
// guess.

// Candidate is a live element with its anchoring score in [0, 1]. For a
// candidate that contradicts the description, Why says which attribute
// it fails, and Score is the share of the description it does satisfy.
type Candidate struct {
	El    *driver.Element
	Score float64
	Why   string
}

// Choose anchors a locator among candidates exactly as a running workflow
// does: the clear winner, or an *AnchorError. Drivers' tests use it to
// show that their normalized trees anchor the way recordings expect;
// candidates are a whole observation's elements, in order, which is also
// the screen that tells twins apart.
func Choose(l *Locator, candidates []*driver.Element) (*driver.Element, error) {
	el, _, err := choose(l, candidates, func() []*driver.Element { return candidates }, nil)
	return el, err
}

// choose picks the clear winner among the candidates that satisfy every
// attribute of l, and the outcome (which says whether a tie was settled).
// screen gives the whole observation for telling twins apart, nil when
// there is none; irreversible are the knowledge base's words.
func choose(l *Locator, candidates []*driver.Element, screen func() []*driver.Element, irreversible []string) (*driver.Element, match.Outcome, error) {
	out := chooseAmong(l.matcher().SetIrreversible(irreversible), candidates, aroundIn(candidates, screen))
	if out.Winner >= 0 {
		return candidates[out.Winner], out, nil
	}
	e := &AnchorError{Locator: l.String(), Empty: out.Empty, Ambiguous: out.Ambiguous, Why: out.Why}
	for _, c := range out.Candidates {
		e.Candidates = append(e.Candidates, Candidate{El: candidates[c.Index], Score: c.Score, Why: c.Why})
	}
	return nil, out, e
}

// aroundIn says what surrounds candidate i on the screen: the candidate
// is found there by its Ref (a driver searching in place returns only
// likely candidates, not the text around them), and a candidate not
// found cannot be compared, which leaves twins unsettled.
func aroundIn(candidates []*driver.Element, screen func() []*driver.Element) func(i int) (match.Around, bool) {
	if screen == nil {
		return nil
	}
	return func(i int) (match.Around, bool) {
		els := screen()
		el := candidates[i]
		at := -1
		for j, e := range els {
			if e == el || (e.Ref != "" && e.Ref == el.Ref) {
				at = j
				break
			}
		}
		if at < 0 || !whole(els, at) {
			return match.Around{}, false
		}
		var a match.Around
		if el.Cell != nil {
			a.RowHeader = el.Cell.RowHeader
		}
		a.Before = match.Before(at, len(els), func(j int) match.Node {
			return match.Node{Parent: els[j].Parent, Role: els[j].Role, Text: els[j].Text}
		})
		return a, true
	}
}

// chooseAmong is match.Matcher.Choose on live elements, its loops written
// out so that the one candidate they fill stays on the stack: anchoring's
// hot path copies each element's attributes once and allocates nothing.
func chooseAmong(m *match.Matcher, candidates []*driver.Element, around func(i int) (match.Around, bool)) match.Outcome {
	if !m.Describes() {
		return match.Outcome{Winner: -1, Empty: true}
	}
	var c match.Candidate
	var ranked []match.Scored
	for i, el := range candidates {
		if !m.RoleAgrees(el.Role) {
			continue // what Judge would say first, before the copy
		}
		c.Attrs, c.Position = el.Attributes(), position(el)
		if s, why := m.Judge(&c, false); why == "" {
			ranked = append(ranked, match.Scored{Index: i, Score: s})
		}
	}
	if len(ranked) > 0 {
		return m.Settle(ranked, func(i int, c *match.Candidate) {
			c.Attrs, c.Position = candidates[i].Attributes(), position(candidates[i])
		}, around)
	}
	var missed []match.Scored
	for i, el := range candidates {
		c.Attrs, c.Position = el.Attributes(), position(el)
		if s, why := m.Judge(&c, true); s > 0 {
			missed = append(missed, match.Scored{Index: i, Score: s, Why: why})
		}
	}
	return match.Missed(missed)
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

// anchorElement finds the live element an Elem stands for now.
func (in *Interp) anchorElement(ctx context.Context, e *Elem) (*driver.Element, error) {
	if e.derive != nil {
		el, err := e.derive(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Origin, err)
		}
		if e.Live != nil && !sameElement(e.Live, el) {
			return nil, &DriftError{Origin: e.Origin, Was: e.Live, Now: el}
		}
		e.Live = el
		return el, nil
	}
	l := e.Desc
	q := query(l)
	var scope *driver.Element
	if l.Within != nil {
		w, err := in.anchorElement(ctx, l.Within)
		if err != nil {
			return nil, err
		}
		scope = w
		q.Within = w.Ref
	}
	if q.Hard() {
		return in.anchorBySelector(ctx, e, q, scope)
	}
	candidates, err := in.candidates(ctx, q, scope)
	if err != nil {
		return nil, err
	}
	el, out, err := choose(l, candidates, in.screen(ctx), in.opts.IrreversibleWords)
	if err != nil {
		return nil, err
	}
	in.noteTie(out)
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

// whole reports whether the screen holds element at with its ancestors,
// as a whole observation does: each parent index in range, its path
// leading to its child's. Elements picked out of a larger tree (within:)
// keep that tree's parent indexes, and reading them here would read the
// wrong text before.
func whole(els []*driver.Element, at int) bool {
	for c, hops := at, 0; els[c].Parent >= 0; c, hops = els[c].Parent, hops+1 {
		p := els[c].Parent
		if p >= len(els) || hops > len(els) || !strings.HasPrefix(els[c].Path, els[p].Path) {
			return false
		}
	}
	return true
}
