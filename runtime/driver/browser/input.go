package browser

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// spec is how the page finds a target: its ref, and the attributes to
// find it again by when the node was replaced.
func spec(e *driver.Element) (realm string, o op) {
	realm, ref := splitRef(e.Ref)
	o = op{"r": ref, "i": e.ID, "ro": e.Role, "n": e.Name, "t": e.Text, "p": e.Path,
		"l": e.Label, "ph": e.Placeholder, "h": e.Href, "c": e.Class}
	return realm, o
}

// spot is where a pointer action aims, in viewport coordinates.
type spot struct {
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	W    float64 `json:"w"`
	H    float64 `json:"h"`
	Mark int     `json:"mark"`
}

// locate scrolls the target into view and returns its center, after a hit
// test there (one evaluation; for an element of a cross-origin frame, one
// more per frame level to map the point out and hit-test the frame).
func (d *Driver) locate(ctx context.Context, t *tab, e *driver.Element) (spot, error) {
	// What covers the target may be on its way out: a date picker fading
	// after the day was picked, a menu closing. So a covered target is
	// looked at again for a moment before the step fails; a cover that
	// stays (a modal dialog) still fails it, as before.
	deadline := time.Now().Add(coverWait)
	for {
		s, err := d.locateOnce(ctx, t, e)
		if pe, ok := err.(*pageError); !ok || !pe.Covered || time.Now().After(deadline) {
			return s, err
		}
		if err := sleep(ctx, 50*time.Millisecond); err != nil {
			return s, err
		}
	}
}

// coverWait is how long locate waits for what covers a target to go.
const coverWait = time.Second

// locateOnce is locate without waiting for a cover to go.
func (d *Driver) locateOnce(ctx context.Context, t *tab, e *driver.Element) (spot, error) {
	if e == nil {
		return spot{}, fmt.Errorf("the action needs a target element")
	}
	realm, o := spec(e)
	var s spot
	if err := t.run(ctx, realm, []op{{"op": "point", "t": o}}, &s); err != nil {
		return s, err
	}
	for realm != "" {
		parent, ref := splitRef(realm)
		var p spot
		if err := t.run(ctx, parent, []op{{"op": "origin", "r": ref, "x": s.X, "y": s.Y, "hit": true}}, &p); err != nil {
			return s, err
		}
		s.X, s.Y, s.Mark = p.X, p.Y, -1
		realm = parent
	}
	return s, nil
}

var buttonBits = map[string]int{"left": 1, "right": 2, "middle": 4, "back": 8, "forward": 16}

// mouse sends one Input.dispatchMouseEvent.
func (t *tab) mouse(ctx context.Context, typ string, x, y float64, button string, clicks, mods int) error {
	p := map[string]any{"type": typ, "x": x, "y": y, "modifiers": mods}
	if button != "" {
		p["button"] = button
		p["clickCount"] = clicks
		if typ == "mousePressed" || typ == "mouseMoved" {
			p["buttons"] = buttonBits[button]
		}
	}
	return t.call(ctx, "Input.dispatchMouseEvent", p, nil)
}

// click presses and releases a button at a point clicks times (a double
// click is two clicks, the second with clickCount 2).
func (t *tab) click(ctx context.Context, x, y float64, button string, clicks, mods int) error {
	for n := 1; n <= clicks; n++ {
		if err := t.mouse(ctx, "mousePressed", x, y, button, n, mods); err != nil {
			return err
		}
		if err := t.mouse(ctx, "mouseReleased", x, y, button, n, mods); err != nil {
			return err
		}
	}
	return nil
}

