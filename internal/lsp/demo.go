package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Values seen in the demonstration. A compiled workflow names its trace
// in its header comment ("# Compiled from keyword.trace.json by cogflow
// compile …") and cites, in each step's trailing comment, the trace events
// the step came from ("# e2…e14 (13 events)"). Reading those events back
// gives what the demonstration saw there: the text typed, the element
// clicked, the text selected or copied. Hover and inlay hints show it.
//
// The trace is only ever a hint: a file that is missing, too large or
// broken gives none, silently (no popup: the workflow is fine without
// it). Secrets never show: an event on a password field, or a step whose
// arguments come from a secret input, has no value, whatever the trace
// holds (the recorder already masks them).

// demoMaxTrace bounds the trace the server reads for hints, far below
// trace.MaxSize: a hint is not worth reading a huge file on a keystroke.
const demoMaxTrace = 32 << 20

// demoMaxRunes is how long a shown value may be; longer ones are cut
// with "…".
const demoMaxRunes = 40

var (
	demoHeader = regexp.MustCompile(`^# Compiled from (.+?) by cogflow compile`)
	demoCite   = regexp.MustCompile(`^# ((?:e\d+(?:…e\d+)?|…)(?:, (?:e\d+(?:…e\d+)?|…))*)(?: \(\d+ events\))?$`)
)

// demoSeen is what the demonstration saw at one step.
type demoSeen struct {
	verb  string // "typed", "clicked", "selected" …
	value string // cut to demoMaxRunes, quoted
	trace string // the trace file's base name
	cite  string // the events, as the step's comment cites them
}

// demoValue is the value the demonstration saw at a step, as hover shows
// it; false when there is none to show.
func demoValue(d *Document, st *ast.Step) (string, bool) {
	s, ok := demoFor(d, st)
	if !ok {
		return "", false
	}
	return s.verb + " " + s.value + " (" + s.cite + " of " + s.trace + ")", true
}

// demoFor finds what the demonstration saw at st.
func demoFor(d *Document, st *ast.Step) (demoSeen, bool) {
	events := demoEvents(d)
	if events == nil || st.Comments.Trailing == nil {
		return demoSeen{}, false
	}
	m := demoCite.FindStringSubmatch(strings.TrimSpace(st.Comments.Trailing.Text))
	if m == nil || demoSecret(d, st, map[ast.Node]bool{}) {
		return demoSeen{}, false
	}
	var evs []*trace.Event
	for _, id := range demoIDs(m[1]) {
		if e := events.byID[id]; e != nil {
			evs = append(evs, e)
		}
	}
	verb, value, ok := demoDerive(st, evs, events)
	if !ok || strings.Trim(value, "•*") == "" { // a masked value is no value
		return demoSeen{}, false
	}
	if r := []rune(value); len(r) > demoMaxRunes {
		value = string(r[:demoMaxRunes-1]) + "…"
	}
	return demoSeen{verb: verb, value: strconv.Quote(value), trace: events.name, cite: m[1]}, true
}

// demoIDs expands a citation: "e2…e5, e9" is e2, e3, e4, e5, e9; a "…"
// standing for events left out is skipped.
func demoIDs(cite string) []string {
	var out []string
	for _, part := range strings.Split(cite, ", ") {
		from, to, isRange := strings.Cut(part, "…")
		if !isRange {
			out = append(out, part)
			continue
		}
		a, err1 := strconv.Atoi(strings.TrimPrefix(from, "e"))
		b, err2 := strconv.Atoi(strings.TrimPrefix(to, "e"))
		if err1 != nil || err2 != nil || b < a || b-a > 10000 {
			continue
		}
		for n := a; n <= b; n++ {
			out = append(out, "e"+strconv.Itoa(n))
		}
	}
	return out
}

// demoSecret reports whether a step's value comes from a secret: a
// secret input or parameter, a loop variable over a secret list, or a
// step that does, through any reference.
func demoSecret(d *Document, st *ast.Step, seen map[ast.Node]bool) bool {
	return demoSecretExpr(d, st, st.Value, seen)
}

