package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"
)

// person acts on one tab the way a person does: it reads the screen
// (text, element boxes) and acts only with CDP mouse and keyboard
// events. It never sets a value or calls a page function.
type person struct {
	p      *rod.Page
	pause  time.Duration // after each action, as a person's pace
	secret string        // a password the person typed, given to the replay as the secret input
	// variant is the kind of instance the person met, for a task whose
	// instances vary (kind 4): "reply", "popup at password"; "" when one.
	variant string
}

// spot is where an element is on the screen, and the rectangle it can be
// seen in (the viewport clipped by its scrolling ancestors).
type spot struct {
	X, Y, W, H float64
	Clip       struct{ L, T, R, B float64 }
	Scroller   *struct{ X, Y float64 } // the nearest scrolling ancestor's middle
	Text       string
	N          int // how many elements matched
}

// findJS reads the screen: the visible elements matching a CSS selector,
// filtered by their text, the index-th of them.
const findJS = `(sel, text, exact, index) => {
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const seen = e => { const r = e.getBoundingClientRect(); const cs = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none'; };
  let els = [...document.querySelectorAll(sel)].filter(seen);
  if (text !== '') els = els.filter(e => { const t = norm(e.textContent) || norm(e.value); return exact ? t === text : t.includes(text); });
  if (els.length <= index) return null;
  const e = els[index], r = e.getBoundingClientRect();
  const clip = {L: 0, T: 0, R: innerWidth, B: innerHeight};
  let scroller = null;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const cs = getComputedStyle(a);
    if (/(auto|scroll)/.test(cs.overflowY + cs.overflowX) && (a.scrollHeight > a.clientHeight || a.scrollWidth > a.clientWidth)) {
      const ar = a.getBoundingClientRect();
      if (!scroller) scroller = {X: ar.left + ar.width / 2, Y: ar.top + ar.height / 2};
      clip.L = Math.max(clip.L, ar.left); clip.T = Math.max(clip.T, ar.top);
      clip.R = Math.min(clip.R, ar.left + a.clientWidth); clip.B = Math.min(clip.B, ar.top + a.clientHeight);
    }
  }
  return {X: r.left + r.width / 2, Y: r.top + r.height / 2, W: r.width, H: r.height, Clip: clip, Scroller: scroller,
    Text: norm(e.textContent) || norm(e.value), N: els.length};
}`

// target names an element the way a person points at it: a kind of
// element (CSS), its text, and which one of those when several.
type target struct {
	sel   string
	text  string
	exact bool
	index int
}

func css(sel string) target              { return target{sel: sel} }
func withText(sel, text string) target   { return target{sel: sel, text: text, exact: true} }
func containing(sel, text string) target { return target{sel: sel, text: text} }
func (t target) nth(i int) target        { t.index = i; return t }
func (t target) String() string          { return fmt.Sprintf("%s %q #%d", t.sel, t.text, t.index) }
func norm(s string) string               { return strings.Join(strings.Fields(s), " ") }
func (h *person) sleep()                 { time.Sleep(h.pause) }
func (h *person) wait(d time.Duration)   { time.Sleep(d) }
func (h *person) eval(js string) (string, error) {
	r, err := h.p.Timeout(5 * time.Second).Eval(js)
	if err != nil {
		return "", err
	}
	return r.Value.Str(), nil
}

// read returns a string the page shows, computed by a JS expression over
// the DOM (reading only).
func (h *person) read(expr string) string {
	s, err := h.eval("() => String(" + expr + ")")
	if err != nil {
		return ""
	}
	return s
}

// query is the task's instruction, as shown.
func (h *person) query() string { return norm(h.read(`document.getElementById('query').textContent`)) }

