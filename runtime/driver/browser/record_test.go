package browser

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/kb"
)

const recordHome = `<!doctype html><html><head><title>Wiki</title></head><body>
<h1>Wiki</h1>
<form action="/search" method="get">
  <label for=q>Search</label><input id=q name=q type=search>
  <button id=go type=submit>Search</button>
</form>
</body></html>`

const recordResults = `<!doctype html><html><head><title>Results</title></head><body>
<h1>Results for %[1]s</h1>
<ul id=results>
  <li><a href="#" onclick="document.getElementById('chosen').textContent = this.textContent; return false">%[1]s (mountain)</a></li>
  <li><a href="#" onclick="document.getElementById('chosen').textContent = this.textContent; return false">%[1]s National Park</a></li>
  <li><a href="#" onclick="document.getElementById('chosen').textContent = this.textContent; return false">%[1]s Airport</a></li>
</ul>
<p id=chosen></p>
<label for=notes>Notes</label><textarea id=notes></textarea>
</body></html>`

func recordSite(t *testing.T) *site {
	s := newSite(t)
	s.page("/", recordHome)
	s.handle("/search", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		q := strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;", `"`, "&quot;").Replace(r.URL.Query().Get("q"))
		fmt.Fprintf(w, recordResults, q)
	})
	return s
}

// person drives the page through CDP input events only.
type person struct {
	t *testing.T
	p *rod.Page
}

func (h person) waitFor(sel string) *rod.Element {
	h.t.Helper()
	el, err := h.p.Timeout(10 * time.Second).Element(sel)
	if err != nil {
		h.t.Fatalf("waiting for %s: %v", sel, err)
	}
	return el.CancelTimeout()
}

func (h person) click(sel string) {
	h.t.Helper()
	if err := h.waitFor(sel).Click("left", 1); err != nil {
		h.t.Fatalf("click %s: %v", sel, err)
	}
	time.Sleep(150 * time.Millisecond)
}

func (h person) typeText(s string) {
	h.t.Helper()
	for _, r := range s {
		if err := h.p.Keyboard.Type(input.Key(r)); err != nil {
			h.t.Fatalf("type %q: %v", s, err)
		}
	}
	time.Sleep(150 * time.Millisecond)
}

func (h person) press(k input.Key) {
	h.t.Helper()
	if err := h.p.Keyboard.Type(k); err != nil {
		h.t.Fatalf("press: %v", err)
	}
	time.Sleep(150 * time.Millisecond)
}

func (h person) stopChord() {
	h.t.Helper()
	if err := h.p.KeyActions().Press(input.ControlLeft, input.ShiftLeft).Type(input.KeyX).Do(); err != nil {
		h.t.Fatalf("stop chord: %v", err)
	}
}

func TestRecordDemonstration(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := Start(ctx, driver.Options{ActionTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	defer d.Close()
	s := recordSite(t)

	type result struct {
		tr  *trace.Trace
		err error
	}
	done := make(chan result, 1)
	go func() {
		tr, err := d.Record(ctx, s.URL+"/", RecordOptions{})
		done <- result{tr, err}
	}()
	d.life.Lock()
	h := person{t: t, p: d.cur.p}
	d.life.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		info, err := h.p.Info()
		if err == nil && strings.HasPrefix(info.URL, s.URL) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not open: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	h.waitFor("#q")
	time.Sleep(200 * time.Millisecond)

	h.click("#q")
	h.typeText("Kilimanjaro")
	h.press(input.Enter)
	h.waitFor("#results")
	time.Sleep(200 * time.Millisecond)
	h.click("#results li:nth-child(1) a")
	h.click("#notes")
	h.typeText("Tallest")
	h.stopChord()

	var res result
	select {
	case res = <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("the stop chord did not end the recording")
	}
	if res.err != nil {
		t.Fatalf("record: %v", res.err)
	}
	tr := res.tr
	if err := tr.Validate(); err != nil {
		t.Fatalf("validate: %v", err)
	}
	var kinds []string
	for _, e := range tr.Events {
		kinds = append(kinds, string(e.Kind))
	}
	t.Logf("events: %s", strings.Join(kinds, " "))

	// The story, in order: open, click the box, type, Enter, the search
	// page caused by it, a click on the first result, typing in the notes.
	find := func(from int, ok func(e *trace.Event) bool, what string) int {
		t.Helper()
		for i := from; i < len(tr.Events); i++ {
			if ok(&tr.Events[i]) {
				return i
			}
		}
		t.Fatalf("no %s after event %d in %s", what, from, strings.Join(kinds, " "))
		return -1
	}
	i := find(0, func(e *trace.Event) bool { return e.Kind == trace.KindNavigate && e.URL == s.URL+"/" && e.Cause == "" }, "first navigate")
	i = find(i, func(e *trace.Event) bool {
		return e.Kind == trace.KindClick && e.Target != nil && e.Target.ID == "q" && e.Target.Role == "textbox" && e.Target.Name == "Search"
	}, "click on the search box")
	i = find(i, func(e *trace.Event) bool {
		return e.Kind == trace.KindInput && e.Target != nil && e.Target.ID == "q" && e.Value == "Kilimanjaro"
	}, "input of Kilimanjaro")
	enter := find(i, func(e *trace.Event) bool { return e.Kind == trace.KindKeyDown && e.Key.Key == "Enter" }, "Enter")
	i = find(enter, func(e *trace.Event) bool {
		return e.Kind == trace.KindNavigate && strings.Contains(e.URL, "/search?q=Kilimanjaro")
	}, "search navigate")
	if c := tr.Events[i].Cause; c == "" {
		t.Errorf("the search navigate has no cause")
	}
	i = find(i, func(e *trace.Event) bool {
		return e.Kind == trace.KindClick && e.Target != nil && e.Target.Role == "link" && e.Target.Name == "Kilimanjaro (mountain)"
	}, "click on the first result")
	if c := tr.Events[i].Target.Context; c == nil || c.List == nil || c.List.Index != 0 || c.List.Size != 3 {
		t.Errorf("the result's list context: %+v", c)
	}
	if sid := tr.Events[i].Snapshot; sid == "" || len(tr.Snapshots[sid].Elements) == 0 {
		t.Errorf("the result click has no snapshot")
	}
	find(i, func(e *trace.Event) bool {
		return e.Kind == trace.KindInput && e.Target != nil && e.Target.ID == "notes" && e.Value == "Tallest"
	}, "input in the notes")
	for _, e := range tr.Events {
		if e.Kind == trace.KindKeyDown && e.Key.Ctrl && e.Key.Shift {
			t.Errorf("the stop chord was recorded: %+v", e)
		}
	}

	data, err := trace.Marshal(tr)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if _, err := trace.Parse(data); err != nil {
		t.Fatalf("the written trace does not read back: %v", err)
	}
	out, err := compiler.Compile(tr, compiler.Options{Filename: "demo.trace.json"})
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, out.Source)
	}
	src := string(out.Source)
	t.Logf("compiled:\n%s", src)
	for _, want := range []string{`open("` + s.URL + `/")`, `"Kilimanjaro"`, `id: "q"`, `id: "notes"`} {
		if !strings.Contains(src, want) {
			t.Errorf("the workflow lacks %s", want)
		}
	}

	// Run the compiled workflow on the same site with new inputs; the one
	// judgement (which result) is answered by a stand-in for the LLM.
	file, task, info := checkedTask(t, "demo.cog", out.Source)
	in := runtime.New(file, task, info, d, runtime.Options{
		Inputs:    map[string]string{"search": "Mount Kenya", "notes": "Second highest"},
		Answerers: []dependency.Answerer{firstStartingWith{}},
	})
	if _, err := in.Run(ctx); err != nil {
		t.Fatalf("run: %v", err)
	}
	var state struct {
		Chosen string `json:"chosen"`
		Notes  string `json:"notes"`
		URL    string `json:"url"`
	}
	res2, err := h.p.Eval(`() => ({chosen: document.getElementById('chosen').textContent, notes: document.getElementById('notes').value, url: location.href})`)
	if err != nil {
		t.Fatalf("page state: %v", err)
	}
	if err := res2.Value.Unmarshal(&state); err != nil {
		t.Fatal(err)
	}
	if state.Chosen != "Mount Kenya (mountain)" || state.Notes != "Second highest" || !strings.Contains(state.URL, "q=Mount+Kenya") {
		t.Errorf("after the run: %+v", state)
	}
}

// firstStartingWith stands in for the LLM: it picks the first candidate
// link whose name starts with the dependency's first input.
type firstStartingWith struct{}

func (firstStartingWith) Name() string { return "test" }

func (firstStartingWith) Answer(_ context.Context, r *dependency.Request) (*dependency.Answer, error) {
	if len(r.Inputs) == 0 {
		return nil, nil
	}
	for _, c := range r.Candidates {
		if c.Role == "link" && strings.HasPrefix(c.Name, r.Inputs[0]) {
			return &dependency.Answer{Element: c}, nil
		}
	}
	return nil, nil
}

func TestRecordStopsOnCancel(t *testing.T) {
	needChromium(t)
	s := recordSite(t)
	// Cancel once the page is open (not after a fixed time: a loaded
	// machine took longer than that to open it, and the trace was empty).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, h, wait := startRecordingWith(t, ctx, s.URL+"/", RecordOptions{StopChord: "Alt+Q"})
	if err := h.p.Timeout(10 * time.Second).Wait(rod.Eval(`() => document.readyState === "complete"`)); err != nil {
		t.Fatal(err)
	}
	cancel()
	tr := wait()
	if len(tr.Events) == 0 || tr.Events[0].Kind != trace.KindNavigate {
		t.Errorf("want the opening navigate, got %+v", tr.Events)
	}
}

// TestRecordKeepsTheLastActionOnCancel: a click made just before the
// recording is stopped (Ctrl-C in `cogflow record`) is in the trace; the
// events already sent by the page are taken before the recording ends.
func TestRecordKeepsTheLastActionOnCancel(t *testing.T) {
	needChromium(t)
	s := recordSite(t)
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		_, h, wait := startRecordingWith(t, ctx, s.URL+"/", RecordOptions{StopChord: "Alt+Q"})
		if err := h.waitFor("#q").Click("left", 1); err != nil {
			t.Fatal(err)
		}
		cancel() // at once: the click's report may still be on its way
		tr := wait()
		clicked := false
		for _, e := range tr.Events {
			clicked = clicked || e.Kind == trace.KindClick
		}
		if !clicked {
			t.Fatalf("try %d: the click made before the stop is not in the trace: %+v", i, tr.Events)
		}
	}
}

func TestParseStopChord(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want stopChord
		bad  bool
	}{
		{"", stopChord{Key: "x", Ctrl: true, Shift: true}, false},
		{"Alt+q", stopChord{Key: "q", Alt: true}, false},
		{"none", stopChord{Off: true}, false},
		{"Shift+X", stopChord{}, true},
		{"Ctrl+Hyper+X", stopChord{}, true},
		{"Ctrl+Enter", stopChord{}, true},
	} {
		got, err := parseStopChord(tc.in)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("parseStopChord(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

const recordClipboardPage = `<!doctype html><html><head><title>Article</title></head><body>
<h1>Kilimanjaro</h1>
<p id=intro>Kilimanjaro is a dormant volcano in Tanzania.</p>
<label for=notes>Notes</label><textarea id=notes></textarea>
</body></html>`

// startRecording records on a fresh browser in the background; the
// returned function waits for the trace.
func startRecording(t *testing.T, ctx context.Context, url string) (*Driver, person, func() *trace.Trace) {
	t.Helper()
	return startRecordingWith(t, ctx, url, RecordOptions{})
}

// startRecordingWith is startRecording with options.
func startRecordingWith(t *testing.T, ctx context.Context, url string, opts RecordOptions) (*Driver, person, func() *trace.Trace) {
	t.Helper()
	d, err := Start(ctx, driver.Options{ActionTimeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	type result struct {
		tr  *trace.Trace
		err error
	}
	done := make(chan result, 1)
	go func() {
		tr, err := d.Record(ctx, url, opts)
		done <- result{tr, err}
	}()
	d.life.Lock()
	h := person{t: t, p: d.cur.p}
	d.life.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if info, err := h.p.Info(); err == nil && info.URL == url {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not open")
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	return d, h, func() *trace.Trace {
		t.Helper()
		select {
		case res := <-done:
			if res.err != nil {
				t.Fatalf("record: %v", res.err)
			}
			if err := res.tr.Validate(); err != nil {
				t.Fatalf("validate: %v", err)
			}
			return res.tr
		case <-time.After(15 * time.Second):
			t.Fatal("the recording did not end")
			return nil
		}
	}
}

func TestRecordSelectionClipboardAndClose(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s := recordSite(t)
	d, h, wait := startRecording(t, ctx, s.page("/article", recordClipboardPage))

	// Double click a word (selects it), copy it, right click the
	// paragraph, paste into the notes.
	box, err := h.waitFor("#intro").Shape()
	if err != nil {
		t.Fatal(err)
	}
	b := box.Box()
	if err := h.p.Mouse.MoveTo(proto.Point{X: b.X + 10, Y: b.Y + b.Height/2}); err != nil {
		t.Fatal(err)
	}
	if err := h.p.Mouse.Click(proto.InputMouseButtonLeft, 2); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond) // the selection is debounced
	if err := h.p.KeyActions().Press(input.ControlLeft).Type(input.KeyC).Do(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	if err := h.p.Mouse.Click(proto.InputMouseButtonRight, 1); err != nil {
		t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
	h.click("#notes")
	if err := h.p.KeyActions().Press(input.ControlLeft).Type(input.KeyV).Do(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)

	// Closing the tab ends the recording.
	d.life.Lock()
	id := d.cur.id
	d.life.Unlock()
	if _, err := d.b.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": id}); err != nil {
		t.Fatal(err)
	}
	tr := wait()

	var kinds []string
	by := map[trace.Kind][]trace.Event{}
	for _, e := range tr.Events {
		kinds = append(kinds, string(e.Kind))
		by[e.Kind] = append(by[e.Kind], e)
	}
	t.Logf("events: %s", strings.Join(kinds, " "))
	if n := len(by[trace.KindDblClick]); n != 1 || by[trace.KindDblClick][0].Target.ID != "intro" {
		t.Errorf("want one dblclick on #intro, got %d", n)
	}
	if len(by[trace.KindClick]) != 1 { // only the click on the notes: the double click's clicks are folded
		t.Errorf("clicks: %d", len(by[trace.KindClick]))
	}
	if sel := by[trace.KindSelect]; len(sel) != 1 || sel[0].Text != "Kilimanjaro" || sel[0].Target.ID != "intro" {
		t.Errorf("select: %+v", sel)
	}
	if c := by[trace.KindCopy]; len(c) != 1 || c[0].Text != "Kilimanjaro" {
		t.Errorf("copy: %+v", c)
	}
	if len(by[trace.KindRightClick]) != 1 {
		t.Errorf("no right click")
	}
	if p := by[trace.KindPaste]; len(p) != 1 || p[0].Target.ID != "notes" {
		t.Errorf("paste: %+v", p)
	}
	if _, err := compiler.Compile(tr, compiler.Options{}); err != nil {
		t.Errorf("compile: %v", err)
	}
}

// checkedTask parses and checks a compiled workflow, as a run would, and
// returns its (last) task.
func checkedTask(t *testing.T, name string, src []byte) (*ast.File, *ast.Task, *check.Info) {
	t.Helper()
	file, diags := syntax.Parse(name, src)
	if file == nil || diags.HasErrors() {
		t.Fatalf("parse: %v", diags.Err())
	}
	info, diags := check.Check(file, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatalf("check: %v", diags.Err())
	}
	var task *ast.Task
	for _, dcl := range file.Decls {
		if tk, ok := dcl.(*ast.Task); ok {
			task = tk
		}
	}
	return file, task, info
}