// demoSecretExpr reports whether e, which node (a step or a for) holds,
// reads a secret. seen stops a cycle of references in a broken file.
func demoSecretExpr(d *Document, node ast.Node, e ast.Expr, seen map[ast.Node]bool) bool {
	if seen[node] || d.Info == nil {
		return false
	}
	seen[node] = true
	secret := false
	ast.Inspect(e, func(e ast.Expr) bool {
		r, ok := e.(*ast.Ref)
		if !ok || secret {
			return !secret
		}
		switch decl := d.Info.Refs[r].(type) {
		case *ast.InputDecl:
			secret = demoSecretType(decl.Type)
		case *ast.Param:
			secret = demoSecretType(decl.Type)
		case *ast.Step:
			secret = demoSecret(d, decl, seen)
		case *ast.ForStmt:
			// The loop variable is an element of what the loop iterates.
			secret = demoSecretExpr(d, decl, decl.Iter, seen)
		}
		return !secret
	})
	return secret
}

func demoSecretType(t *ast.TypeExpr) bool {
	for ; t != nil; t = t.Elem {
		if t.Name == "secret" {
			return true
		}
	}
	return false
}

// demoDerive reads what a step's events saw, by the step's action.
func demoDerive(st *ast.Step, evs []*trace.Event, dt *demoTrace) (verb, value string, ok bool) {
	for _, e := range evs {
		if e.Target != nil && e.Target.Secret {
			return "", "", false
		}
	}
	last := func(kinds ...trace.Kind) *trace.Event {
		for i := len(evs) - 1; i >= 0; i-- {
			for _, k := range kinds {
				if evs[i].Kind == k {
					return evs[i]
				}
			}
		}
		return nil
	}
	name := ""
	if call, isCall := st.Value.(*ast.Call); isCall {
		name = call.CalleeName()
	}
	switch action.Name(name) {
	case action.Type, action.Paste:
		if e := last(trace.KindChange, trace.KindInput, trace.KindPaste); e != nil && (e.Value != "" || e.Text != "") {
			return "typed", demoFirst(e.Value, e.Text), true
		}
	case action.SelectText:
		if e := last(trace.KindSelect); e != nil && e.Text != "" {
			return "selected", e.Text, true
		}
	case action.Copy, action.Cut:
		if e := last(trace.KindCopy, trace.KindCut); e != nil && e.Text != "" {
			return "copied", e.Text, true
		}
	case action.SwitchWindow, action.NewTab, action.CloseTab:
		if e := last(trace.KindTabSwitch, trace.KindTabOpen, trace.KindTabClose); e != nil && e.Window != nil && e.Window.Title != "" {
			return "saw window", e.Window.Title, true
		}
	case action.Open:
		if e := last(trace.KindNavigate); e != nil && e.URL != "" {
			return "opened", e.URL, true
		}
	}
	// An option picked in a select: its label. A checkbox's change ("on")
	// says less than the name of what was clicked.
	if e := last(trace.KindChange); e != nil && e.Value != "" {
		if role := dt.attrs(e).Role; role == "combobox" || role == "listbox" {
			return "chose", dt.optionLabel(e), true
		}
	}
	for _, e := range evs {
		if e.Kind.IsClick() {
			a := dt.attrs(e)
			if v := demoFirst(a.Name, a.Text, a.Label, a.Placeholder, a.ID); v != "" {
				return "clicked", v, true
			}
		}
	}
	if e := last(trace.KindChange); e != nil && e.Value != "" {
		return "chose", e.Value, true
	}
	return "", "", false
}

