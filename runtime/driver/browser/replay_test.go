package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestReplayActions: the actions a replayed recording needs beyond input —
// switch_window to a popup that opens after the click returned, a viewport
// resize, a page expression waited for, a frame's navigation waited for
// (an out-of-process frame included), a scroll to a position.
func TestReplayActions(t *testing.T) {
	d := isolatedDriver(t)
	s := newSite(t)
	far := strings.Replace(s.URL, "127.0.0.1", "oopif.test", 1)
	s.page("/popup", `<title>Late popup</title><p>popup</p>`)
	s.page("/opener", `<button id="open" onclick="setTimeout(() => window.open('/popup', 'p', 'width=300,height=300'), 700)">open</button>`)
	s.page("/late", `<script>setTimeout(() => { window.ready = true; }, 600);</script><p>late</p>`)
	s.page("/far2", `<p>second</p>`)
	s.page("/far1", `<a id="next" href="/far2">next</a>`)
	s.page("/framed", `<iframe src="`+far+`/far1"></iframe>`)
	s.page("/long", `<div id="box" style="height:100px;overflow:auto" onscroll="window.boxScrolled = this.scrollTop"><div style="height:900px"></div></div><div style="height:3000px"></div>`)
	s.page("/resized", `<script>addEventListener('resize', () => { window.seen = innerWidth + 'x' + innerHeight; });</script>`)
	tests := []struct {
		name  string
		page  string
		steps func(t *testing.T) []driver.Action
		check string // a page expression that must be "true" after
	}{
		{"switch to a popup opened late", "/opener", func(t *testing.T) []driver.Action {
			b := find(t, d, driver.Query{CSS: "#open"}, byID("open"))
			return []driver.Action{{Op: "click", Target: b}, {Op: "switch_window", Text: "Late popup"}}
		}, "document.title === 'Late popup'"},
		{"set the viewport", "/late", func(t *testing.T) []driver.Action {
			return []driver.Action{{Op: "set_viewport", Text: "640x480"}}
		}, "innerWidth === 640 && innerHeight === 480"},
		// The step ends after the page's handlers ran, not merely after
		// the size changed: the next step must not overtake them.
		{"a resize handler ran when set_viewport ends", "/resized", func(t *testing.T) []driver.Action {
			return []driver.Action{{Op: "set_viewport", Text: "610x470"}}
		}, "window.seen === '610x470'"},
		{"a promise is awaited", "/late", func(t *testing.T) []driver.Action {
			return []driver.Action{{Op: "wait_script", Text: "new Promise(r => setTimeout(() => r(window.ready === true), 10))"}}
		}, "window.ready === true"},
		{"wait for a page expression", "/late", func(t *testing.T) []driver.Action {
			return []driver.Action{{Op: "wait_script", Text: "window.ready === true"}}
		}, "window.ready === true"},
		{"wait for an out-of-process frame's navigation", "/framed", func(t *testing.T) []driver.Action {
			a := find(t, d, driver.Query{CSS: "#next", Frame: []int{0}}, byID("next"))
			return []driver.Action{{Op: "click", Target: a}, {Op: "wait_navigation", Text: far + "/far2"}}
		}, "true"},
		{"scroll an element and the page to a position", "/long", func(t *testing.T) []driver.Action {
			box := find(t, d, driver.Query{CSS: "#box"}, byID("box"))
			return []driver.Action{{Op: "scroll", Target: box, ScrollTo: []float64{0, 40}}, {Op: "scroll", ScrollTo: []float64{0, 70}}}
		}, "document.getElementById('box').scrollTop === 40 && scrollY === 70 && window.boxScrolled === 40"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			open(t, d, s.URL+tt.page)
			for _, a := range tt.steps(t) {
				do(t, d, a)
			}
			if got := eval(t, d, tt.check); got != "true" {
				t.Errorf("after the steps, %s is %s", tt.check, got)
			}
		})
	}
	// What does not come fails within the step's time, with a message.
	open(t, d, s.URL+"/late")
	for _, a := range []driver.Action{
		{Op: "switch_window", Text: "No such tab", Timeout: 500 * time.Millisecond},
		{Op: "wait_script", Text: "window.never === true", Timeout: 500 * time.Millisecond},
		{Op: "wait_script", Text: "Promise.resolve(false)", Timeout: 500 * time.Millisecond},
		{Op: "wait_navigation", Text: s.URL + "/nowhere", Timeout: 500 * time.Millisecond},
	} {
		start := time.Now()
		_, err := d.Do(context.Background(), a)
		if err == nil || time.Since(start) > 3*time.Second {
			t.Errorf("%s %q: err %v after %v, want a failure within the timeout", a.Op, a.Text, err, time.Since(start))
		}
	}
}
