package browser

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

//go:embed record.js
var recordJS string

// DefaultStopChord is the key stopChord that ends a recording when
// RecordOptions.StopChord is empty. The page never sees it.
const DefaultStopChord = "Ctrl+Shift+X"

// recordBinding is the function the recorder exposes to pages.
const recordBinding = "__cogflowRecord"

// RecordOptions tune Record.
type RecordOptions struct {
	// StopChord is the stopChord that stops the recording, like
	// "Ctrl+Shift+X" (the default) or "Alt+Q"; "none" disables it.
	StopChord string
	// Warn hears about events the page reported that could not be
	// recorded (a click with no element to record it against); they are
	// left out, and the recording goes on. Nil writes them to stderr.
	Warn func(error)
	// Progress hears of every event as it is recorded, so a person sees
	// what is being captured (and a caller knows the page reported in).
	// It is called with the recorder locked: it must not block.
	Progress func(trace.Event)
}

// stopChord is a parsed stop chord, as record.js reads it.
type stopChord struct {
	Key   string `json:"key"`
	Ctrl  bool   `json:"ctrl"`
	Alt   bool   `json:"alt"`
	Shift bool   `json:"shift"`
	Meta  bool   `json:"meta"`
	Off   bool   `json:"off"`
}

func parseStopChord(s string) (stopChord, error) {
	if s == "" {
		s = DefaultStopChord
	}
	if strings.EqualFold(s, "none") {
		return stopChord{Off: true}, nil
	}
	var c stopChord
	parts := strings.Split(s, "+")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if i == len(parts)-1 {
			if len([]rune(p)) != 1 {
				return c, fmt.Errorf("browser: record: stop chord %q: the last key must be one character", s)
			}
			c.Key = strings.ToLower(p)
			break
		}
		switch strings.ToLower(p) {
		case "ctrl", "control":
			c.Ctrl = true
		case "alt", "option":
			c.Alt = true
		case "shift":
			c.Shift = true
		case "meta", "cmd", "command":
			c.Meta = true
		default:
			return c, fmt.Errorf("browser: record: stop chord %q: unknown modifier %q", s, p)
		}
	}
	if !c.Ctrl && !c.Alt && !c.Meta {
		return c, fmt.Errorf("browser: record: stop chord %q needs Ctrl, Alt or Meta", s)
	}
	return c, nil
}

// recordScript is installed in every document of the recorded tab: a
// private copy of the walker (sharing the driver script's closed shadow
// roots when it is there) and record.js.
func recordScript(c stopChord) string {
	cj, _ := json.Marshal(c)
	return "(() => {\n'use strict';\nconst G = window;\n" +
		"const S = (G.__cogflow_v1 && G.__cogflow_v1.S) || { closedRoots: new WeakMap(), mut: 0 };\n" +
		"function flush() {}\nconst CHORD = " + string(cj) + ";\n" +
		walkerJS + recordJS + "\n})();"
}

// recMsg is what record.js reports.
type recMsg struct {
	K      string      `json:"k"`
	URL    string      `json:"url"`
	Title  string      `json:"title"`
	Top    bool        `json:"top"`
	Button string      `json:"button"`
	X      float64     `json:"x"`
	Y      float64     `json:"y"`
	Mods   *trace.Key  `json:"mods"`
	Key    *trace.Key  `json:"key"`
	Text   string      `json:"text"`
	Value  string      `json:"value"`
	Snap   *walkResult `json:"snap"`
	TI     int         `json:"ti"`
	Detail int         `json:"detail"`
	// Sel is a CSS selector that matches the target alone.
	Sel string `json:"sel"`
	// Part is set for a part of an svg drawing (a shape, a text), which
	// Observe does not walk: only Sel finds it again.
	Part bool `json:"part"`
	// Secret is set for a password field: Text, Value and Key come masked.
	Secret bool `json:"secret"`
	// Files are the names of the files chosen for a file input.
	Files []string `json:"files"`
	// Form is the form the target submits with, if any.
	Form *recForm `json:"form"`
}

// recorder builds a trace from the page's reports.
type recorder struct {
	mu       sync.Mutex
	tr       *trace.Trace
	progress func(trace.Event) // RecordOptions.Progress
	start    time.Time
	last     int64
	snaps    int
	lastURL  string
	// lastAct is the index of the last click, submit or Enter keydown: a
	// navigation soon after it is its effect.
	lastAct     int
	lastActTime time.Time
	lastActTab  *recTab
	// lastInput is the last input event of each field, by path.
	lastInput map[string]int
	// tabs are the recorded tabs by CDP session; active is the one the
	// last event came from.
	tabs   map[string]*recTab
	active *recTab
	// warnf hears about events left out (RecordOptions.Warn).
	warnf func(error)
}