// pointer performs click, double_click, right_click and move on a target
// with real input events, then waits for the page to settle.
func (d *Driver) pointer(ctx context.Context, t *tab, opName action.Name, e *driver.Element, mods int) error {
	s, err := d.locate(ctx, t, e)
	if err != nil {
		return err
	}
	switch opName {
	case action.Click:
		err = t.click(ctx, s.X, s.Y, "left", 1, mods)
	case action.DoubleClick:
		err = t.click(ctx, s.X, s.Y, "left", 2, mods)
	case action.RightClick:
		err = t.click(ctx, s.X, s.Y, "right", 1, mods)
	case action.Move:
		err = t.mouse(ctx, "mouseMoved", s.X, s.Y, "", 0, mods)
	}
	if err != nil {
		return err
	}
	return d.settle(ctx, t, s.Mark)
}

// drag presses on the source, moves in steps to the target and releases.
// HTML5 drag and drop is intercepted (Input.setInterceptDrags) and replayed
// as drag events on the target; pointer-event drags see the moves.
func (d *Driver) drag(ctx context.Context, t *tab, src, dst *driver.Element) error {
	a, err := d.locate(ctx, t, src)
	if err != nil {
		return fmt.Errorf("drag source: %w", err)
	}
	w := d.events.expect(t.session, "Input.dragIntercepted")
	defer d.events.drop(w)
	if err := t.call(ctx, "Input.setInterceptDrags", map[string]any{"enabled": true}, nil); err != nil {
		return err
	}
	defer func() {
		_ = t.call(context.WithoutCancel(ctx), "Input.setInterceptDrags", map[string]any{"enabled": false}, nil)
	}()
	if err := t.mouse(ctx, "mouseMoved", a.X, a.Y, "", 0, 0); err != nil {
		return err
	}
	if err := t.mouse(ctx, "mousePressed", a.X, a.Y, "left", 1, 0); err != nil {
		return err
	}
	// A few pixels first: pages start a drag past a threshold.
	if err := t.mouse(ctx, "mouseMoved", a.X+6, a.Y+6, "left", 0, 0); err != nil {
		return err
	}
	b, err := d.locateNoHit(ctx, t, dst)
	if err != nil {
		return fmt.Errorf("drag target: %w", err)
	}
	const steps = 4
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		x, y := a.X+(b.X-a.X)*f, a.Y+(b.Y-a.Y)*f
		if err := t.mouse(ctx, "mouseMoved", x, y, "left", 0, 0); err != nil {
			return err
		}
	}
	if data, ok := d.events.dragData(w); ok {
		for _, typ := range []string{"dragEnter", "dragOver", "drop"} {
			if err := t.call(ctx, "Input.dispatchDragEvent", map[string]any{"type": typ, "x": b.X, "y": b.Y, "data": data}, nil); err != nil {
				return err
			}
		}
	}
	if err := t.mouse(ctx, "mouseReleased", b.X, b.Y, "left", 1, 0); err != nil {
		return err
	}
	return d.settle(ctx, t, -1)
}

// locateNoHit finds a drop target's center: what covers it during a drag
// is usually the dragged element itself.
func (d *Driver) locateNoHit(ctx context.Context, t *tab, e *driver.Element) (spot, error) {
	s, err := d.locateOnce(ctx, t, e)
	if pe, ok := err.(*pageError); ok && pe.Covered {
		b := e.Bounds
		cx, cy := b.Center()
		if b.W > 0 && !math.IsNaN(cx) {
			return spot{X: cx, Y: cy, Mark: -1}, nil
		}
	}
	return s, err
}

// sleep waits for a duration or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// pointerButton clicks a target with another mouse button than the
// primary one (click's button: option), then waits for the page to settle.
func (d *Driver) pointerButton(ctx context.Context, t *tab, e *driver.Element, button string) error {
	if _, ok := buttonBits[button]; !ok {
		return fmt.Errorf("click: unknown mouse button %q", button)
	}
	s, err := d.locate(ctx, t, e)
	if err != nil {
		return err
	}
	if err := t.click(ctx, s.X, s.Y, button, 1, 0); err != nil {
		return err
	}
	return d.settle(ctx, t, s.Mark)
}
