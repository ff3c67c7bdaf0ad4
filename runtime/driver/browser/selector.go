package browser

import (
	"context"
	_ "embed"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
)

//go:embed selector.js
var selectorJS string

// selectResult is selector.js's answer: the matching elements, or the
// cross-origin frame the frame path goes on in.
type selectResult struct {
	walkResult
	Cross string  `json:"cross"`
	Rest  []int   `json:"rest"`
	X     float64 `json:"x"`
	Y     float64 `json:"y"`
}

// findSelected is Find for a query with hard constraints: exactly the
// elements that satisfy css, xpath and frame. With a frame path, the search
// is in that frame's document alone, following the path through
// cross-origin and out-of-process frames; without one, it covers the page,
// its same-origin frames and its cross-origin frames.
func (d *Driver) findSelected(ctx context.Context, t *tab, q driver.Query) ([]*driver.Element, error) {
	o := op{"op": "selectorFind", "css": q.CSS, "xpath": q.XPath}
	var out []*driver.Element
	if q.Frame == nil {
		if _, _, err := d.collect(ctx, t, "", o, 0, 0, -1, "", &out, 0); err != nil {
			return nil, fmt.Errorf("browser: find: %w", err)
		}
		return out, nil
	}
	realm, fp := "", append([]int{}, q.Frame...)
	var dx, dy float64
	for hop := 0; hop <= maxFrameDepth+len(q.Frame); hop++ {
		o["fp"] = fp
		var res selectResult
		if err := t.run(ctx, realm, []op{o}, &res); err != nil {
			return nil, fmt.Errorf("browser: find in frame %v: %w", q.Frame, err)
		}
		if res.Cross == "" {
			for i := range res.Els {
				out = append(out, res.Els[i].element(realm, dx, dy, 0, -1, ""))
			}
			return out, nil
		}
		realm, fp = prefixRef(realm, res.Cross), res.Rest
		if fp == nil {
			fp = []int{}
		}
		dx, dy = dx+res.X, dy+res.Y
	}
	return nil, fmt.Errorf("browser: find: frame %v is nested too deep", q.Frame)
}
