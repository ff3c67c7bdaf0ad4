package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// A screenshot never shows a secret the driver typed: every field it typed
// one into (while the field is on the page, whatever the page made of its
// value), every field whose value holds one, and every text on the page
// that does (a page that echoes what was typed), is covered by a box of one colour
// (driver.MaskColor) before the PNG leaves the driver. The boxes are
// measured before and after the capture and both are painted, so a page
// that moves in between is still covered. Pages are searched ignoring case
// (a page may show the text in capitals); same-origin frames and open
// shadow roots are searched too. When the boxes cannot be measured the
// screenshot is refused, never taken unmasked.

// noteSecret remembers a text the driver typed as a secret (Action.Secret),
// so that screenshots cover it. The caller holds the driver's lock.
func (d *Driver) noteSecret(text string) {
	if text == "" {
		return
	}
	for _, s := range d.secrets {
		if s == text {
			return
		}
	}
	d.secrets = append(d.secrets, text)
}

// maskScript returns the boxes, in CSS pixels of the top viewport, of the
// fields and texts that hold one of the secrets (ignoring case), and the
// viewport's width to scale them to the capture.
const maskScript = `(function (secrets) {
  const needles = secrets.map(function (s) { return String(s).toLowerCase(); }).filter(function (s) { return s.length > 0; });
  const holds = function (s) {
    if (s == null || s === '') return false;
    const l = String(s).toLowerCase();
    for (const n of needles) { if (l.indexOf(n) >= 0) return true; }
    return false;
  };
  const boxes = [];
  const add = function (r, ox, oy) {
    if (r.width > 0 && r.height > 0) boxes.push([r.left + ox, r.top + oy, r.width, r.height]);
  };
  const walk = function (root, ox, oy) {
    const doc = root.ownerDocument || root;
    const api = root === doc && doc.defaultView && doc.defaultView.__cogflow_v1;
    if (api && api.S.secret) {
      for (const el of api.S.secret) { if (el.isConnected) add(el.getBoundingClientRect(), ox, oy); }
    }
    for (const el of root.querySelectorAll('*')) {
      const tag = el.tagName;
      if ((tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') && holds(el.value)) add(el.getBoundingClientRect(), ox, oy);
      if (el.shadowRoot) walk(el.shadowRoot, ox, oy);
      if (tag === 'IFRAME' || tag === 'FRAME') {
        let inner = null;
        try { inner = el.contentDocument; } catch (e) { inner = null; }
        if (inner) {
          const r = el.getBoundingClientRect();
          walk(inner, ox + r.left + el.clientLeft, oy + r.top + el.clientTop);
        }
      }
    }
    const texts = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = texts.nextNode(); n; n = texts.nextNode()) {
      if (!holds(n.data)) continue;
      const range = doc.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) add(r, ox, oy);
    }
  };
  walk(document, 0, 0);
  return {width: window.innerWidth, boxes: boxes};
})`

// box is a rectangle in CSS pixels: x, y, width, height.
type box [4]float64

// secretBoxes measures where the secrets show on the current tab.
func (d *Driver) secretBoxes(ctx context.Context, t *tab) (boxes []box, width float64, err error) {
	arg, err := json.Marshal(d.secrets)
	if err != nil {
		return nil, 0, err
	}
	var res struct {
		Result struct {
			Value struct {
				Width float64 `json:"width"`
				Boxes []box   `json:"boxes"`
			} `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	err = t.call(ctx, "Runtime.evaluate", map[string]any{
		"expression": maskScript + "(" + string(arg) + ")", "returnByValue": true,
	}, &res)
	if err != nil {
		return nil, 0, err
	}
	if res.ExceptionDetails != nil {
		return nil, 0, errors.New(strings.TrimSpace(res.ExceptionDetails.Text))
	}
	if res.Result.Value.Width <= 0 {
		return nil, 0, errors.New("the page has no viewport")
	}
	return res.Result.Value.Boxes, res.Result.Value.Width, nil
}

// masked captures the current tab with every secret covered. The caller
// holds the driver's lock.
func (d *Driver) masked(ctx context.Context, t *tab, capture func() ([]byte, error)) ([]byte, error) {
	if len(d.secrets) == 0 {
		return capture()
	}
	before, width, err := d.secretBoxes(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("a secret was typed and its place on the page could not be measured, so no screenshot is taken: %w", err)
	}
	shot, err := capture()
	if err != nil {
		return nil, err
	}
	after, width2, err := d.secretBoxes(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("a secret was typed and its place on the page could not be measured, so no screenshot is taken: %w", err)
	}
	if width2 != width {
		return nil, errors.New("the page was resized during the screenshot, which holds a secret: no screenshot is taken")
	}
	if len(before)+len(after) == 0 {
		return shot, nil
	}
	var rects []driver.Rect
	for _, bx := range append(before, after...) {
		rects = append(rects, driver.Rect{X: bx[0], Y: bx[1], W: bx[2], H: bx[3]})
	}
	return driver.CoverPNG(shot, rects, width)
}
