package discover

import (
	"context"
	"fmt"
	"net/url"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/explore"
)

// guard is a driver that keeps a skill's validation run to what its
// effect allows. A mutating skill acts only on the target named safe (when
// safe is set): an open of an address it does not accept fails, and so
// does any other action on a page outside it (a link may have led there);
// the start being safe says nothing about where the skill's own open
// steps, or its clicks, lead. A skill said read_only may not act on an
// element whose words say its action cannot be undone (Submit, Send,
// Delete): the effect is the model's word, and a read-only skill runs on
// any target.
type guard struct {
	driver.Driver
	safe     func(url string) bool // nil: any page
	readOnly bool
	words    []string // the knowledge base's irreversible words
}

// guarded wraps d in g, keeping the optional interfaces d has, which the
// interpreter looks for.
func guarded(d driver.Driver, g guard) driver.Driver {
	g.Driver = d
	f, finds := d.(driver.Finder)
	r, reads := d.(driver.ScreenReader)
	switch {
	case finds && reads:
		return struct {
			guard
			driver.Finder
			driver.ScreenReader
		}{g, f, r}
	case finds:
		return struct {
			guard
			driver.Finder
		}{g, f}
	case reads:
		return struct {
			guard
			driver.ScreenReader
		}{g, r}
	}
	return g
}

func (g guard) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	if g.readOnly {
		for _, e := range append([]*driver.Element{a.Target, a.Target2}, a.Targets...) {
			if e == nil {
				continue
			}
			if why := explore.Irreversible(e, g.words...); why != "" {
				return driver.Result{}, fmt.Errorf("a skill said %s may not %s %s (%s): a skill that changes data is %s", ReadOnly, a.Op, elementLine(e), why, Mutating)
			}
		}
	}
	if g.safe == nil {
		return g.Driver.Do(ctx, a)
	}
	if a.Op == action.Open {
		to := a.Text
		if u, err := url.Parse(to); err != nil || !u.IsAbs() {
			// A relative address: where it leads depends on the page.
			t, err := g.Driver.Observe(ctx)
			if err != nil {
				return driver.Result{}, err
			}
			to = resolve(t.URL, a.Text)
		}
		if !g.safe(to) {
			return driver.Result{}, fmt.Errorf("a mutating skill may not open %s: it is not under a target named safe (--safe URL)", to)
		}
		return g.Driver.Do(ctx, a)
	}
	t, err := g.Driver.Observe(ctx)
	if err != nil {
		return driver.Result{}, err
	}
	if !g.safe(t.URL) {
		return driver.Result{}, fmt.Errorf("a mutating skill may not %s on %s: the page is not under a target named safe (--safe URL)", a.Op, t.URL)
	}
	return g.Driver.Do(ctx, a)
}

// resolve is ref read on the page at base; ref itself when either does
// not parse.
func resolve(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}
