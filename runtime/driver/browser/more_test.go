package browser

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

func TestCrossOriginFrame(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/x", `<button id=xbtn onclick="this.textContent = 'Clicked'">Cross button</button>`)
	other := strings.Replace(s.URL, "127.0.0.1", "localhost", 1) // another origin, same server
	open(t, d, s.page("/host", `<p>host</p><iframe id=xf src="`+other+`/x" width=300 height=80></iframe>`))
	tree := observe(t, d)
	b := one(t, tree, "cross-origin button", byID("xbtn"))
	if !strings.Contains(b.Ref, "/") || !strings.Contains(b.Path, "#document") || b.Bounds.Y <= 0 {
		t.Fatalf("cross-origin button %+v", b)
	}
	frame := one(t, tree, "iframe", byID("xf"))
	if tree.Elements[b.Parent] != frame {
		t.Errorf("parent of the framed button is %+v", tree.Elements[b.Parent])
	}
	do(t, d, driver.Action{Op: "click", Target: b})
	if fb := find(t, d, driver.Query{ID: "xbtn"}, byID("xbtn")); fb.Name != "Clicked" || fb.Ref != b.Ref {
		t.Errorf("after the click: %+v", fb)
	}
}

func TestScrollWaitDialogMultiSelect(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/long", `<div style="height:5000px">tall</div><button id=late-host onclick="
  setTimeout(() => { const b = document.createElement('button'); b.textContent = 'Later'; document.body.prepend(b); }, 300)">Spawn</button>
<button id=al onclick="alert('hi'); document.title = 'after alert'">Alert</button>
<select id=multi multiple size=3><option>One</option><option>Two</option><option>Three</option></select>`))
	do(t, d, driver.Action{Op: "scroll", Text: "down", Number: 1})
	if y, _ := strconv.ParseFloat(eval(t, d, "scrollY"), 64); y < 500 {
		t.Errorf("scrollY %v after scrolling a screen down", y)
	}
	do(t, d, driver.Action{Op: "scroll", Text: "up", Number: 5})
	if y := eval(t, d, "scrollY"); y != "0" {
		t.Errorf("scrollY %v after scrolling up", y)
	}
	do(t, d, driver.Action{Op: "click", Target: target(t, d, "late-host")})
	do(t, d, driver.Action{Op: "wait", Target: &driver.Element{Role: "button", Name: "Later"}})
	find(t, d, driver.Query{Name: "Later"}, byRoleName("button", "Later"))
	do(t, d, driver.Action{Op: "click", Target: target(t, d, "al"), Dialog: "accept"})
	if got := eval(t, d, "document.title"); got != "after alert" {
		t.Errorf("title %q: the alert blocked the page", got)
	}
	opts, err := d.Find(context.Background(), driver.Query{Role: "option"})
	if err != nil || len(opts) != 3 {
		t.Fatalf("options %v %v", opts, err)
	}
	do(t, d, driver.Action{Op: "multi_select", Targets: []*driver.Element{opts[0], opts[2]}})
	if got := eval(t, d, "[...document.getElementById('multi').selectedOptions].map(o => o.text).join()"); got != "One,Three" {
		t.Errorf("selected %q", got)
	}
	do(t, d, driver.Action{Op: "wait", Number: 0.05})
}

func TestClickInShadowAndFrame(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/frame", framePage)
	open(t, d, s.page("/sf", `<div style="height:1500px"></div><x-card></x-card><iframe src="/frame"></iframe>
<script>
window.seen = [];
customElements.define('x-card', class extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({mode: 'closed'});
    r.innerHTML = '<button id=inshadow>Shadow action</button>';
    r.querySelector('button').addEventListener('mouseover', () => seen.push('over'));
    r.querySelector('button').addEventListener('click', () => seen.push('click')); }
});
</script>`))
	do(t, d, driver.Action{Op: "click", Target: target(t, d, "inshadow")})
	if got := eval(t, d, "seen.join()"); got != "over,click" {
		t.Errorf("closed shadow button saw %q", got)
	}
	do(t, d, driver.Action{Op: "click", Target: target(t, d, "inframe")})
	if got := eval(t, d, "window.framed"); got != "yes" {
		t.Errorf("framed button: %q", got)
	}
}