func demoFirst(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// demoTrace is one trace file's events, as cached.
type demoTrace struct {
	name string // the base name, for messages
	byID map[string]*trace.Event
	tr   *trace.Trace
}

// attrs are what the trace knows of an event's target: its own
// attributes, completed from its snapshot's element (a recorder may give
// only the element's ref).
func (dt *demoTrace) attrs(e *trace.Event) trace.Attributes {
	if e.Target == nil {
		return trace.Attributes{}
	}
	a := e.Target.Attributes
	if el := dt.tr.Snapshots[e.Snapshot].ByRef(e.Target.Ref); el != nil {
		if a.Role == "" {
			a.Role = el.Role
		}
		a.Name, a.Text, a.Label = demoFirst(a.Name, el.Name), demoFirst(a.Text, el.Text), demoFirst(a.Label, el.Label)
		a.Placeholder, a.ID = demoFirst(a.Placeholder, el.Placeholder), demoFirst(a.ID, el.ID)
	}
	return a
}

// optionLabel is the visible name of the option a change event picked in
// a select: the select's option with that value, else its one checked
// option in the event's snapshot ("l" → "Large"); the value itself when
// neither is known.
func (dt *demoTrace) optionLabel(e *trace.Event) string {
	snap := dt.tr.Snapshots[e.Snapshot]
	sel := -1
	for i := range snap.Elements {
		if e.Target != nil && snap.Elements[i].Ref == e.Target.Ref && e.Target.Ref != "" {
			sel = i
		}
	}
	var checked []string
	for _, el := range snap.Elements {
		if el.Role != "option" || sel >= 0 && el.Parent != sel {
			continue
		}
		label := demoFirst(el.Name, el.Text)
		if el.Value == e.Value && label != "" {
			return label
		}
		if el.Checked && sel >= 0 && label != "" {
			checked = append(checked, label)
		}
	}
	if len(checked) == 1 {
		return checked[0]
	}
	return e.Value
}

type demoCacheEntry struct {
	mtime time.Time
	size  int64
	tr    *demoTrace // nil: unreadable
}

// demoCache holds traces by path, each valid while the file's time and
// size are unchanged. It is small: a person has few compiled files open.
var demoCache = struct {
	sync.Mutex
	m map[string]demoCacheEntry
}{m: map[string]demoCacheEntry{}}

const demoCacheMax = 16

// demoEvents finds and reads the trace a compiled document names; nil
// when it names none, or the trace cannot be read.
func demoEvents(d *Document) *demoTrace {
	name := demoTraceName(d.Text)
	if name == "" {
		return nil
	}
	var candidates []string
	if filepath.IsAbs(name) {
		candidates = []string{name}
	} else {
		if filepath.IsAbs(d.Path) {
			candidates = append(candidates, filepath.Join(filepath.Dir(d.Path), name))
		}
		candidates = append(candidates, name)
	}
	for _, path := range candidates {
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		return demoLoad(path, fi)
	}
	return nil
}

// demoTraceName is the trace named in the header comment: the comment
// lines at the top of the file. A merged workflow's events are of several
// traces and their ids ambiguous: none.
func demoTraceName(text []byte) string {
	for _, line := range strings.SplitN(string(text), "\n", 20) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "#") {
			if line == "" {
				continue
			}
			break
		}
		if m := demoHeader.FindStringSubmatch(line); m != nil {
			if strings.Contains(m[1], "demonstrations merged") || m[1] == "a recorded demonstration" {
				return ""
			}
			return m[1]
		}
	}
	return ""
}

func demoLoad(path string, fi os.FileInfo) *demoTrace {
	demoCache.Lock()
	if e, ok := demoCache.m[path]; ok && e.mtime.Equal(fi.ModTime()) && e.size == fi.Size() {
		demoCache.Unlock()
		return e.tr
	}
	demoCache.Unlock()
	var dt *demoTrace
	if fi.Size() <= demoMaxTrace {
		if tr, err := trace.Load(path); err == nil {
			dt = &demoTrace{name: filepath.Base(path), byID: make(map[string]*trace.Event, len(tr.Events)), tr: tr}
			for i := range tr.Events {
				dt.byID[tr.Events[i].ID] = &tr.Events[i]
			}
		}
	}
	demoCache.Lock()
	if len(demoCache.m) >= demoCacheMax {
		for k := range demoCache.m { // any one: the cache only saves rereads
			delete(demoCache.m, k)
			break
		}
	}
	demoCache.m[path] = demoCacheEntry{mtime: fi.ModTime(), size: fi.Size(), tr: dt}
	demoCache.Unlock()
	return dt
}