// warn reports an event left out of the trace.
func (r *recorder) warn(err error) {
	if r.warnf != nil {
		r.warnf(err)
		return
	}
	fmt.Fprintln(os.Stderr, "warning:", err)
}

// recTab is one recorded tab.
type recTab struct {
	t          *tab
	url, title string
	script     string // the identifier of the installed recorder script
	dialog     *openDialog
}

// switchTo records a tab switch when an event comes from another tab than
// the last one: a person acts only in the tab in front of them. The tab a
// recorded tab_open just opened is announced the same way, which the
// compiler folds into its new_tab.
func (r *recorder) switchTo(rt *recTab, at int64) {
	if r.active == rt {
		return
	}
	first := r.active == nil && len(r.tr.Events) == 0
	r.active = rt
	if first {
		return
	}
	r.add(trace.Event{Time: at, Kind: trace.KindTabSwitch, Window: &trace.Window{ID: rt.t.id, Title: rt.title, URL: rt.url}})
}

// opened records a tab the page or the person opened.
func (r *recorder) opened(rt *recTab, openerClicked bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := trace.Event{Time: r.now(), Kind: trace.KindTabOpen, Window: &trace.Window{ID: rt.t.id, URL: rt.url}}
	if openerClicked && r.lastAct >= 0 && time.Since(r.lastActTime) < 3*time.Second {
		e.Cause = r.tr.Events[r.lastAct].ID
		r.lastAct = -1
	}
	r.add(e)
}

// closed records a recorded tab closing; it reports whether none is left.
func (r *recorder) closed(session string) (last bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt := r.tabs[session]
	if rt == nil {
		return false
	}
	delete(r.tabs, session)
	if len(r.tabs) > 0 {
		r.add(trace.Event{Time: r.now(), Kind: trace.KindTabClose, Window: &trace.Window{ID: rt.t.id, Title: rt.title, URL: rt.url}})
	}
	if r.active == rt {
		r.active = nil
	}
	return len(r.tabs) == 0
}

func (r *recorder) now() int64 {
	ms := time.Since(r.start).Milliseconds()
	if ms < r.last {
		ms = r.last
	}
	r.last = ms
	return ms
}

func (r *recorder) add(e trace.Event) int {
	e.ID = "e" + strconv.Itoa(len(r.tr.Events)+1)
	r.tr.Events = append(r.tr.Events, e)
	if r.progress != nil {
		r.progress(e)
	}
	return len(r.tr.Events) - 1
}

// handle turns one report of a tab into events; it returns true on the
// stop chord.
func (r *recorder) handle(from *recTab, payload string) bool {
	m, ok := parseRecMsg(payload)
	return ok && r.handleMsg(from, m)
}

// parseRecMsg decodes one report of a page; false for one that is not.
func parseRecMsg(payload string) (*recMsg, bool) {
	m := &recMsg{TI: -1}
	if err := json.Unmarshal([]byte(payload), m); err != nil {
		return nil, false
	}
	return m, true
}

