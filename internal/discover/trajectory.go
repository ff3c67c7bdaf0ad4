package discover

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/runtime/driver"
)

// maxScreenLines bounds the elements one screen shows the model.
const maxScreenLines = 60

// Visit is one screen of a trajectory and the action that led to it.
type Visit struct {
	// Action is the action that led here in the language's words
	// (`click link(name: "Wiki")`); "" for the first screen.
	Action string
	URL    string
	Title  string
	// Lines are the screen's elements as the model reads them: role and
	// names, never a field's value.
	Lines []string
}

// Trajectory is what an exploration did, screen by screen: what the model
// proposes skills from.
type Trajectory struct {
	Visits []Visit
}

// watcher is a driver that keeps the trajectory of what goes through it:
// every action and the screen observed after it.
type watcher struct {
	driver.Driver
	mu      sync.Mutex
	pending string // the last action, not yet followed by a screen
	t       Trajectory
}

func (w *watcher) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	res, err := w.Driver.Do(ctx, a)
	if err == nil {
		w.mu.Lock()
		w.pending = actionLine(a)
		w.mu.Unlock()
	}
	return res, err
}

func (w *watcher) Observe(ctx context.Context) (*driver.Tree, error) {
	t, err := w.Driver.Observe(ctx)
	if err != nil || t == nil {
		return t, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.t.Visits)
	if n > 0 && w.pending == "" && w.t.Visits[n-1].URL == t.URL && w.t.Visits[n-1].Title == t.Title {
		return t, nil // looked at again, nothing done in between
	}
	w.t.Visits = append(w.t.Visits, Visit{Action: w.pending, URL: t.URL, Title: t.Title, Lines: screenLines(t)})
	w.pending = ""
	return t, nil
}

// actionLine is an action in the language's words, without its text: a
// typed value may be a secret.
func actionLine(a driver.Action) string {
	s := string(a.Op)
	if a.Target != nil {
		s += " " + elementLine(a.Target)
	}
	if a.Op == "open" {
		s += " " + a.Text
	}
	if a.Op == "key" {
		s += " " + strconv.Quote(a.Text)
	}
	return s
}

// screenLines lists a screen's visible elements that name something:
// controls, links, headings, labelled fields.
func screenLines(t *driver.Tree) []string {
	var out []string
	for _, e := range t.Elements {
		if e == nil || !e.Visible || len(out) >= maxScreenLines {
			continue
		}
		switch e.Role {
		case "button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "heading", "tab",
			"menuitem", "option", "form", "table", "list", "dialog", "region", "navigation", "switch", "slider", "spinbutton":
		default:
			continue
		}
		if l := elementLine(e); l != e.Role+"()" {
			out = append(out, l)
		}
	}
	return out
}

// elementLine is an element as a description of the language, with its
// naming attributes only: never Value, which may hold what was typed.
func elementLine(e *driver.Element) string {
	var attrs []string
	add := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			attrs = append(attrs, k+": "+strconv.Quote(clip(v, 60)))
		}
	}
	add("name", e.Name)
	if !e.Editable && e.Text != e.Name {
		add("text", e.Text)
	}
	add("id", e.ID)
	if e.Label != e.Name {
		add("label", e.Label)
	}
	add("placeholder", e.Placeholder)
	add("href", e.Href)
	return e.Role + "(" + strings.Join(attrs, ", ") + ")"
}

// String renders the trajectory for the model. It holds no value typed
// or read from a field (elementLine, actionLine), so no secret.
func (t Trajectory) String() string {
	var b strings.Builder
	seen := map[string]int{}
	for i, v := range t.Visits {
		if v.Action != "" {
			fmt.Fprintf(&b, "Action: %s\n", v.Action)
		}
		key := v.URL + "\x00" + v.Title + "\x00" + strings.Join(v.Lines, "\n")
		if j, ok := seen[key]; ok {
			fmt.Fprintf(&b, "Screen %d: the same as screen %d (%s)\n", i+1, j, v.URL)
			continue
		}
		seen[key] = i + 1
		fmt.Fprintf(&b, "Screen %d: %q %s\n", i+1, v.Title, v.URL)
		for _, l := range v.Lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	return b.String()
}
