package browser

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

const normalizePage = `<!doctype html><html><head><title>Normalize</title></head><body>
<h2>Account</h2>
<form>
  <label for=user>User name</label><input id=user type=text>
  <label>Password <input id=pw type=password value="secret"></label>
  <input id=mail type=email aria-label="E-mail address">
  <span id=phlbl>Phone</span><input id=tel type=tel aria-labelledby=phlbl>
  <input id=q type=search placeholder="Search files">
  <textarea id=notes title="Your notes"></textarea>
  <div id=ed contenteditable=true>Editable</div>
  <select id=color><option>Red</option><option selected>Green</option></select>
  <input id=agree type=checkbox checked><label for=agree>I agree</label>
  <input id=r1 type=radio name=r>
  <input type=submit value="Sign in">
  <button id=dis disabled>Disabled</button>
  <a href="/help">Help</a>
  <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Logo" width=10 height=10>
  <div role=button aria-label="Custom">*</div>
</form>
<fieldset><legend>Shipping</legend><input id=street placeholder=Street></fieldset>
<h2>Results</h2>
<div class=results>
  <div class="result"><a href="/r/1">First result</a><p class=snippet>one</p></div>
  <div class="result"><a href="/r/2">Second result</a><p class=snippet>two</p></div>
  <div class="result"><a href="/r/3">Third result</a><p class=snippet>three</p></div>
</div>
<table id=files>
  <thead><tr><th>File</th><th>Size</th><th>Action</th></tr></thead>
  <tbody>
    <tr><th scope=row>a.txt</th><td>1 KB</td><td><button>Open</button></td></tr>
    <tr><th scope=row>b.txt</th><td>2 KB</td><td><button>Open</button></td></tr>
  </tbody>
</table>
<dialog open id=dlg><p>Rename?</p></dialog>
<div style="display:none"><button id=gone>Gone</button></div>
<button id=ghost style="visibility:hidden">Ghost</button>
<x-card></x-card>
<iframe id=same src="/frame" width=300 height=100></iframe>
<script>
customElements.define('x-card', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<div><button id=inshadow>Shadow action</button></div>'; }
});
</script>
</body></html>`

const framePage = `<!doctype html><html><body><button id=inframe onclick="parent.framed = 'yes'">Framed button</button></body></html>`

func TestObserveNormalizes(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/frame", framePage)
	open(t, d, s.page("/", normalizePage))
	tree := observe(t, d)
	if tree.Title != "Normalize" || !strings.HasSuffix(tree.URL, "/") {
		t.Errorf("url %q title %q", tree.URL, tree.Title)
	}
	checkRolesAndNames(t, tree)
	second := checkLists(t, tree)
	checkTable(t, tree)
	checkShadowFramesHidden(t, tree)

	// Refs stay the same across observations.
	again := observe(t, d)
	if e := one(t, again, "second", byRoleName("link", "Second result")); e.Ref != second.Ref {
		t.Errorf("ref changed: %s -> %s", second.Ref, e.Ref)
	}
}

func checkRolesAndNames(t *testing.T, tree *driver.Tree) {
	t.Helper()
	roles := map[string]string{
		"user": "textbox", "pw": "textbox", "mail": "textbox", "tel": "textbox", "q": "textbox", "notes": "textbox",
		"ed": "textbox", "color": "combobox", "agree": "checkbox", "r1": "radio", "dis": "button", "dlg": "dialog",
		"files": "table",
	}
	for id, role := range roles {
		if e := one(t, tree, id, byID(id)); e.Role != role {
			t.Errorf("#%s: role %q, want %q", id, e.Role, role)
		}
	}
	names := map[string]string{
		"user": "User name", "pw": "Password", "mail": "E-mail address", "tel": "Phone", "q": "Search files",
		"notes": "Your notes", "agree": "I agree",
	}
	for id, name := range names {
		if e := one(t, tree, id, byID(id)); e.Name != name {
			t.Errorf("#%s: name %q, want %q", id, e.Name, name)
		}
	}
	if e := one(t, tree, "user", byID("user")); e.Label != "User name" || !e.Editable || !e.Enabled {
		t.Errorf("user: %+v", e)
	}
	if e := one(t, tree, "pw", byID("pw")); e.Value != "••••••" {
		t.Errorf("password value %q is not masked", e.Value)
	}
	if e := one(t, tree, "color", byID("color")); e.Value != "Green" || e.Text != "Green" {
		t.Errorf("select value %q text %q", e.Value, e.Text)
	}
	if e := one(t, tree, "agree", byID("agree")); !e.Checked {
		t.Error("checkbox not checked")
	}
	if e := one(t, tree, "dis", byID("dis")); e.Enabled {
		t.Error("disabled button enabled")
	}
	if e := one(t, tree, "street", byID("street")); e.Description != "Shipping" {
		t.Errorf("street description %q, want the legend", e.Description)
	}
	one(t, tree, "submit", byRoleName("button", "Sign in"))
	one(t, tree, "link", byRoleName("link", "Help"))
	one(t, tree, "image", byRoleName("image", "Logo"))
	one(t, tree, "custom", byRoleName("button", "Custom"))
	one(t, tree, "heading", byRoleName("heading", "Results"))
}

