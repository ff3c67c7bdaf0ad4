package browser

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

func target(t *testing.T, d *Driver, id string) *driver.Element {
	t.Helper()
	return find(t, d, driver.Query{ID: id}, byID(id))
}

func TestClickChangesPage(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/click", `<button id=b onclick="
  document.getElementById('out').textContent = 'clicked ' + (++window.n);
  fetch('/log?m=clicked')">Press</button><p id=out></p><script>window.n = 0</script>`))
	b := target(t, d, "b")
	do(t, d, driver.Action{Op: "click", Target: b})
	if got := eval(t, d, "document.getElementById('out').textContent"); got != "clicked 1" {
		t.Errorf("page says %q", got)
	}
	// The click's fetch finished before Do returned: stability waits for it.
	if got := s.logged(); len(got) != 1 || got[0] != "clicked" {
		t.Errorf("server log %v", got)
	}
}

func TestPointerActions(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/pointer", `<div id=area style="width:200px;height:60px;background:#eee"
  ondblclick="log('dbl')" oncontextmenu="log('ctx'); return false" onmouseover="log('over')">area</div>
<div id=src draggable=true ondragstart="event.dataTransfer.setData('text/plain','x')" style="width:50px;height:30px;background:red">drag</div>
<div id=dst ondragover="event.preventDefault()" ondrop="event.preventDefault(); log('drop')" style="margin-top:40px;width:100px;height:50px;background:blue">here</div>
<script>window.events = []; function log(m) { events.push(m); }</script>`))
	area := target(t, d, "area")
	do(t, d, driver.Action{Op: "move", Target: area})
	do(t, d, driver.Action{Op: "double_click", Target: area})
	do(t, d, driver.Action{Op: "right_click", Target: area})
	do(t, d, driver.Action{Op: "drag", Target: target(t, d, "src"), Target2: target(t, d, "dst")})
	got := eval(t, d, "events.join(',')")
	for _, want := range []string{"over", "dbl", "ctx", "drop"} {
		if !strings.Contains(got, want) {
			t.Errorf("events %q lack %q", got, want)
		}
	}
}

func TestTypeReplacesContent(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/type", `<input id=name value="old name" oninput="window.inputs++" onchange="window.changes++">
<textarea id=area>old text</textarea><div id=ed contenteditable=true>old html</div>
<select id=size><option value=s>Small</option><option value=l>Large</option></select>
<script>window.inputs = 0; window.changes = 0;</script>`))
	res := do(t, d, driver.Action{Op: "type", Target: target(t, d, "name"), Text: "new name"})
	if res.Text != "new name" {
		t.Errorf("result %q", res.Text)
	}
	if got := eval(t, d, "document.getElementById('name').value"); got != "new name" {
		t.Errorf("value %q", got)
	}
	if eval(t, d, "inputs") == "0" || eval(t, d, "changes") != "1" {
		t.Errorf("inputs %s changes %s", eval(t, d, "inputs"), eval(t, d, "changes"))
	}
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "area"), Text: "line 1\nline 2"})
	if got := eval(t, d, "document.getElementById('area').value"); got != "line 1\nline 2" {
		t.Errorf("textarea %q", got)
	}
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "ed"), Text: "new html"})
	if got := eval(t, d, "document.getElementById('ed').textContent"); got != "new html" {
		t.Errorf("contenteditable %q", got)
	}
	do(t, d, driver.Action{Op: "type", Target: target(t, d, "size"), Text: "large"})
	if got := eval(t, d, "document.getElementById('size').value"); got != "l" {
		t.Errorf("select value %q", got)
	}
}

func TestKeyChordClears(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/key", `<input id=f value="some text"><form onsubmit="event.preventDefault(); window.sent = 1"><input id=g></form>`))
	f := target(t, d, "f")
	do(t, d, driver.Action{Op: "key", Text: "Ctrl+A", Target: f})
	do(t, d, driver.Action{Op: "key", Text: "Backspace"})
	if got := eval(t, d, "document.getElementById('f').value"); got != "" {
		t.Errorf("value after Ctrl+A, Backspace: %q", got)
	}
	do(t, d, driver.Action{Op: "key", Text: "Shift+a"})
	do(t, d, driver.Action{Op: "key", Text: "b"})
	if got := eval(t, d, "document.getElementById('f').value"); got != "Ab" {
		t.Errorf("typed keys %q", got)
	}
	do(t, d, driver.Action{Op: "enter", Target: target(t, d, "g")})
	if eval(t, d, "window.sent") != "1" {
		t.Error("Enter did not submit the form")
	}
	if _, err := d.Do(context.Background(), driver.Action{Op: "key", Text: "Hyper+Q"}); err == nil {
		t.Error("unknown modifier accepted")
	}
}

func TestCopyPaste(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/clip", `<p id=src>Quarterly report 2024</p><input id=dst value="">
<input id=cut value="cut me">
<script>
window.log = [];
document.addEventListener('copy', (e) => log.push('copy'));
document.addEventListener('cut', (e) => log.push('cut'));
document.addEventListener('paste', (e) => log.push('paste:' + e.clipboardData.getData('text/plain')));
</script>`))
	res := do(t, d, driver.Action{Op: "copy", Target: target(t, d, "src")})
	if res.Text != "Quarterly report 2024" {
		t.Errorf("copied %q", res.Text)
	}
	res = do(t, d, driver.Action{Op: "paste", Target: target(t, d, "dst")})
	if res.Text != "Quarterly report 2024" {
		t.Errorf("pasted %q", res.Text)
	}
	if got := eval(t, d, "document.getElementById('dst').value"); got != "Quarterly report 2024" {
		t.Errorf("field after paste %q", got)
	}
	res = do(t, d, driver.Action{Op: "cut", Target: target(t, d, "cut")})
	if res.Text != "cut me" || eval(t, d, "document.getElementById('cut').value") != "" {
		t.Errorf("cut %q, field %q", res.Text, eval(t, d, "document.getElementById('cut').value"))
	}
	if got := eval(t, d, "log.join('|')"); got != "copy|paste:Quarterly report 2024|cut" {
		t.Errorf("page handlers saw %q", got)
	}
	// A handler that sets clipboardData decides what is copied.
	open(t, d, s.page("/clip2", `<p id=p>visible</p><script>
document.addEventListener('copy', (e) => { e.clipboardData.setData('text/plain', 'from handler'); e.preventDefault(); });</script>`))
	if res := do(t, d, driver.Action{Op: "copy", Target: target(t, d, "p")}); res.Text != "from handler" {
		t.Errorf("handler copy %q", res.Text)
	}
}

func TestSelectText(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/sel", `<p id=p>The quick <b>brown
   fox</b> jumps over the lazy dog.</p>`))
	res := do(t, d, driver.Action{Op: "select_text", Text: "quick brown fox jumps"})
	if res.Text != "quick brown\n   fox jumps" {
		t.Errorf("selected %q", res.Text)
	}
	if got := eval(t, d, "getSelection().toString().replace(/\\s+/g, ' ')"); got != "quick brown fox jumps" {
		t.Errorf("page selection %q", got)
	}
	res = do(t, d, driver.Action{Op: "copy"})
	if !strings.HasPrefix(res.Text, "quick brown") {
		t.Errorf("copy of the selection %q", res.Text)
	}
	if _, err := d.Do(context.Background(), driver.Action{Op: "select_text", Text: "not there"}); err == nil {
		t.Error("selecting missing text succeeded")
	}
}

func TestTabsAndBack(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	first := s.page("/first", `<title>First page</title><a id=next href="/second">next</a>`)
	s.page("/second", `<title>Second page</title><p>two</p>`)
	third := s.page("/third", `<title>Third page</title>`)
	open(t, d, first)
	do(t, d, driver.Action{Op: "click", Target: target(t, d, "next")})
	if got := eval(t, d, "document.title"); got != "Second page" {
		t.Fatalf("after the link: %q", got)
	}
	do(t, d, driver.Action{Op: "back"})
	if got := eval(t, d, "document.title"); got != "First page" {
		t.Errorf("after back: %q", got)
	}
	res := do(t, d, driver.Action{Op: "new_tab", Text: third})
	if res.Window == nil || res.Window.Title != "Third page" {
		t.Fatalf("new tab window %+v", res.Window)
	}
	res = do(t, d, driver.Action{Op: "switch_window", Text: "first"})
	if res.Window == nil || res.Window.Title != "First page" || eval(t, d, "document.title") != "First page" {
		t.Fatalf("switch window %+v", res.Window)
	}
	do(t, d, driver.Action{Op: "switch_window", Text: "Third"})
	do(t, d, driver.Action{Op: "close_tab"})
	if got := eval(t, d, "document.title"); got == "Third page" {
		t.Errorf("still on the closed tab")
	}
	if _, err := d.Do(context.Background(), driver.Action{Op: "switch_window", Text: "Third"}); err == nil {
		t.Error("switched to a closed tab")
	}
}

func TestCoveredElementFails(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/covered", `<button id=b onclick="window.hit = 1">Under</button>
<div id=overlay class="modal backdrop" style="position:fixed;inset:0;background:rgba(0,0,0,.3)">Please wait</div>`))
	_, err := d.Do(context.Background(), driver.Action{Op: "click", Target: target(t, d, "b")})
	if err == nil || !strings.Contains(err.Error(), "covered by div#overlay.modal.backdrop") {
		t.Fatalf("error %v, want one naming the overlay", err)
	}
	if eval(t, d, "window.hit") == "1" {
		t.Error("the covered button was clicked")
	}
}

// A button another one half covers is clicked where it shows, and a click
// there reaches it, not the one on top.
func TestPartlyCoveredElementClickedWhereItShows(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/overlap", `<button id=one style="position:absolute;left:20px;top:20px;width:80px;height:30px" onclick="window.hit = 'one'">ONE</button>
<button id=two style="position:absolute;left:50px;top:10px;width:80px;height:50px" onclick="window.hit = 'two'">TWO</button>`))
	if _, err := d.Do(context.Background(), driver.Action{Op: "click", Target: target(t, d, "one")}); err != nil {
		t.Fatalf("clicking the half-covered button: %v", err)
	}
	if got := eval(t, d, "window.hit"); got != "one" {
		t.Errorf("the click reached %q, want the button under it, one", got)
	}
}

func TestActionTimeout(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/slow", `<button id=b onclick="fetch('/hang')">Load</button>`))
	hang := make(chan struct{})
	defer close(hang)
	s.handle("/hang", func(w http.ResponseWriter, r *http.Request) { <-hang })
	start := time.Now()
	_, err := d.Do(context.Background(), driver.Action{Op: "wait", Text: "never shown", Timeout: 300 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "timed out") || time.Since(start) > 2*time.Second {
		t.Errorf("wait for missing text: %v after %v", err, time.Since(start))
	}
	start = time.Now()
	_, err = d.Do(context.Background(), driver.Action{Op: "click", Target: target(t, d, "b"), Timeout: 1500 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "in flight") || time.Since(start) > 4*time.Second {
		t.Errorf("click with a hanging request: %v after %v", err, time.Since(start))
	}
}

// TestClickButtons: click's button option presses that mouse button, as a
// page listening to mouseup sees it (0 primary … 4 forward). The page
// keeps the back and forward buttons from moving in its history.
func TestClickButtons(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/buttons", `<button id=b onmouseup="event.preventDefault(); window.seen.push(event.button)">Press</button>
<script>window.seen = []; document.addEventListener('contextmenu', (e) => e.preventDefault());</script>`))
	b := target(t, d, "b")
	for _, button := range []string{"", "middle", "right", "back", "forward", "left"} {
		do(t, d, driver.Action{Op: "click", Target: b, Button: button})
	}
	if got := eval(t, d, "seen.join(',')"); got != "0,1,2,3,4,0" {
		t.Errorf("the page saw buttons %q, want 0,1,2,3,4,0", got)
	}
}