// look finds the element now, or returns nil.
func (h *person) look(t target) (*spot, error) {
	r, err := h.p.Timeout(5*time.Second).Eval(findJS, t.sel, t.text, t.exact, t.index)
	if err != nil {
		return nil, err
	}
	if r.Value.Nil() {
		return nil, nil
	}
	var s spot
	if err := json.Unmarshal([]byte(r.Value.JSON("", "")), &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// find waits (as a person looks) up to 5 s for the element.
func (h *person) find(t target) (*spot, error) {
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, err := h.look(t)
		if err != nil {
			return nil, fmt.Errorf("looking for %s: %w", t, err)
		}
		if s != nil {
			return s, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no visible element %s", t)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// count is how many visible elements match now.
func (h *person) count(t target) int {
	s, err := h.look(t)
	if err != nil || s == nil {
		return 0
	}
	return s.N
}

// reveal scrolls with the mouse wheel until the element's middle is in
// the part of the screen where it can be seen.
func (h *person) reveal(t target) (*spot, error) {
	for i := 0; ; i++ {
		s, err := h.find(t)
		if err != nil {
			return nil, err
		}
		c := s.Clip
		if s.X >= c.L && s.X <= c.R && s.Y >= c.T+2 && s.Y <= c.B-2 {
			return h.still(t, s)
		}
		if i == 12 {
			return nil, fmt.Errorf("%s stays out of sight", t)
		}
		at := proto.Point{X: (c.L + c.R) / 2, Y: (c.T + c.B) / 2}
		if s.Scroller != nil && s.Scroller.X >= 0 && s.Scroller.Y >= 0 {
			at = proto.Point{X: s.Scroller.X, Y: s.Scroller.Y}
		}
		if err := h.wheelAt(at, s.Y-(c.T+c.B)/2); err != nil {
			return nil, err
		}
	}
}

// still waits, as a person's eye does, until the element stops moving
// (an accordion opening, a menu sliding in: on a loaded machine the
// animation outlasts the person's pause) and returns where it rests.
func (h *person) still(t target, s *spot) (*spot, error) {
	for i := 0; i < 30; i++ {
		time.Sleep(60 * time.Millisecond)
		now, err := h.look(t)
		if err != nil || now == nil {
			return s, err
		}
		if math.Abs(now.X-s.X) < 0.5 && math.Abs(now.Y-s.Y) < 0.5 && math.Abs(now.W-s.W) < 0.5 && math.Abs(now.H-s.H) < 0.5 {
			return now, nil
		}
		s = now
	}
	return s, nil
}

func (h *person) wheelAt(at proto.Point, dy float64) error {
	if err := h.p.Mouse.MoveTo(at); err != nil {
		return err
	}
	err := proto.InputDispatchMouseEvent{Type: proto.InputDispatchMouseEventTypeMouseWheel, X: at.X, Y: at.Y, DeltaY: dy}.Call(h.p)
	time.Sleep(150 * time.Millisecond)
	return err
}

// wheel scrolls over an element by dy pixels.
func (h *person) wheel(t target, dy float64) error {
	s, err := h.find(t)
	if err != nil {
		return err
	}
	return h.wheelAt(proto.Point{X: s.X, Y: s.Y}, dy)
}

// click moves the mouse to the element's middle and clicks.
func (h *person) click(t target) error { return h.clickN(t, 1) }

func (h *person) clickN(t target, n int) error {
	s, err := h.reveal(t)
	if err != nil {
		return err
	}
	return h.clickAt(s.X, s.Y, n)
}

func (h *person) clickAt(x, y float64, n int) error {
	if err := h.p.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
		return err
	}
	if err := h.p.Mouse.Click(proto.InputMouseButtonLeft, n); err != nil {
		return err
	}
	h.sleep()
	return nil
}

// drag presses the mouse at from and releases it at to, moving in steps.
func (h *person) drag(from, to proto.Point) error {
	m := h.p.Mouse
	if err := m.MoveTo(from); err != nil {
		return err
	}
	if err := m.Down(proto.InputMouseButtonLeft, 1); err != nil {
		return err
	}
	if err := m.MoveLinear(to, 10); err != nil {
		return err
	}
	if err := m.Up(proto.InputMouseButtonLeft, 1); err != nil {
		return err
	}
	h.sleep()
	return nil
}

// typeText types s key by key; characters with no key on the keyboard
// (other scripts, emoji) are entered as an input method would.
func (h *person) typeText(s string) error {
	for _, r := range s {
		var err error
		if r >= 0x20 && r < 0x7f {
			err = h.p.Keyboard.Type(input.Key(r))
		} else {
			err = h.p.InsertText(string(r))
		}
		if err != nil {
			return fmt.Errorf("typing %q: %w", s, err)
		}
	}
	h.sleep()
	return nil
}

// press types special keys one after the other.
func (h *person) press(keys ...input.Key) error {
	for _, k := range keys {
		if err := h.p.Keyboard.Type(k); err != nil {
			return err
		}
	}
	h.sleep()
	return nil
}

// chord holds mod and types k (Ctrl+A, Ctrl+C …).
func (h *person) chord(mod, k input.Key) error {
	if err := h.p.KeyActions().Press(mod).Type(k).Do(); err != nil {
		return err
	}
	h.sleep()
	return nil
}

// fill clicks a text field and types into it.
func (h *person) fill(t target, s string) error {
	if err := h.click(t); err != nil {
		return err
	}
	return h.typeText(s)
}

// between returns the text between the first left and the next right in
// s ("" when absent): how a person picks a quoted word out of a sentence.
func between(s, left, right string) string {
	i := strings.Index(s, left)
	if i < 0 {
		return ""
	}
	s = s[i+len(left):]
	j := strings.Index(s, right)
	if j < 0 {
		return ""
	}
	return s[:j]
}