func checkLists(t *testing.T, tree *driver.Tree) *driver.Element {
	t.Helper()
	// Lists: the Deepest Iterative Ancestor of a result's link is its result.
	second := one(t, tree, "second", byRoleName("link", "Second result"))
	if second.List == nil || second.List.Index != 1 || second.List.Size != 3 {
		t.Fatalf("second result list %+v", second.List)
	}
	box := tree.ByRef(second.List.Container)
	if box == nil || box.Class != "results" || box.Role != "list" {
		t.Errorf("list container %+v", box)
	}
	if e := tree.Elements[second.Parent]; e.Role != "listitem" || e.List == nil || e.List.Index != 1 {
		t.Errorf("second result's item %+v", e)
	}
	return second
}

func checkTable(t *testing.T, tree *driver.Tree) {
	t.Helper()
	// Tables: data rows are counted without the header row.
	var cell *driver.Element
	for _, e := range tree.Elements {
		if e.Role == "cell" && e.Text == "2 KB" {
			cell = e
		}
	}
	if cell == nil || cell.Cell == nil {
		t.Fatal("no cell 2 KB")
	}
	if c := cell.Cell; c.Row != 1 || c.Column != 1 || c.ColumnHeader != "Size" || c.RowHeader != "b.txt" || tree.ByRef(c.Table).ID != "files" {
		t.Errorf("cell 2 KB: %+v", c)
	}
	if cell.Description != "b.txt" {
		t.Errorf("cell description %q, want the row's first cell", cell.Description)
	}
}

func checkShadowFramesHidden(t *testing.T, tree *driver.Tree) {
	t.Helper()
	// Shadow DOM and same-origin frames are walked.
	sh := one(t, tree, "shadow", byID("inshadow"))
	if sh.Name != "Shadow action" || !strings.Contains(sh.Path, "#shadow") || !sh.Visible {
		t.Errorf("shadow button %+v", sh)
	}
	frame := one(t, tree, "iframe", byID("same"))
	fb := one(t, tree, "framed", byID("inframe"))
	if fb.Name != "Framed button" || fb.Bounds.Y < frame.Bounds.Y || fb.Bounds.X < frame.Bounds.X {
		t.Errorf("framed button %+v (frame at %+v)", fb.Bounds, frame.Bounds)
	}

	// Invisible elements are kept but marked.
	if e := one(t, tree, "gone", byID("gone")); e.Visible || e.Name != "Gone" {
		t.Errorf("display:none button %+v", e)
	}
	if e := one(t, tree, "ghost", byID("ghost")); e.Visible {
		t.Error("visibility:hidden button marked visible")
	}
	if e := one(t, tree, "user", byID("user")); !e.Visible || e.Bounds.W == 0 {
		t.Errorf("user box %+v", e.Bounds)
	}
}

func TestFindNarrows(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/find", `<h1>Title</h1><button>Save</button><button>Save as…</button><button>Cancel</button>
<input id=x><input id=xy><p>Just text</p><div id=box><a href="/z">Inside</a></div><a href="/o">Outside</a>`))
	els, err := d.Find(context.Background(), driver.Query{Name: "save"})
	if err != nil {
		t.Fatal(err)
	}
	if len(els) != 2 {
		t.Errorf("name save: %d elements, want 2", len(els))
	}
	find(t, d, driver.Query{ID: "x"}, func(e *driver.Element) bool { return true })
	all, err := d.Find(context.Background(), driver.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Role == "heading" || e.Role == "text" {
			t.Errorf("empty query returned non-interactive %s %q", e.Role, e.Text)
		}
	}
	if len(all) != 7 {
		t.Errorf("empty query: %d elements, want 7 (3 buttons, 2 inputs, 2 links)", len(all))
	}
	box := find(t, d, driver.Query{ID: "box"}, func(e *driver.Element) bool { return true })
	in := find(t, d, driver.Query{Role: "link", Within: box.Ref}, func(e *driver.Element) bool { return true })
	if in.Name != "Inside" {
		t.Errorf("within: %q", in.Name)
	}
}

func TestScreenshotAndCapabilities(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/shot", `<h1>Shot</h1>`))
	png, err := d.Screenshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Error("not a PNG")
	}
	c := d.Capabilities()
	for _, a := range []action.Name{"click", "type", "key", "copy", "paste", "open", "new_tab", "switch_window", "wait", "back"} {
		if !c.Supports(a) {
			t.Errorf("does not support %s", a)
		}
	}
	if !strings.Contains(strings.Join(c.Shortcuts, " "), "type:set-value") {
		t.Error("no type:set-value shortcut")
	}
	if names := driver.Names(); !strings.Contains(strings.Join(names, " "), "browser") {
		t.Errorf("not registered: %v", names)
	}
}

// TestBesideTextDescribesField: a field without a <label> is described by
// the short text a form lays out next to it, whichever way the form is
// built; a field with a label, or with a long paragraph beside it, is not.
func TestBesideTextDescribesField(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/beside", `<title>Beside</title>
<p><span>Genre:</span><input id="a"></p>
<div><div>Director Name</div><input id="b"></div>
<div><div class="label">Movie Genre</div><div class="input"><input id="c"></div></div>
<div><input id="d"><div>Year</div></div>
<p><label for="e">Title</label><span>ignored</span><input id="e"></p>
<div><p>This paragraph is far too long to be the label of the field that follows it here.</p><input id="f"></div>
<div><input id="g" aria-label="Search"><span>Go</span></div>`))
	tree := observe(t, d)
	want := map[string]string{"a": "Genre:", "b": "Director Name", "c": "Movie Genre", "d": "Year", "e": "", "f": "", "g": ""}
	for id, desc := range want {
		if e := one(t, tree, id, byID(id)); e.Description != desc {
			t.Errorf("#%s: description %q, want %q", id, e.Description, desc)
		}
	}
}
