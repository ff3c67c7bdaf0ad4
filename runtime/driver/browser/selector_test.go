package browser

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// isolated is a Chromium with site isolation forced and a second loopback
// site ("oopif.test" mapped to 127.0.0.1), so that an iframe on it is an
// out-of-process frame, and the driver attached to it.
var isolated struct {
	once sync.Once
	d    *Driver
	cmd  *exec.Cmd
	err  error
}

func isolatedDriver(tb testing.TB) *Driver {
	tb.Helper()
	needChromium(tb)
	isolated.once.Do(func() {
		bin, err := FindChromium("")
		if err != nil {
			isolated.err = err
			return
		}
		dir, err := os.MkdirTemp("", "cogflow-isolated-")
		if err != nil {
			isolated.err = err
			return
		}
		c := exec.Command(bin, "--headless", "--no-sandbox", "--disable-background-networking",
			"--disable-component-update", "--no-first-run", "--remote-debugging-port=0", "--user-data-dir="+dir,
			"--host-rules=MAP oopif.test 127.0.0.1", "--site-per-process", "about:blank")
		c.SysProcAttr = groupAttr()
		stderr, _ := c.StderrPipe()
		if isolated.err = c.Start(); isolated.err != nil {
			return
		}
		isolated.cmd = c
		ws := make(chan string, 1)
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				if i := strings.Index(sc.Text(), "ws://"); i >= 0 {
					select {
					case ws <- strings.TrimSpace(sc.Text()[i:]):
					default:
					}
				}
			}
		}()
		select {
		case u := <-ws:
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			isolated.d, isolated.err = Start(ctx, driver.Options{RemoteURL: u, ActionTimeout: 5 * time.Second})
		case <-time.After(30 * time.Second):
			isolated.err = context.DeadlineExceeded
		}
	})
	if isolated.err != nil {
		tb.Fatalf("isolated chromium: %v", isolated.err)
	}
	return isolated.d
}

// stopIsolated ends the Chromium isolatedDriver started (its process
// group only).
func stopIsolated() {
	if isolated.d != nil {
		_ = isolated.d.Close()
	}
	if isolated.cmd != nil && isolated.cmd.Process != nil {
		killGroup(isolated.cmd.Process.Pid)
		_ = isolated.cmd.Wait()
	}
}

// report makes a page send its clicks to the site's /log, on any host.
const report = `<script>
addEventListener('click', (e) => {
  const t = e.composedPath()[0];
  navigator.sendBeacon('/log?m=' + encodeURIComponent('click ' + t.localName + (t.id ? '#' + t.id : '')));
}, true);
</script>`

// TestSelectorFind: css (piercing shadow roots, >>> chains), xpath and
// frame paths (same-origin and out-of-process) return exactly the elements
// they match, and a pointer action on each lands on it — an SVG icon, a
// button in a closed shadow root, a custom element found by XPath, a button
// in a same-origin frame and one in an out-of-process frame, an element
// clipped by a scrolling container.
func TestSelectorFind(t *testing.T) {
	d := isolatedDriver(t)
	s := newSite(t)
	far := strings.Replace(s.URL, "127.0.0.1", "oopif.test", 1)
	s.page("/far", `<button id="far">far</button>`+report)
	s.page("/near", `<button id="near">near</button><iframe src="`+far+`/far"></iframe>`+report)
	s.page("/svg", `<button id="icon" style="width:40px;height:40px"><svg width="30" height="30" viewBox="0 0 10 10"><path d="M0 0h10v10H0z"/></svg></button>`+report)
	s.page("/shadow", `<my-widget></my-widget><my-widget id="second"></my-widget><script>
customElements.define('my-widget', class extends HTMLElement {
  constructor() { super(); const r = this.attachShadow({mode: 'closed'}); r.innerHTML = '<span><button class="go">Go</button></span>';
    r.querySelector('button').addEventListener('click', () => navigator.sendBeacon('/log?m=' + encodeURIComponent('click go in ' + (this.id || 'first')))); }
});
</script>`+report)
	s.page("/xpath", `<my-card><button id="card-button">Open</button></my-card><button>Open</button>`+report)
	s.page("/frames", `<iframe src="/near" style="width:400px;height:300px"></iframe>`+report)
	// The button is inside the viewport by its coordinates but below the
	// container's visible part: only scrolling the container shows it.
	s.page("/clipped", `<div style="height:100px;overflow:auto"><div style="height:150px"></div><button id="deep">deep</button><div style="height:500px"></div></div>`+report)
	tests := []struct {
		name, page string
		q          driver.Query
		n          int    // elements matched
		click      string // what the page logs for a click on the first
	}{
		{"svg path", "/svg", driver.Query{CSS: "svg > path"}, 1, "click path"},
		{"closed shadow root", "/shadow", driver.Query{CSS: "my-widget >>> button.go"}, 2, "click go in first"},
		{"chain into one host", "/shadow", driver.Query{CSS: "#second >>> span >>> button"}, 1, "click go in second"},
		{"descendant in shadow", "/shadow", driver.Query{CSS: "span > .go"}, 2, "click go in first"},
		{"xpath custom element", "/xpath", driver.Query{XPath: "//my-card/button"}, 1, "click button#card-button"},
		{"css and xpath together", "/xpath", driver.Query{CSS: "button", XPath: "/html/body/button"}, 1, "click button"},
		{"same-origin frame", "/frames", driver.Query{CSS: "#near", Frame: []int{0}}, 1, "click button#near"},
		{"out-of-process frame by path", "/frames", driver.Query{CSS: "#far", Frame: []int{0, 0}}, 1, "click button#far"},
		{"out-of-process frame searched without path", "/frames", driver.Query{CSS: "#far"}, 1, "click button#far"},
		{"frame alone scopes", "/frames", driver.Query{Frame: []int{0, 0}}, 1, "click button#far"},
		{"clipped by a scrolling container", "/clipped", driver.Query{CSS: "#deep"}, 1, "click button#deep"},
		{"nothing matches", "/svg", driver.Query{CSS: ".missing"}, 0, ""},
		{"no such frame", "/svg", driver.Query{CSS: "button", Frame: []int{3}}, -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			open(t, d, s.URL+tt.page)
			els, err := d.Find(context.Background(), tt.q)
			if tt.n < 0 {
				if err == nil {
					t.Fatalf("find %+v: no error, %d elements", tt.q, len(els))
				}
				return
			}
			if err != nil {
				t.Fatalf("find %+v: %v", tt.q, err)
			}
			if len(els) != tt.n {
				t.Fatalf("find %+v: %d elements, want %d", tt.q, len(els), tt.n)
			}
			if tt.click == "" {
				return
			}
			before := len(s.logged())
			do(t, d, driver.Action{Op: "click", Target: els[0]})
			deadline := time.Now().Add(3 * time.Second)
			for time.Now().Before(deadline) {
				for _, m := range s.logged()[before:] {
					if m == tt.click {
						return
					}
				}
				time.Sleep(20 * time.Millisecond)
			}
			t.Errorf("the page logged %q after the click, want %q", s.logged()[before:], tt.click)
		})
	}
}
