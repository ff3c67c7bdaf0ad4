package runtime

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Anchoring: finding the live element a description means. Every
// attribute the description gives must hold for the element (match.go has
// the rule of each); among the candidates that satisfy all of them the
// best must stand clearly above the next one. An unclear choice is an
// error that lists the candidates — cogflow never acts on a guess.

const (
	roleWeight  = 2.0
	indexWeight = 1.0
	// minMargin is how far (as a share of the possible score) the winner
	// must stand above the runner-up; less is an ambiguity.
	minMargin = 0.15
	// hiddenShare is what an invisible candidate keeps of its score: what
	// a person cannot see ranks below what they can.
	hiddenShare = 0.5
	// listed is how many candidates an error shows.
	listed = 5
)

// Candidate is a live element with its anchoring score in [0, 1]. For a
// candidate that contradicts the description, Why says which attribute
// it fails, and Score is the share of the description it does satisfy.
type Candidate struct {
	El    *driver.Element
	Score float64
	Why   string
}

// AnchorError says why no element could be chosen, with the best
// candidates so a person can fix the description.
type AnchorError struct {
	Locator   string
	Ambiguous bool
	// Candidates are the tied elements of an ambiguity, or the near misses
	// of a failed match, best first.
	Candidates []Candidate
	// Empty says the description gives nothing to match (element()).
	Empty bool
}

func (e *AnchorError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "%s is ambiguous: several elements match about equally well", e.Locator)
	} else {
		fmt.Fprintf(&b, "no element matches %s", e.Locator)
	}
	switch {
	case e.Empty:
		b.WriteString(": the description gives no attribute to look for")
	case len(e.Candidates) == 0:
		b.WriteString(" (no element on the screen comes close)")
	case !e.Ambiguous:
		b.WriteString("; the nearest elements, each failing an attribute the description gives:")
	}
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "\n  %3.0f%%  %s", c.Score*100, describe(c.El))
		if c.Why != "" {
			fmt.Fprintf(&b, " — %s", c.Why)
		}
	}
	if e.Ambiguous {
		b.WriteString("\n  add an attribute that tells them apart: id, text, index, or within: the list, row or dialog it is in")
	}
	return b.String()
}

// judge rates el against the locator whose attributes are ws. A candidate
// that satisfies every attribute gets a score in (0, 1] and no reason. One
// that contradicts an attribute gets a reason: with explain, which
// attribute it fails, and as its score the share of the description it
// satisfies (for ordering near misses in a message); without, a bare
// marker and no score — the hot path stops at the first contradiction.
func judge(l *Locator, ws []want, el *driver.Element, explain bool) (float64, string) {
	var got, total float64
	why := ""
	fail := func(reason func() string) bool {
		if why == "" {
			why = notMatching
			if explain {
				why = reason()
			}
		}
		return !explain
	}
	if l.Role != "" && l.Role != "element" {
		total += roleWeight
		if roleAgrees(l, el) {
			got += roleWeight
		} else if fail(func() string { return fmt.Sprintf("it is a %s, not a %s", roleName(el.Role), l.Role) }) {
			return 0, why
		}
	}
	var attrs trace.Attributes
	if len(ws) > 0 {
		attrs = el.Attributes() // once per candidate: the wants read it
	}
	for _, w := range ws {
		total += w.weight
		switch w.agree(&attrs) {
		case equals:
			got += w.weight
		case contains:
			got += w.weight * containsShare
		default:
			if fail(func() string { return w.mismatch(&attrs) }) {
				return 0, why
			}
			// A value that shares the words asked for is the likelier slip.
			got += w.weight * w.likeness(&attrs) / 2
		}
	}
	if l.Index >= 0 {
		total += indexWeight
		if p := position(el); p == l.Index {
			got += indexWeight
		} else if fail(func() string {
			if p < 0 {
				return "it has no index"
			}
			return fmt.Sprintf("its index is %d", p)
		}) {
			return 0, why
		}
	}
	s := 1.0
	if total > 0 {
		// Otherwise the description gives only what the driver filtered
		// on already (css, xpath): every candidate satisfies it.
		s = got / total
	}
	if !el.Visible {
		s *= hiddenShare
	}
	return s, why
}

// score rates how well el matches l, in [0, 1]: 0 when it contradicts
// an attribute, at least minScore when it satisfies them all.
func score(l *Locator, el *driver.Element) float64 {
	if !describesSomething(l) {
		return 0
	}
	s, why := judge(l, wants(l), el, false)
	if why != "" {
		return 0
	}
	return s
}

// minScore is the least score of an element that satisfies its
// description: any satisfying element scores above 0.
const minScore = 1e-9

// notMatching marks a contradiction found without explaining it.
const notMatching = "does not match"

func roleName(r string) string {
	if r == "" {
		return "generic element"
	}
	return r
}

// describesSomething reports whether a locator says anything at all about
// its element; element() does not, and anchoring it would pick anything.
func describesSomething(l *Locator) bool {
	return (l.Role != "" && l.Role != "element") || len(l.Attrs) > 0 || l.Index >= 0
}

// normalize folds case and collapses spaces: how names are compared.
func normalize(s string) string {
	if normalized(s) {
		return s // most names are: no allocation
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// Choose anchors a locator among candidates exactly as a running workflow
// does: the clear winner, or an *AnchorError. Drivers' tests use it to
// show that their normalized trees anchor the way recordings expect.
func Choose(l *Locator, candidates []*driver.Element) (*driver.Element, error) {
	return choose(l, candidates)
}

// choose picks the clear winner among the candidates that satisfy every
// attribute of l.
func choose(l *Locator, candidates []*driver.Element) (*driver.Element, error) {
	if !describesSomething(l) {
		return nil, &AnchorError{Locator: l.String(), Empty: true}
	}
	ws := wants(l)
	var ranked []Candidate
	for _, el := range candidates {
		if s, why := judge(l, ws, el, false); why == "" {
			ranked = append(ranked, Candidate{El: el, Score: s})
		}
	}
	if len(ranked) == 0 {
		// The failure path only: say what each near miss fails.
		var missed []Candidate
		for _, el := range candidates {
			if s, why := judge(l, ws, el, true); s > 0 {
				missed = append(missed, Candidate{El: el, Score: s, Why: why})
			}
		}
		return nil, &AnchorError{Locator: l.String(), Candidates: best(missed)}
	}
	if len(ranked) > 1 {
		sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].Score > ranked[j].Score })
		if ranked[0].Score-ranked[1].Score < minMargin {
			return nil, &AnchorError{Locator: l.String(), Ambiguous: true, Candidates: best(ranked)}
		}
	}
	return ranked[0].El, nil
}

// best keeps the highest-scoring candidates for a message.
func best(cs []Candidate) []Candidate {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Score > cs[j].Score })
	return cs[:min(len(cs), listed)]
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
