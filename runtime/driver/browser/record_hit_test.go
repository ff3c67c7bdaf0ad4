package browser

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

var update = flag.Bool("update", false, "rewrite the recorded traces of testdata")

// hitPage has elements that show nothing to name them by: an icon span in
// a clickable post, svg icons in a toolbar, stars inside a shadow root,
// and a password field. Each click logs which element took it.
const hitPage = `<!doctype html><title>Posts</title>
<style>.icon{display:inline-block;width:16px;height:16px;background:#888}</style>
<article id=post onclick="hit('post')"><p>Kilimanjaro is the tallest mountain in Africa, a post with a lot of text.</p>
  <span class="icon more" aria-haspopup=menu onclick="event.stopPropagation(); hit('more')"></span></article>
<div class=toolbar>
  <div class=act onclick="hit('reply')"><svg class=ic width=16 height=16><path d="M0 0h16v16H0z"/></svg></div>
  <div class=act onclick="hit('share')"><svg class=ic width=16 height=16><path d="M0 0h16v16H0z"/></svg></div>
</div>
<x-rating></x-rating>
<button id=menu><span class="icon caret"></span></button>
<div class=tabs><span class="icon tab" aria-selected=true onclick="hit('tab1')"></span><span class="icon tab" aria-selected=false onclick="hit('tab2')"></span></div>
<label for=pw>Password</label><input id=pw type=password>
<script>
window.hits = [];
function hit(w) { hits.push(w); }
customElements.define('x-rating', class extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({mode: 'open'});
    r.innerHTML = '<style>i{display:inline-block;width:16px;height:16px;background:gold}</style><i class=star></i><i class=star></i><i class=star></i>';
    r.querySelectorAll('i').forEach((s, n) => s.addEventListener('click', () => hit('star' + (n + 1)))); }
});
document.getElementById('menu').addEventListener('click', () => hit('menu'));
</script>`

// hitJS returns the element a test case aims at (shadow roots pierced by
// hand).
var hitJS = map[string]string{
	"more":  `document.querySelector('.more')`,
	"share": `document.querySelectorAll('.act svg path')[1]`,
	"star2": `document.querySelector('x-rating').shadowRoot.querySelectorAll('i')[1]`,
	"menu":  `document.querySelector('#menu .caret')`,
	"tab2":  `document.querySelectorAll('.tab')[1]`,
}

// TestRecordHitElement: a click on an element with no text or name is
// recorded against that element (the control around it when there is one),
// with a unique CSS selector; the walker keeps it in observations, and a
// click on what replay finds by the recording reaches the same element.
func TestRecordHitElement(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s := newSite(t)
	url := s.page("/posts", hitPage)
	d, h, wait := startRecording(t, ctx, url)
	cases := []struct {
		aim      string
		role     string // of the recorded target
		class    string // the target's class holds it
		selector string // the recorded selector
	}{
		{aim: "more", role: "generic", class: "more", selector: "span.icon.more"},
		{aim: "share", role: "generic", class: "ic", selector: "div.act:nth-of-type(2) > svg.ic"},
		{aim: "star2", role: "generic", class: "star", selector: "x-rating >>> i.star:nth-of-type(2)"},
		{aim: "menu", role: "button", selector: "#menu"},
		{aim: "tab2", role: "generic", class: "tab", selector: `span.icon.tab[aria-selected="false"]`},
	}
	for _, tc := range cases {
		res, err := h.p.Eval(`() => { const r = (` + hitJS[tc.aim] + `).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }`)
		if err != nil {
			t.Fatal(err)
		}
		var xy []float64
		if err := res.Value.Unmarshal(&xy); err != nil {
			t.Fatal(err)
		}
		if err := h.p.Mouse.MoveTo(proto.Point{X: xy[0], Y: xy[1]}); err != nil {
			t.Fatal(err)
		}
		if err := h.p.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond)
	}
	h.click("#pw")
	h.typeText("qZx7#Wm9vK")
	h.stopChord()
	tr := wait()
	saveTrace(t, tr, s.URL, "hit.trace.json")

	var clicks []trace.Event
	for _, e := range tr.Events {
		if e.Kind == trace.KindClick {
			clicks = append(clicks, e)
		}
	}
	if len(clicks) < len(cases) {
		t.Fatalf("%d clicks recorded, want at least %d", len(clicks), len(cases))
	}
	for i, tc := range cases {
		t.Run(tc.aim, func(t *testing.T) {
			tg := clicks[i].Target
			if tg.Role != tc.role || !strings.Contains(tg.Class, tc.class) {
				t.Errorf("target %s class %q, want %s with %q", tg.Role, tg.Class, tc.role, tc.class)
			}
			if len(tg.Selectors) != 1 || tg.Selectors[0] != tc.selector {
				t.Errorf("selectors %q, want [%q]", tg.Selectors, tc.selector)
			}
			// Replay: the observation keeps the element at the recorded
			// path, and a click on it reaches the element hit.
			open(t, d, url)
			var found *driver.Element
			for _, e := range observe(t, d).Elements {
				if e.Path == tg.Path && e.Role == tg.Role {
					found = e
				}
			}
			if found == nil {
				t.Fatalf("no element at %s in the observation", tg.Path)
			}
			do(t, d, driver.Action{Op: "click", Target: found})
			if got := eval(t, d, "hits.join()"); got != tc.aim {
				t.Errorf("the replayed click reached %q, want %q", got, tc.aim)
			}
		})
	}
}

// saveTrace writes a recorded trace to testdata with -update (the
// server's address made fixed), and checks that what is there still reads.
func saveTrace(t *testing.T, tr *trace.Trace, base, name string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		data, err := trace.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		data = []byte(strings.ReplaceAll(string(data), base, "http://127.0.0.1:8088"))
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := trace.Load(path); err != nil {
		t.Errorf("%s: %v (run with -update to record it)", path, err)
	}
}
