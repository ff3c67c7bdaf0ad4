package runtime

import (
	"context"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
)

// All lists the visible elements a description matches, in the screen's
// order, for all(): "the 3rd checkbox" is nth(all(checkbox(within: …)), 3).
// Each is found again by its place among the matches, as items() finds an
// item, so a page that changed under the list fails rather than acting on
// another element.
func (n navigator) All(h any) ([]any, error) {
	e, err := n.elem(h)
	if err != nil {
		return nil, err
	}
	if e.Desc == nil {
		return nil, fmt.Errorf("all: %s is one element, not a description", e.Origin)
	}
	found, err := n.in.matching(n.ctx, e.Desc)
	if err != nil {
		return nil, fmt.Errorf("all(%s): %w", e.Origin, err)
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("all: no visible element matches %s", e.Desc)
	}
	out := make([]any, len(found))
	for i := range found {
		m := &Elem{Origin: fmt.Sprintf("all(%s)[%d]", e.Origin, i), Live: found[i]}
		m.derive = func(ctx context.Context, in *Interp) (*driver.Element, error) {
			now, err := in.matching(ctx, e.Desc)
			if err != nil {
				return nil, err
			}
			if was := m.Live; was != nil && (i >= len(now) || !sameElement(was, now[i])) {
				if el := refind(now, was); el != nil {
					return el, nil
				}
			}
			if i >= len(now) {
				return nil, fmt.Errorf("there are only %d now", len(now))
			}
			return now[i], nil
		}
		out[i] = m
	}
	return out, nil
}

// matching lists the visible elements of the current observation that
// satisfy every attribute of l, in the tree's (document) order. What a
// person cannot see is not counted: "the 2nd checkbox" counts the shown
// ones.
func (in *Interp) matching(ctx context.Context, l *Locator) ([]*driver.Element, error) {
	if !describesSomething(l) {
		return nil, fmt.Errorf("the description gives no attribute to look for")
	}
	if query(l).Hard() {
		return nil, fmt.Errorf("css and xpath descriptions cannot be enumerated; describe the elements by role, class or within")
	}
	tree, err := in.observe(ctx)
	if err != nil {
		return nil, err
	}
	cands := tree.Elements
	if l.Within != nil {
		w, err := in.anchorElement(ctx, l.Within)
		if err != nil {
			return nil, err
		}
		cands = descendants(tree, w.Ref)
	}
	m := l.matcher()
	var out []*driver.Element
	for _, el := range cands {
		if !el.Visible {
			continue
		}
		c := candidateOf(el)
		if _, why := m.Judge(&c, false); why == "" {
			out = append(out, el)
		}
	}
	return out, nil
}
