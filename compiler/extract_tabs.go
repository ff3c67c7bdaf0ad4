package compiler

import (
	"net/url"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Tabs and windows. The runtime acts in one current tab and never follows
// a tab on its own, so the compiler turns the person's moves between tabs
// into explicit steps: new_tab for a tab they opened, switch_window for
// one they went to (and one a link opened), close_tab after switching to
// the tab closed.

// tabState follows the tabs while extracting.
type tabState struct {
	opener map[string]int    // window id → the op that opened the tab
	loaded map[string]bool   // tabs whose first page load was seen
	names  map[string]string // window id → the last title or URL seen
	active string            // the window in front, "" when unknown
}

func newTabState() *tabState {
	return &tabState{opener: map[string]int{}, loaded: map[string]bool{}, names: map[string]string{}}
}

// opened notes that op k opened the window id. A tab new_tab opens is
// the runtime's current one from then on; a tab a click opens is not (the
// runtime stays where it acted), whatever the browser showed the person.
func (s *tabState) opened(id string, k int, current bool) {
	if id == "" {
		return
	}
	s.opener[id] = k
	if current {
		s.active = id
	}
}

// seen remembers a window's title (or URL) and that it is in front.
func (s *tabState) seen(w *trace.Window) {
	if w == nil || w.ID == "" {
		return
	}
	s.active = w.ID
	if w.Title != "" {
		s.names[w.ID] = w.Title
	}
}

// navigate: the first load of a tab belongs to the op that opened it; any
// other navigation not caused by an event is the person's own: open.
func (x *extractor) navigate(e *trace.Event) {
	x.lastURL = e.URL
	if w := e.Window; w != nil && w.ID != "" {
		k, fresh := x.tabs.opener[w.ID]
		first := !x.tabs.loaded[w.ID]
		x.tabs.loaded[w.ID] = true
		x.tabs.seen(w)
		if fresh && first {
			if x.ops[k].Action == action.NewTab && x.ops[k].Text == "" {
				x.ops[k].Text = e.URL
			}
			x.attach(k, e.ID)
			return
		}
	}
	if l := x.last(); l != nil && l.Action == action.NewTab && l.Text == "" {
		l.Text = e.URL // a trace without window ids
		x.attach(len(x.ops)-1, e.ID)
		return
	}
	x.add(operation{Action: action.Open, Text: e.URL}, e.ID)
}

func (x *extractor) tabOpen(e *trace.Event) {
	op := operation{Action: action.NewTab}
	if e.Window != nil && e.Window.URL != "about:blank" && !strings.HasPrefix(e.Window.URL, "chrome://") {
		op.Text = e.Window.URL
	}
	x.add(op, e.ID)
	if e.Window != nil {
		x.tabs.opened(e.Window.ID, len(x.ops)-1, true) // its first load is part of it
	}
}

// tabSwitch: going to the tab a new_tab just opened is part of new_tab;
// going anywhere else is a switch_window by a name that will still fit
// when the task runs with other inputs.
func (x *extractor) tabSwitch(e *trace.Event) {
	w := e.Window
	if l := x.last(); l != nil && l.Action == action.NewTab && e.Cause == "" {
		if k, ok := x.tabs.opener[windowID(w)]; (ok && k == len(x.ops)-1) || windowID(w) == "" {
			x.tabs.seen(w)
			x.attach(len(x.ops)-1, e.ID)
			return
		}
	}
	if id := windowID(w); id != "" && id == x.tabs.active {
		x.attachLast(e.ID) // already the current tab
		return
	}
	x.tabs.seen(w)
	name := x.windowName(w)
	if name == "" {
		x.pending = append(x.pending, e.ID)
		return
	}
	x.add(operation{Action: action.SwitchWindow, Text: name}, e.ID)
}

// tabClose closes the tab in front; a tab closed behind it is switched to
// first.
func (x *extractor) tabClose(e *trace.Event) {
	w := e.Window
	if id := windowID(w); id != "" && x.tabs.active != "" && id != x.tabs.active {
		if w.Title == "" {
			w = &trace.Window{ID: w.ID, Title: x.tabs.names[id], URL: w.URL}
		}
		if name := x.windowName(w); name != "" {
			x.add(operation{Action: action.SwitchWindow, Text: name}, e.ID)
		}
	}
	x.add(operation{Action: action.CloseTab}, e.ID)
	x.tabs.active = ""
}

func windowID(w *trace.Window) string {
	if w == nil {
		return ""
	}
	return w.ID
}

// windowName is what switch_window looks for: the window's title, unless
// the title shows data the person typed (a search word in "Kilimanjaro –
// Wiki"), which will differ in the next run; then the part of the URL
// before that data ("127.0.0.1:8088/wiki/"), which the browser driver
// matches when no title does.
func (x *extractor) windowName(w *trace.Window) string {
	if w == nil {
		return ""
	}
	if w.Title == "" {
		return stableURL(w.URL, x.typed())
	}
	low := strings.ToLower(w.Title)
	for _, t := range x.typed() {
		if strings.Contains(low, strings.ToLower(t)) {
			if u := stableURL(w.URL, x.typed()); len(u) >= 4 {
				return u
			}
			break
		}
	}
	return w.Title
}

// typed lists the texts typed or pasted so far that look like data.
func (x *extractor) typed() []string {
	var out []string
	for _, op := range x.ops {
		if (op.Action == action.Type || op.Action == action.Paste) && len([]rune(strings.TrimSpace(op.Text))) >= 3 {
			out = append(out, strings.TrimSpace(op.Text))
		}
	}
	return out
}

// stableURL is a URL without its scheme, query and fragment, cut before
// the first typed text it contains in any of the usual encodings.
func stableURL(raw string, typed []string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	s := u.Host + u.EscapedPath()
	cut := len(s)
	low := strings.ToLower(s)
	for _, t := range typed {
		for _, form := range []string{t, url.PathEscape(t), url.QueryEscape(t), strings.ReplaceAll(t, " ", "_"), strings.ReplaceAll(t, " ", "-")} {
			if i := strings.Index(low, strings.ToLower(form)); i >= 0 && i < cut {
				cut = i
			}
		}
	}
	return s[:cut]
}
