package browser

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// fieldsPage has one field per kind of control a type step may meet; each
// field logs the input and change events it sees into window.seen.
const fieldsPage = `<!doctype html><title>Fields</title>
<input id=color type=color aria-label=Color>
<input id=date type=date aria-label=Date>
<input id=time type=time aria-label=Time>
<input id=range type=range min=0 max=100 aria-label=Volume>
<input id=dtl type=datetime-local aria-label=When>
<input id=month type=month aria-label=Month>
<input id=week type=week aria-label=Week>
<input id=short maxlength=5 aria-label=Short>
<input id=upper aria-label=Upper oninput="this.value = this.value.toUpperCase()">
<input id=ro readonly value=fixed aria-label=Fixed>
<input id=pw type=password maxlength=4 aria-label=Password>
<input id=plain aria-label=Plain>
<input id=popup aria-label=Popup onfocus="this.disabled = true">
<textarea id=area aria-label=Area></textarea>
<script>
window.seen = [];
for (const el of document.querySelectorAll('input,textarea')) {
  el.addEventListener('input', () => seen.push(el.id + ':input'));
  el.addEventListener('change', () => seen.push(el.id + ':change=' + el.value));
}
</script>`

// TestTypeSetsPickerInputs: inputs a person sets with a picker (color,
// date, time, range, …) get the value and the input and change events the
// picker fires; a value the input cannot hold fails the step.
func TestTypeSetsPickerInputs(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	for _, tc := range []struct {
		id, text, want, err string
	}{
		{id: "color", text: "#FF8800", want: "#ff8800"},
		{id: "date", text: "2024-02-29", want: "2024-02-29"},
		{id: "time", text: "13:45", want: "13:45"},
		{id: "range", text: "42", want: "42"},
		{id: "dtl", text: "2024-03-01T09:30", want: "2024-03-01T09:30"},
		{id: "month", text: "2024-05", want: "2024-05"},
		{id: "week", text: "2024-W10", want: "2024-W10"},
		{id: "date", text: "29/02/2024", err: `holds "" after setting "29/02/2024"`},
		{id: "range", text: "150", err: `holds "100" after setting "150"`},
	} {
		t.Run(tc.id+" "+tc.text, func(t *testing.T) {
			open(t, d, s.page("/fields", fieldsPage))
			_, err := d.Do(context.Background(), driver.Action{Op: "type", Target: target(t, d, tc.id), Text: tc.text})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				if got := eval(t, d, "seen.join()"); got != "" {
					t.Errorf("the page saw %q for a value that did not take", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := eval(t, d, "document.getElementById('"+tc.id+"').value"); got != tc.want {
				t.Errorf("value %q, want %q", got, tc.want)
			}
			if got, want := eval(t, d, "seen.join()"), tc.id+":input,"+tc.id+":change="+tc.want; got != want {
				t.Errorf("events %q, want %q", got, want)
			}
		})
	}
}

// TestTypeReadsBack: after typing, the field is read back; a value that
// did not take fails the step and says what was typed and what the field
// holds (a password field's value masked).
func TestTypeReadsBack(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	for _, tc := range []struct {
		id, text string
		err      string // "" when the typing takes
		hidden   string // must not be in the error
	}{
		{id: "plain", text: "Kilimanjaro"},
		{id: "area", text: "two\nlines"},
		{id: "short", text: "Kilimanjaro", err: `holds "Kilim" after typing "Kilimanjaro" (maxlength 5)`},
		{id: "upper", text: "quiet", err: `holds "QUIET" after typing "quiet"`},
		{id: "ro", text: "other", err: "is not editable (read-only)"},
		{id: "popup", text: "abc", err: `holds "" after typing "abc" (the field is disabled now: something that showed when it got focus`},
		{id: "pw", text: "hunter22", err: "(4 characters, masked) after typing ••••••••", hidden: "hunt"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			open(t, d, s.page("/fields", fieldsPage))
			_, err := d.Do(context.Background(), driver.Action{Op: "type", Target: target(t, d, tc.id), Text: tc.text})
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := eval(t, d, "document.getElementById('"+tc.id+"').value"); got != tc.text {
					t.Errorf("value %q, want %q", got, tc.text)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
			if tc.hidden != "" && strings.Contains(err.Error(), tc.hidden) {
				t.Errorf("the error shows the secret: %v", err)
			}
		})
	}
}

// TestScriptTextIsNoText: the source of inline scripts and styles is no
// element's text, name or description, in observations and in errors.
func TestScriptTextIsNoText(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/script", `<!doctype html><title>Script</title>
<table><tr><th>Name<script>var headerSecretSource = 1;</script></th></tr><tr><td id=cell>Ann</td></tr></table>
<label for=f>City<style>.labelStyleSource{}</style></label><input id=f>
<div id=wrap><button id=under>Under</button><script>var wrapperSource = 2;</script></div>
<div id=cover style="position:fixed;inset:0">Cover<script>var coverSource = 3;</script></div>`))
	tree := observe(t, d)
	for _, tc := range []struct {
		id   string
		get  func(e *driver.Element) string
		want string
	}{
		{"cell", func(e *driver.Element) string { return e.Cell.ColumnHeader }, "Name"},
		{"f", func(e *driver.Element) string { return e.Label }, "City"},
		{"wrap", func(e *driver.Element) string { return e.Text }, "Under"},
		{"cover", func(e *driver.Element) string { return e.Text }, "Cover"},
	} {
		if got := tc.get(one(t, tree, tc.id, byID(tc.id))); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.id, got, tc.want)
		}
	}
	_, err := d.Do(context.Background(), driver.Action{Op: "click", Target: target(t, d, "under")})
	if err == nil || !strings.Contains(err.Error(), `covered by div#cover "Cover"`) || strings.Contains(err.Error(), "Source") {
		t.Errorf("error %v, want one quoting only the cover's visible text", err)
	}
}
