package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// dialogPage opens each kind of native dialog from a button and shows
// what the page got back.
const dialogPage = `<!doctype html><title>Dialogs</title>
<button id=al onclick="alert('Saved'); out('alerted')">Alert</button>
<button id=cf onclick="out(confirm('Delete the file?') ? 'deleted' : 'kept')">Delete</button>
<button id=pr onclick="out('name=' + prompt('Your name?', 'anon'))">Name</button>
<button id=late onclick="setTimeout(() => { alert('Later'); out('late') }, 300)">Late</button>
<button id=none onclick="out('quiet')">Quiet</button>
<a id=away href="/other">Away</a>
<input id=f aria-label=Edit>
<p id=out></p>
<script>
function out(s) { document.getElementById('out').textContent = s; }
window.addEventListener('beforeunload', (e) => { if (document.getElementById('f').value) { e.preventDefault(); e.returnValue = ''; } });
</script>`

// TestDialogs: a step answers the dialogs it opens as it says; a dialog
// no step expects fails the step, quoting its message; a step that
// expects a dialog that never opens fails.
func TestDialogs(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	s.page("/other", `<!doctype html><title>Other</title><p>other page</p>`)
	for _, tc := range []struct {
		name, id, dialog, prompt string
		typeFirst                bool   // edit the field first (beforeunload asks)
		out                      string // the page's #out after the step
		title                    string // the page's title after the step, when checked
		err                      string // "" for success
	}{
		{name: "alert accepted", id: "al", dialog: "accept", out: "alerted"},
		{name: "confirm accepted", id: "cf", dialog: "accept", out: "deleted"},
		{name: "confirm dismissed", id: "cf", dialog: "dismiss", out: "kept"},
		{name: "prompt answered", id: "pr", dialog: "accept", prompt: "Ann", out: "name=Ann"},
		{name: "prompt default", id: "pr", dialog: "accept", out: "name=anon"},
		{name: "prompt dismissed", id: "pr", dialog: "dismiss", out: "name=null"},
		{name: "late alert waited for", id: "late", dialog: "accept", out: "late"},
		{name: "unexpected confirm", id: "cf", out: "kept", err: `unexpected confirm dialog "Delete the file?" opened and was dismissed`},
		{name: "expected dialog never opens", id: "none", dialog: "accept", out: "quiet", err: "expects a dialog"},
		{name: "beforeunload accepted", id: "away", dialog: "accept", typeFirst: true, title: "Other"},
		{name: "beforeunload unexpected", id: "away", typeFirst: true, title: "Dialogs", err: `unexpected beforeunload dialog`},
		{name: "bad answer", id: "none", dialog: "maybe", out: "", err: `"maybe" is no answer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, d, s.page("/dialogs", dialogPage))
			if tc.typeFirst {
				do(t, d, driver.Action{Op: "type", Target: target(t, d, "f"), Text: "draft"})
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5e9)
			defer cancel()
			_, err := d.Do(ctx, driver.Action{Op: "click", Target: target(t, d, tc.id), Dialog: tc.dialog, Prompt: tc.prompt, Timeout: 2e9})
			if tc.err == "" && err != nil {
				t.Fatal(err)
			}
			if tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
			if tc.title != "" {
				if got := eval(t, d, "document.title"); got != tc.title {
					t.Errorf("title %q, want %q", got, tc.title)
				}
				if tc.title != "Dialogs" {
					return
				}
				// Stay: the field is cleared so that the next open leaves.
				eval(t, d, "document.getElementById('f').value = ''")
				return
			}
			if got := eval(t, d, "document.getElementById('out').textContent"); got != tc.out {
				t.Errorf("the page shows %q, want %q", got, tc.out)
			}
		})
	}
	// A dialog that opens between steps fails the next step on the tab.
	open(t, d, s.page("/dialogs", dialogPage))
	eval(t, d, "setTimeout(() => alert('Between steps'), 0)")
	waitFor := func() bool {
		d.events.mu.Lock()
		defer d.events.mu.Unlock()
		return len(d.events.dlg.stray[d.cur.session]) > 0
	}
	for i := 0; i < 100 && !waitFor(); i++ {
		_ = sleep(context.Background(), 10e6)
	}
	_, err := d.Do(context.Background(), driver.Action{Op: "click", Target: target(t, d, "none")})
	if err == nil || !strings.Contains(err.Error(), `alert dialog "Between steps" opened after the last step`) {
		t.Errorf("error %v, want the dialog between steps", err)
	}
}

// TestUpload: upload sets the files of a file input (through the input,
// its label or an element holding it) and the page sees its change; a
// missing file, a second file for a single input and a target that is no
// file input fail.
func TestUpload(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "report.pdf"), filepath.Join(dir, "notes.txt")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte("content of "+filepath.Base(f)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	page := `<!doctype html><title>Upload</title>
<label for=one>Attachment</label><input id=one type=file>
<div id=box class=drop><span>Drop files</span><input id=many type=file multiple></div>
<button id=btn>Not a file input</button><p id=out></p>
<script>for (const i of document.querySelectorAll('input[type=file]')) i.addEventListener('change', () =>
  document.getElementById('out').textContent = i.id + ':' + [...i.files].map((f) => f.name + '/' + f.size).join(','));</script>`
	for _, tc := range []struct {
		name   string
		target func() *driver.Element
		files  []string
		out    string
		err    string
	}{
		{name: "the input", target: func() *driver.Element { return target(t, d, "one") }, files: []string{a}, out: "one:report.pdf/21"},
		{name: "its label", target: func() *driver.Element {
			return find(t, d, driver.Query{Text: "Attachment"}, func(e *driver.Element) bool { return e.Text == "Attachment" && e.ID != "one" })
		}, files: []string{b}, out: "one:notes.txt/20"},
		{name: "a box holding it, two files", target: func() *driver.Element { return target(t, d, "box") }, files: []string{a, b}, out: "many:report.pdf/21,notes.txt/20"},
		{name: "two files for one", target: func() *driver.Element { return target(t, d, "one") }, files: []string{a, b}, err: "takes one file, not 2"},
		{name: "missing file", target: func() *driver.Element { return target(t, d, "one") }, files: []string{filepath.Join(dir, "nope.pdf")}, err: "nope.pdf"},
		{name: "not a file input", target: func() *driver.Element { return target(t, d, "btn") }, files: []string{a}, err: "is not a file input"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			open(t, d, s.page("/upload", page))
			_, err := d.Do(context.Background(), driver.Action{Op: "upload", Target: tc.target(), Files: tc.files})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				if got := eval(t, d, "document.getElementById('out').textContent"); got != "" {
					t.Errorf("the page saw %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := eval(t, d, "document.getElementById('out').textContent"); got != tc.out {
				t.Errorf("the page shows %q, want %q", got, tc.out)
			}
		})
	}
}
