package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/match"
)

// Selector attributes (css:, xpath:, frame:) are hard constraints: the
// driver returns exactly the elements that satisfy them, and anchoring
// only chooses among those. Nothing that fails them is ever a candidate,
// so a selector that matches nothing fails the step — never a fuzzy match
// on another element.

// frameAttr renders a frame: attribute ([0, 1]) as the Locator keeps it,
// "0,1"; each index must be a whole number from 0.
func frameAttr(v cty.Value) (string, error) {
	if v.IsNull() || !v.IsKnown() || !(v.Type().IsListType() || v.Type().IsTupleType()) {
		return "", fmt.Errorf("frame: must be a list of numbers, such as [0, 1]")
	}
	var parts []string
	for _, it := range v.AsValueSlice() {
		if it.Type() != cty.Number || it.IsNull() {
			return "", fmt.Errorf("frame: must be a list of numbers, such as [0, 1]")
		}
		f, _ := it.AsBigFloat().Float64()
		if f < 0 || f != math.Trunc(f) {
			return "", fmt.Errorf("frame: an index is a whole number from 0, not %v", f)
		}
		parts = append(parts, strconv.Itoa(int(f)))
	}
	return strings.Join(parts, ","), nil
}

// hardQuery copies a locator's selector attributes into a driver query.
func hardQuery(l *Locator, q *driver.Query) {
	q.CSS, q.XPath = l.Attrs["css"], l.Attrs["xpath"]
	if f, ok := l.Attrs["frame"]; ok {
		q.Frame = []int{}
		for _, p := range strings.Split(f, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
				q.Frame = append(q.Frame, n)
			}
		}
	}
}

// anchorBySelector anchors a locator with selector attributes among exactly the
// elements the driver says satisfy them.
func (in *Interp) anchorBySelector(ctx context.Context, e *Elem, q driver.Query, scope *driver.Element) (*driver.Element, error) {
	found, err := in.selected(ctx, q, scope)
	if err != nil {
		return nil, err
	}
	el, err := chooseHard(e.Desc, found)
	if err != nil {
		return nil, err
	}
	e.Live = el
	return el, nil
}

// selected asks the driver for the elements that satisfy q's hard
// constraints, inside scope when given.
func (in *Interp) selected(ctx context.Context, q driver.Query, scope *driver.Element) ([]*driver.Element, error) {
	f, ok := in.drv.(driver.Finder)
	if !ok {
		return nil, errors.New("this driver cannot evaluate css:, xpath: or frame:; describe the element by name, text or id")
	}
	found, err := f.Find(ctx, q)
	if err != nil {
		return nil, err
	}
	if scope == nil {
		return found, nil
	}
	// within: keep what lies inside the scope's bounds (the selector
	// results carry no tree positions).
	var in2 []*driver.Element
	for _, el := range found {
		b, s := el.Bounds, scope.Bounds
		if b.X >= s.X && b.Y >= s.Y && b.X+b.W <= s.X+s.W && b.Y+b.H <= s.Y+s.H {
			in2 = append(in2, el)
		}
	}
	return in2, nil
}

// chooseHard picks among the elements satisfying the selectors: with
// descriptive attributes, the clear winner by them — even a single match
// must fit its description, or the step would act on an element its
// description does not name; without, the only match, else the only
// visible one. Anything else is an error listing the candidates.
func chooseHard(l *Locator, found []*driver.Element) (*driver.Element, error) {
	if len(found) == 0 {
		return nil, &AnchorError{Locator: l.String()}
	}
	if descriptive(l) {
		// No screen: twins found by selectors stay an ambiguity.
		el, _, err := choose(withoutPlacement(l), found, nil, nil)
		return el, err
	}
	if len(found) == 1 {
		return found[0], nil
	}
	var vis []*driver.Element
	for _, el := range found {
		if el.Visible {
			vis = append(vis, el)
		}
	}
	if len(vis) == 1 {
		return vis[0], nil
	}
	top := make([]Candidate, 0, 5)
	for _, el := range found[:min(5, len(found))] {
		top = append(top, Candidate{El: el, Score: 1})
	}
	return nil, &AnchorError{Locator: l.String(), Ambiguous: true, Candidates: top}
}

// withoutPlacement leaves out the attributes that place an element in the
// whole page's walk — its path and the context around it (description) —
// which a selector search does not compute: the selector already says
// where the element is, and what it is (role, name, text, …) still has to
// hold.
func withoutPlacement(l *Locator) *Locator {
	if _, p := l.Attrs["path"]; !p {
		if _, d := l.Attrs["description"]; !d {
			return l
		}
	}
	c := *l
	c.Attrs = make(map[string]string, len(l.Attrs))
	for k, v := range l.Attrs {
		if k != "path" && k != "description" {
			c.Attrs[k] = v
		}
	}
	return &c
}

