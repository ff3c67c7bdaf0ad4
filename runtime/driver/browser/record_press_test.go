package browser

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// pressPage has elements the page's own handlers take away from under
// the pointer: a field whose focus ends the task and covers the page (the
// release lands on the cover, so the click goes to the body), a chip
// replaced when pressed, a button that removes itself when clicked, and
// the numbers and boxes of a drawing, each removed when clicked.
const pressPage = `<!doctype html><title>Press</title>
<style>#cover{display:none;position:fixed;inset:0;background:#eee}</style>
<label for=name>Name</label><input id=name type=text>
<p><span class=chip onmousedown="this.replaceWith(Object.assign(document.createElement('b'), {textContent: 'Picked'}))">Apple</span></p>
<p><button id=once onclick="this.remove()">Once</button></p>
<svg id=board width=200 height=100 onclick="if (event.target !== this) event.target.remove()">
  <text class=num x=20 y=30>1</text><text class=num x=80 y=30>2</text>
  <rect class=box x=20 y=60 width=20 height=20 /><rect class=box x=80 y=60 width=20 height=20 />
</svg>
<div id=cover></div>
<script>
document.getElementById('name').addEventListener('focus', function () {
  this.blur();
  document.getElementById('cover').style.display = 'block';
  setTimeout(() => { document.getElementById('cover').style.display = 'none'; }, 300);
});
</script>`

// TestRecordPressedElement: a click is recorded against the element the
// person pressed, as it was before the page's handlers ran, even when a
// handler covers, replaces or removes it; a click that hits no element is
// left out with a warning, never silently.
func TestRecordPressedElement(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := newSite(t)
	url := s.page("/press", pressPage)
	var mu sync.Mutex
	var warnings []string
	d, h, wait := startRecordingWith(t, ctx, url, RecordOptions{Warn: func(err error) {
		mu.Lock()
		warnings = append(warnings, err.Error())
		mu.Unlock()
	}})
	cases := []struct {
		name string
		at   string // a CSS selector for the element pressed, or "" for the page's background
		role string // of the recorded target
		text string // the target's label or text
		sel  string // the recorded selector
		css  bool   // the selector alone finds it (a part of a drawing)
		left string // with css: the drawing's parts left after a replayed click
	}{
		{name: "field covered on focus", at: "#name", role: "textbox", text: "Name", sel: "#name"},
		{name: "chip replaced on press", at: ".chip", role: "text", text: "Apple", sel: "span.chip"},
		{name: "button removed on click", at: "#once", role: "button", text: "Once", sel: "#once"},
		{name: "number in a drawing", at: "#board text:nth-of-type(2)", role: "generic", text: "2", sel: "text.num:nth-of-type(2)", css: true, left: "text 1,rect,rect"},
		{name: "box in a drawing", at: "#board rect:nth-of-type(1)", role: "generic", sel: "rect.box:nth-of-type(1)", css: true, left: "text 1,text 2,rect"},
		{name: "background", at: ""},
	}
	for _, tc := range cases {
		x, y := 600.0, 500.0
		if tc.at != "" {
			res, err := h.p.Eval(`(s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }`, tc.at)
			if err != nil {
				t.Fatal(err)
			}
			var xy []float64
			if err := res.Value.Unmarshal(&xy); err != nil {
				t.Fatal(err)
			}
			x, y = xy[0], xy[1]
		}
		if err := h.p.Mouse.MoveTo(proto.Point{X: x, Y: y}); err != nil {
			t.Fatal(err)
		}
		if err := h.p.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(400 * time.Millisecond)
	}
	h.stopChord()
	tr := wait()

	var clicks []trace.Event
	for _, e := range tr.Events {
		if e.Kind == trace.KindClick {
			clicks = append(clicks, e)
		}
	}
	n := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.at == "" {
				mu.Lock()
				defer mu.Unlock()
				if len(warnings) != 1 || !strings.Contains(warnings[0], "click") || !strings.Contains(warnings[0], "left out") {
					t.Errorf("warnings %q, want one about the click left out", warnings)
				}
				return
			}
			if n >= len(clicks) {
				t.Fatalf("only %d clicks recorded", len(clicks))
			}
			tg := clicks[n].Target
			n++
			if tg.Role != tc.role || (tc.text != "" && tg.Label != tc.text && tg.Text != tc.text && tg.Name != tc.text) {
				t.Errorf("target %s label %q text %q, want %s %q", tg.Role, tg.Label, tg.Text, tc.role, tc.text)
			}
			if len(tg.Selectors) != 1 || tg.Selectors[0] != tc.sel {
				t.Errorf("selectors %q, want [%q]", tg.Selectors, tc.sel)
			}
			if want := map[bool]string{true: tc.sel}[tc.css]; tg.CSS != want {
				t.Errorf("css %q, want %q", tg.CSS, want)
			}
			if !tc.css {
				return
			}
			// Replay: the selector finds the part on a fresh page, and a
			// click on it reaches it.
			open(t, d, url)
			found, err := d.Find(ctx, driver.Query{CSS: tg.CSS})
			if err != nil || len(found) != 1 {
				t.Fatalf("find %q: %d elements, %v", tg.CSS, len(found), err)
			}
			do(t, d, driver.Action{Op: "click", Target: found[0]})
			if got := eval(t, d, `Array.from(document.querySelectorAll('#board > *')).map((e) => e.localName + (e.textContent ? ' ' + e.textContent : '')).join()`); got != tc.left {
				t.Errorf("after the replayed click the drawing has %q, want %q", got, tc.left)
			}
		})
	}
	if n != len(clicks) {
		t.Errorf("%d clicks recorded, want %d", len(clicks), n)
	}
}
