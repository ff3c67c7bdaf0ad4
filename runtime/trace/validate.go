package trace

import (
	"net/url"
	"path"
	"sort"
	"strings"
)

// Validate checks what the JSON structure cannot: the format and version,
// a known driver, unique event ids in time order, known kinds, the fields
// each kind needs, references between events, snapshots and screenshots,
// and the consistency of list and table positions. It returns Errors, in
// document order, or nil.
func (t *Trace) Validate() error {
	v := &validator{t: t}
	v.trace()
	if len(v.errs) > 0 {
		return v.errs
	}
	return nil
}

type validator struct {
	t    *Trace
	errs Errors
}

func (v *validator) add(p jpath, format string, args ...any) {
	v.errs = append(v.errs, p.errorf(format, args...))
}

func (v *validator) trace() {
	t := v.t
	root := jpath("$")
	if t.Format != Format {
		v.add(root.field("format"), "not a cogflow trace: format is %q, want %q", t.Format, Format)
	}
	if t.Version != Version {
		v.add(root.field("version"), "%s", (&VersionError{Version: t.Version}).Error())
	}
	switch {
	case t.Driver == "":
		v.add(root.field("driver"), "empty: one of %s", strings.Join(Drivers(), ", "))
	case !known(Drivers(), t.Driver):
		v.add(root.field("driver"), "unknown driver %q: one of %s", t.Driver, strings.Join(Drivers(), ", "))
	}
	if vp := t.Start.Viewport; vp != nil {
		p := root.field("start").field("viewport")
		if vp.Width <= 0 || vp.Height <= 0 {
			v.add(p, "width and height must be positive, not %d×%d", vp.Width, vp.Height)
		}
		if vp.Scale < 0 {
			v.add(p.field("scale"), "must not be negative")
		}
	}

	ids := map[string]int{} // event id → index
	for i := range t.Events {
		v.event(root.field("events").index(i), i, ids)
	}

	snaps := root.field("snapshots")
	for _, id := range sortedKeys(t.Snapshots) {
		v.snapshot(snaps.field(id), id, t.Snapshots[id])
	}

	shots := root.field("screenshots")
	for _, id := range sortedKeys(t.Screenshots) {
		p, file := shots.field(id), t.Screenshots[id]
		if _, ok := ids[id]; !ok {
			v.add(p, "no event %q: screenshots are keyed by event id", id)
		}
		switch {
		case file == "":
			v.add(p, "empty file name")
		case strings.Contains(file, `\`) || path.IsAbs(file) || path.Clean(file) != file ||
			file == ".." || strings.HasPrefix(file, "../"):
			v.add(p, "%q must be a clean slash-separated path inside the trace's folder, like \"shots/e3.png\"", file)
		}
	}
}

func (v *validator) event(p jpath, i int, ids map[string]int) {
	t := v.t
	e := &t.Events[i]
	switch first, dup := ids[e.ID]; {
	case e.ID == "":
		v.add(p.field("id"), "empty: every event needs an id")
	case dup:
		v.add(p.field("id"), "duplicate event id %q (also $.events[%d])", e.ID, first)
	default:
		ids[e.ID] = i
	}
	if e.Time < 0 {
		v.add(p.field("time"), "negative time %d: times count milliseconds from the start of the recording", e.Time)
	} else if i > 0 && e.Time < t.Events[i-1].Time {
		v.add(p.field("time"), "%d is earlier than the previous event's %d: events must be in time order", e.Time, t.Events[i-1].Time)
	}
	if !e.Kind.Known() {
		v.add(p.field("kind"), "unknown event kind %q (kinds: %s)", e.Kind, kindList())
		return
	}
	if e.Cause != "" {
		if j, ok := ids[e.Cause]; !ok || j >= i {
			v.add(p.field("cause"), "%q is not an earlier event", e.Cause)
		}
	}
	article := "a"
	if strings.IndexByte("aeiou", string(e.Kind)[0]) >= 0 {
		article = "an"
	}
	if e.Kind.NeedsTarget() && e.Target == nil {
		v.add(p.field("target"), "missing: %s %s event needs the element it acted on", article, e.Kind)
	}
	if e.Kind.IsKey() {
		switch {
		case e.Key == nil:
			v.add(p.field("key"), "missing: %s %s event needs its key", article, e.Kind)
		case e.Key.Key == "":
			v.add(p.field("key").field("key"), "empty: %s %s event needs the key's value (\"a\", \"Enter\", …)", article, e.Kind)
		}
	}
	if e.Kind == KindSelect && e.Text == "" {
		v.add(p.field("text"), "missing: a select event needs the selected text")
	}
	if e.Kind == KindNavigate && e.URL == "" {
		v.add(p.field("url"), "missing: a navigate event needs the address it loaded")
	}
	if e.Kind == KindWait && e.Target == nil && (e.Wait == nil || e.Wait.Expression == "") {
		v.add(p.field("target"), "missing: a wait event needs the element it waited for, or wait.expression")
	}
	if e.Kind == KindViewport && (e.Viewport == nil || e.Viewport.Width <= 0 || e.Viewport.Height <= 0) {
		v.add(p.field("viewport"), "missing: a viewport event needs the new width and height")
	}
	if e.Kind.IsTab() {
		switch {
		case e.Window == nil:
			v.add(p.field("window"), "missing: a %s event needs the tab or window", e.Kind)
		case e.Window.ID == "" && e.Window.Title == "":
			v.add(p.field("window"), "needs an id or a title")
		}
	}
	if e.Kind == KindDialog {
		switch {
		case e.Dialog == nil:
			v.add(p.field("dialog"), "missing: a dialog event needs the dialog")
		case !known(dialogTypes, e.Dialog.Type):
			v.add(p.field("dialog").field("type"), "unknown dialog type %q: one of %s", e.Dialog.Type, strings.Join(dialogTypes, ", "))
		}
	}
	if e.Kind == KindUpload && len(e.Files) == 0 {
		v.add(p.field("files"), "missing: an upload event needs the files chosen")
	}
	if e.Button != "" && !known(buttons, e.Button) {
		v.add(p.field("button"), "unknown button %q: one of %s", e.Button, strings.Join(buttons, ", "))
	}
	var snap *Snapshot
	if e.Snapshot != "" {
		if s, ok := t.Snapshots[e.Snapshot]; ok {
			snap = &s
		} else {
			v.add(p.field("snapshot"), "no snapshot %q in $.snapshots", e.Snapshot)
		}
	}
	if tg := e.Target; tg != nil {
		tp := p.field("target")
		if tg.Ref != "" && snap != nil && snap.ByRef(tg.Ref) == nil {
			v.add(tp.field("ref"), "no element with ref %q in snapshot %q", tg.Ref, e.Snapshot)
		}
		v.bounds(tp.field("bounds"), tg.Bounds)
		if c := tg.Context; c != nil {
			cp := tp.field("context")
			if h := c.Headers; h != nil {
				v.cell(cp.field("headers"), h.RowIndex, h.ColumnIndex, "row_index", "column_index")
			}
			if l := c.List; l != nil {
				v.list(cp.field("list"), l.Index, l.Size)
				if len(l.ItemTexts) > l.Size {
					v.add(cp.field("list").field("item_texts"), "%d texts for a list of %d items", len(l.ItemTexts), l.Size)
				}
			}
		}
	}
}

func (v *validator) snapshot(p jpath, id string, s Snapshot) {
	if id == "" {
		v.add(p, "empty snapshot id")
	}
	refs := map[string]int{}
	for i, e := range s.Elements {
		ep := p.field("elements").index(i)
		if e.Ref != "" {
			if j, dup := refs[e.Ref]; dup {
				v.add(ep.field("ref"), "duplicate ref %q (also elements[%d])", e.Ref, j)
			} else {
				refs[e.Ref] = i
			}
		}
		if e.Parent < -1 || e.Parent >= i {
			v.add(ep.field("parent"), "%d is not an earlier element: a parent comes before its children (-1 for a root)", e.Parent)
		}
		v.bounds(ep.field("bounds"), e.Bounds)
		if e.List != nil {
			v.list(ep.field("list"), e.List.Index, e.List.Size)
		}
		if e.Cell != nil {
			v.cell(ep.field("cell"), e.Cell.Row, e.Cell.Column, "row", "column")
		}
		if e.Form != nil {
			v.form(ep.field("form"), e.Form)
		}
	}
}

// form checks a snapshot element's form facts: the compiler trusts them
// as proof, so a malformed one is an error, not a guess.
func (v *validator) form(p jpath, f *FormInfo) {
	if u, err := url.Parse(f.Action); err != nil || !u.IsAbs() {
		v.add(p.field("action"), "%q is not an absolute address", f.Action)
	}
	if !known(formMethods, f.Method) {
		v.add(p.field("method"), "unknown method %q: one of %s", f.Method, strings.Join(formMethods, ", "))
	}
	if f.Hidden < 0 {
		v.add(p.field("hidden"), "negative count %d", f.Hidden)
	}
	for i, n := range f.Filled {
		if n == "" {
			v.add(p.field("filled").index(i), "empty field name")
		}
	}
	if !known(formScripts, f.Script) {
		v.add(p.field("script"), "unknown value %q: one of %s", f.Script, strings.Join(formScripts, ", "))
	}
}

var formMethods = []string{"get", "post", "dialog"}

func (v *validator) bounds(p jpath, r Rect) {
	if r.W < 0 || r.H < 0 {
		v.add(p, "negative size %g×%g", r.W, r.H)
	}
}

func (v *validator) list(p jpath, index, size int) {
	switch {
	case size < 1:
		v.add(p.field("size"), "a list has at least one item, not %d", size)
	case index < 0 || index >= size:
		v.add(p.field("index"), "%d is outside the list of %d items (indexes count from 0)", index, size)
	}
}

func (v *validator) cell(p jpath, row, col int, rowName, colName string) {
	// -1 is a header row, as the drivers report them (driver.CellInfo).
	if row < -1 {
		v.add(p.field(rowName), "negative row %d (rows count from 0; -1 is a header row)", row)
	}
	if col < -1 {
		v.add(p.field(colName), "%d is not a column (columns count from 0; -1 is a whole row)", col)
	}
}

func known(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kindList() string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