// descriptive reports whether a locator has attributes that score.
func descriptive(l *Locator) bool {
	if l.Role != "" && l.Role != "element" || l.Index >= 0 {
		return true
	}
	for k := range l.Attrs {
		if match.Compares(k) {
			return true
		}
	}
	return false
}

// namedOptions applies a step's named-only options that every action has
// (timeout:, in seconds).
func namedOptions(a *driver.Action, args map[string]cty.Value) error {
	if v, ok := args["timeout"]; ok && !v.IsNull() {
		if f, _ := v.AsBigFloat().Float64(); f <= 0 {
			return fmt.Errorf("timeout: must be a positive number of seconds, not %v", f)
		}
		d, err := seconds("timeout", v)
		if err != nil {
			return err
		}
		a.Timeout = d
	}
	x, hasX := args["x"]
	y, hasY := args["y"]
	if a.Op == action.Scroll && (hasX && !x.IsNull() || hasY && !y.IsNull()) {
		var pos [2]float64
		for i, v := range []cty.Value{x, y} {
			if v != cty.NilVal && !v.IsNull() {
				pos[i], _ = v.AsBigFloat().Float64()
			}
		}
		a.ScrollTo = pos[:]
	}
	return nil
}

// viewportText is set_viewport's size as the driver takes it, "800x600".
func viewportText(args map[string]cty.Value) string {
	num := func(k string) float64 {
		if v, ok := args[k]; ok && !v.IsNull() && v.Type() == cty.Number {
			f, _ := v.AsBigFloat().Float64()
			return f
		}
		return 0
	}
	return fmt.Sprintf("%gx%g", num("width"), num("height"))
}

// waitCounts reports whether a wait uses its counting form.
func waitCounts(args map[string]cty.Value) bool {
	for _, k := range []string{"count", "compare", "hidden"} {
		if v, ok := args[k]; ok && !v.IsNull() {
			return true
		}
	}
	return false
}

// waitCount waits until the number of elements matching the description
// compares with count: as asked (or, with hidden: true, no longer does),
// within the step's timeout (default waitLimit).
func (in *Interp) waitCount(ctx context.Context, a driver.Action, target *Elem, args map[string]cty.Value) error {
	want, cmp, hidden := 1.0, ">=", false
	if v, ok := args["count"]; ok && !v.IsNull() {
		want, _ = v.AsBigFloat().Float64()
	}
	if v, ok := args["compare"]; ok && !v.IsNull() {
		cmp = v.AsString()
	}
	if v, ok := args["hidden"]; ok && !v.IsNull() {
		hidden = v.True()
	}
	limit := waitLimit
	if a.Timeout > 0 {
		limit = a.Timeout
	}
	deadline := time.Now().Add(limit)
	for {
		n, err := in.count(ctx, target)
		if err != nil {
			return err
		}
		holds, err := compare(float64(n), cmp, want)
		if err != nil {
			return err
		}
		if holds != hidden {
			return nil
		}
		if time.Now().After(deadline) {
			not := ""
			if hidden {
				not = "no longer "
			}
			return fmt.Errorf("timed out after %v waiting until the number of %s %s%s %g (it is %d)", limit, target.Origin, not, cmp, want, n)
		}
		select {
		case <-ctx.Done():
			return ErrInterrupted
		case <-time.After(waitPoll):
		}
	}
}

// count is how many live elements an element description matches: those
// satisfying its selectors, or those scoring as a match.
func (in *Interp) count(ctx context.Context, e *Elem) (int, error) {
	in.tree = nil
	if e.Desc == nil {
		if _, err := in.anchorElement(ctx, e); err != nil {
			return 0, nil
		}
		return 1, nil
	}
	q := query(e.Desc)
	if q.Hard() {
		found, err := in.selected(ctx, q, nil)
		return len(found), err
	}
	tree, err := in.observe(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, el := range tree.Elements {
		if score(e.Desc, el) >= minScore {
			n++
		}
	}
	return n, nil
}

func compare(n float64, op string, want float64) (bool, error) {
	switch op {
	case ">=":
		return n >= want, nil
	case "==":
		return n == want, nil
	case "<=":
		return n <= want, nil
	case ">":
		return n > want, nil
	case "<":
		return n < want, nil
	}
	return false, fmt.Errorf("compare: %q is not one of >= == <= > <", op)
}