// handleMsg turns one decoded report of a tab into events; it returns true
// on the stop chord.
func (r *recorder) handleMsg(from *recTab, m *recMsg) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.K == "stop" {
		return true
	}
	if m.Top {
		from.url, from.title = m.URL, m.Title
	}
	if m.K == "navigate" && (!m.Top || m.URL == "" || m.URL == "about:blank") {
		return false
	}
	e := trace.Event{Time: r.now()}
	switch m.K {
	case "navigate":
		e.Kind, e.URL = trace.KindNavigate, m.URL
		e.Window = &trace.Window{ID: from.t.id, Title: m.Title, URL: m.URL}
		// A navigation soon after a click, submit or Enter in the same tab
		// is its effect.
		if r.lastAct >= 0 && r.lastActTab == from {
			if time.Since(r.lastActTime) < 3*time.Second {
				e.Cause = r.tr.Events[r.lastAct].ID
			}
			r.lastAct = -1
		}
		r.lastURL = m.URL
		if len(r.tr.Events) == 0 && r.tr.Start.URL == "" {
			r.tr.Start.URL = m.URL
		}
		r.switchTo(from, e.Time)
		r.add(e)
		return false
	case "click", "dblclick", "rightclick", "middleclick":
		e.Kind, e.Button, e.X, e.Y = trace.Kind(m.K), m.Button, m.X, m.Y
		if m.Mods != nil && (m.Mods.Ctrl || m.Mods.Alt || m.Mods.Shift || m.Mods.Meta) {
			e.Key = m.Mods
		}
	case "keydown":
		if m.Key == nil || m.Key.Key == "" || trace.ModifierKey(m.Key.Key) {
			return false // modifiers are carried by the next key
		}
		e.Kind, e.Key, e.Text = trace.KindKeyDown, m.Key, m.Text
	case "drag_start", "drop", "scroll":
		e.Kind, e.X, e.Y = trace.Kind(m.K), m.X, m.Y
	case "input", "change", "select", "copy", "cut", "paste", "submit":
		e.Kind, e.Text, e.Value = trace.Kind(m.K), m.Text, m.Value
	case "upload":
		if len(m.Files) == 0 {
			return false // the chooser was cancelled, or the files cleared
		}
		e.Kind, e.Files = trace.KindUpload, m.Files
	default:
		return false
	}
	if m.URL != "" && m.URL != r.lastURL {
		e.URL = m.URL
	}
	if m.Snap != nil && m.TI >= 0 && m.TI < len(m.Snap.Els) {
		tree := &driver.Tree{URL: m.Snap.URL, Title: m.Snap.Title}
		for i := range m.Snap.Els {
			tree.Elements = append(tree.Elements, m.Snap.Els[i].element("", 0, 0, 0, -1, ""))
		}
		r.snaps++
		id := "s" + strconv.Itoa(r.snaps)
		if r.tr.Snapshots == nil {
			r.tr.Snapshots = map[string]trace.Snapshot{}
		}
		snap := driver.SnapshotOf(tree)
		if m.Form != nil {
			snap.Elements[m.TI].Form = m.Form.info()
		}
		r.tr.Snapshots[id] = snap
		e.Target, e.Snapshot = driver.TargetOf(tree, m.TI), id
		e.Target.Secret = m.Secret
		if m.Sel != "" {
			e.Target.Selectors = []string{m.Sel}
			if a := e.Target.Attributes; m.Part || a.Name == "" && a.Text == "" && a.Label == "" && a.ID == "" && a.Placeholder == "" {
				// Nothing a person reads tells the element apart (an icon, a
				// bare shape): only its selector can find it again.
				e.Target.CSS = m.Sel
			}
		}
	}
	if e.Kind.NeedsTarget() && e.Target == nil {
		// Nothing to anchor to: the trace could not use it, but the
		// person did it, so a replay may miss it.
		r.warn(fmt.Errorf("browser: record: a %s at (%.0f, %.0f) on %s hit no element to record it against; it is left out", m.K, m.X, m.Y, m.URL))
		return false
	}
	if e.Kind == trace.KindDblClick {
		// The two clicks of a double click are not separate events.
		for n := 0; n < 2 && len(r.tr.Events) > 0; n++ {
			l := r.tr.Events[len(r.tr.Events)-1]
			if l.Kind != trace.KindClick || l.Target == nil || e.Target == nil || l.Target.Path != e.Target.Path {
				break
			}
			if l.Snapshot != "" {
				delete(r.tr.Snapshots, l.Snapshot)
			}
			r.tr.Events = r.tr.Events[:len(r.tr.Events)-1]
		}
	}
	recent := r.lastAct >= 0 && time.Since(r.lastActTime) < 2*time.Second
	switch {
	case e.Kind == trace.KindClick && m.Detail == 0 && recent && r.tr.Events[r.lastAct].Kind == trace.KindKeyDown:
		// The click a form's implicit submission (Enter) fires on its
		// submit button, or a key's activation of a button.
		e.Cause = r.tr.Events[r.lastAct].ID
	case e.Kind == trace.KindSubmit && recent:
		e.Cause = r.tr.Events[r.lastAct].ID
	case e.Kind == trace.KindChange && e.Target != nil:
		// A field left (or Enter pressed) after typing: the typing's commit.
		if k, ok := r.lastInput[e.Target.Path]; ok && r.tr.Events[k].Value == e.Value {
			e.Cause = r.tr.Events[k].ID
		}
	}
	r.switchTo(from, e.Time)
	i := r.add(e)
	switch {
	case e.Cause != "":
	case e.Kind.IsClick() || e.Kind == trace.KindSubmit || (e.Kind == trace.KindKeyDown && e.Key.Key == "Enter"):
		r.lastAct, r.lastActTime, r.lastActTab = i, time.Now(), from
	case e.Kind == trace.KindInput && e.Target != nil:
		if r.lastInput == nil {
			r.lastInput = map[string]int{}
		}
		r.lastInput[e.Target.Path] = i
	}
	return false
}
