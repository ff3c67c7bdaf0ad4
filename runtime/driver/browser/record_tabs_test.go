package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/runtime/trace"
)

const tabsHome = `<!doctype html><html><head><title>Tabs home</title></head><body>
<h1>Home</h1>
<a id=open href="/tab-notes" target="_blank">Open the notes</a>
</body></html>`

const tabsNotes = `<!doctype html><html><head><title>Tab notes</title></head><body>
<label for=notes>Notes</label><textarea id=notes></textarea>
</body></html>`

// pageAt waits for a tab showing url and returns it.
func pageAt(t *testing.T, b *rod.Browser, url string) *rod.Page {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if pages, err := b.Pages(); err == nil {
			for _, p := range pages {
				if info, err := p.Info(); err == nil && info.URL == url {
					return p
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no tab shows %s", url)
	return nil
}

// TestRecordTabs: a link opening a tab, work in that tab, a switch back, a
// tab the person opens, and one they close are all recorded, in order,
// and compile into new_tab and switch_window steps.
func TestRecordTabs(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := newSite(t)
	notesURL := s.page("/tab-notes", tabsNotes)
	thirdURL := s.page("/third", `<!doctype html><title>Third</title><p>third</p>`)
	d, h, wait := startRecording(t, ctx, s.page("/tabs", tabsHome))

	h.click("#open") // target=_blank: a new tab, in front
	notes := person{t: t, p: pageAt(t, d.b, notesURL)}
	time.Sleep(300 * time.Millisecond) // the recorder is installed in the new tab
	notes.click("#notes")
	notes.typeText("hi")

	if _, err := h.p.Activate(); err != nil { // back to the first tab
		t.Fatal(err)
	}
	h.click("h1")
	if _, err := d.b.Page(proto.TargetCreateTarget{URL: thirdURL}); err != nil { // Ctrl+T and an address
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	if err := notes.p.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if _, err := h.p.Activate(); err != nil {
		t.Fatal(err)
	}
	if err := h.p.KeyActions().Press(input.ControlLeft, input.ShiftLeft).Type(input.KeyX).Do(); err != nil {
		t.Fatal(err)
	}
	tr := wait()

	var got []string
	var opener, switchBack, openedByPerson, closed *trace.Event
	for i := range tr.Events {
		e := &tr.Events[i]
		got = append(got, string(e.Kind))
		switch {
		case e.Kind == trace.KindTabOpen && opener == nil:
			opener = e
		case e.Kind == trace.KindTabOpen:
			openedByPerson = e
		case e.Kind == trace.KindTabSwitch && e.Window != nil && e.Window.Title == "Tabs home":
			switchBack = e
		case e.Kind == trace.KindTabClose:
			closed = e
		}
	}
	t.Logf("events: %s", strings.Join(got, " "))
	if opener == nil || opener.Cause == "" || tr.Events[indexOf(tr, opener.Cause)].Kind != trace.KindClick {
		t.Errorf("the tab the link opened is not recorded as caused by the click: %+v", opener)
	}
	if switchBack == nil {
		t.Errorf("the switch back to the first tab is not recorded")
	}
	if openedByPerson == nil || openedByPerson.Cause != "" {
		t.Errorf("the tab the person opened: %+v", openedByPerson)
	}
	if closed == nil || closed.Window == nil || closed.Window.URL != notesURL {
		t.Errorf("the closed notes tab: %+v", closed)
	}
	var typed bool
	for _, e := range tr.Events {
		if e.Kind == trace.KindInput && e.Value == "hi" && e.Target != nil && e.Target.ID == "notes" {
			typed = true
		}
	}
	if !typed {
		t.Errorf("the typing in the new tab is missing")
	}

	res, err := compiler.Compile(tr, compiler.Options{})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	src := string(res.Source)
	t.Logf("compiled:\n%s", src)
	// In order: the link's click, the switch to the tab it opened, the
	// typing there, back to the first tab, the person's new tab (one step
	// with its address), and the notes tab closed from behind.
	at := 0
	for _, want := range []string{`click(link(name: "Open the notes"`, `switch_window("Tab notes")`, `type(textbox(`,
		`switch_window("Tabs home")`, `click(heading(`, `new_tab("` + thirdURL + `")`, `switch_window("Tab notes")`, `close_tab()`} {
		i := strings.Index(src[at:], want)
		if i < 0 {
			t.Fatalf("the compiled workflow lacks %s after offset %d", want, at)
		}
		at += i + len(want)
	}
	if strings.Count(src, "open(") != 1 {
		t.Errorf("a tab's first load became an open step")
	}
}

func indexOf(tr *trace.Trace, id string) int {
	for i, e := range tr.Events {
		if e.ID == id {
			return i
		}
	}
	return 0
}

// TestRecordScroll: a person scrolls down a long page with the wheel and
// clicks a button that was below the fold. The scroll is recorded with the
// position reached; the compiled workflow leaves it to the click, which
// scrolls its target into view in any run.
func TestRecordScroll(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := newSite(t)
	_, h, wait := startRecording(t, ctx, s.page("/long", `<!doctype html><title>Long</title>
<div style="height: 3000px">top</div><button id=far onclick="this.textContent='done'">Far away</button>`))
	if err := h.p.Mouse.MoveTo(proto.Point{X: 200, Y: 200}); err != nil {
		t.Fatal(err)
	}
	if err := h.p.Mouse.Scroll(0, 2600, 4); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond) // the scroll rests
	h.click("#far")
	if err := h.p.KeyActions().Press(input.ControlLeft, input.ShiftLeft).Type(input.KeyX).Do(); err != nil {
		t.Fatal(err)
	}
	tr := wait()
	var scroll *trace.Event
	for i := range tr.Events {
		if tr.Events[i].Kind == trace.KindScroll {
			scroll = &tr.Events[i]
		}
	}
	if scroll == nil || scroll.Y < 1000 {
		t.Fatalf("no scroll down recorded: %+v", scroll)
	}
	res, err := compiler.Compile(tr, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	if strings.Contains(src, "scroll(") || !strings.Contains(src, `click(button(name: "Far away"`) {
		t.Errorf("want the click without a scroll step:\n%s", src)
	}
	if !strings.Contains(src, scroll.ID+", ") && !strings.Contains(src, scroll.ID+"…") {
		t.Errorf("the scroll event %s is not cited by the click:\n%s", scroll.ID, src)
	}
}
