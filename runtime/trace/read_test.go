package trace

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// traceFiles are the valid traces of testdata, canonical form.
func traceFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.trace.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata traces: %v", err)
	}
	return files
}

func TestRoundTrip(t *testing.T) {
	for _, file := range traceFiles(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			tr, err := Read(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := Write(&out, tr); err != nil {
				t.Fatal(err)
			}
			if out.String() != string(data) {
				t.Errorf("Write(Read(file)) differs from the file:\n%s", firstDiff(string(data), out.String()))
			}
			again, err := Read(&out)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(again, tr) {
				t.Error("Read(Write(trace)) differs from the trace")
			}
		})
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(no difference)"
}

func TestNonCanonicalInputReadsTheSame(t *testing.T) {
	// Empty optional collections, fields in another order, explicit
	// zero values and escaped characters read as the canonical form does.
	in := `{"events":[{"kind":"click","time":0,"id":"e1","target":{"role":"button","name":"\u0053ave","context":{"sibling_texts":[]}},"x":0,"text":""}],
		"screenshots":{},"snapshots":{},"driver":"browser","version":1,"format":"cogflow-trace","start":{}}`
	tr, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "format": "cogflow-trace",
  "version": 1,
  "driver": "browser",
  "events": [
    {
      "id": "e1",
      "time": 0,
      "kind": "click",
      "target": {
        "role": "button",
        "name": "Save",
        "context": {}
      }
    }
  ]
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again, err := Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, tr) {
		t.Errorf("reading the canonical form gives another trace:\n%+v\n%+v", again, tr)
	}
}

func TestEveryKindInTestdata(t *testing.T) {
	seen := map[Kind]bool{}
	for _, file := range traceFiles(t) {
		tr, err := Load(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.Events {
			seen[e.Kind] = true
		}
	}
	for _, k := range Kinds() {
		if !seen[k] {
			t.Errorf("no testdata trace has a %s event", k)
		}
	}
}

// doc builds a trace document around the given top-level members.
func doc(members string) string {
	return `{"format": "cogflow-trace", "version": 1, "driver": "browser", ` + members + `}`
}

// evs builds a trace document with the given events.
func evs(events ...string) string {
	return doc(`"events": [` + strings.Join(events, ", ") + `]`)
}

const (
	click1 = `{"id": "e1", "time": 0, "kind": "click", "target": {"role": "button", "name": "Search"}}`
	snap1  = `"snapshots": {"s1": {"url": "http://x/", "elements": [{"ref": "r1", "role": "main", "parent": -1}, {"ref": "r2", "role": "button", "parent": 0}]}}`
)

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, in, path, msg string
	}{
		// The document's structure.
		{"not JSON", `{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [}`,
			"$.events", "invalid JSON at line 1, column 74: invalid character '}' looking for beginning of value"},
		{"truncated", `{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [` + click1,
			"$.events", "invalid JSON: unexpected end of the file"},
		{"array", `[1, 2]`, "$", "a trace is a JSON object, not an array"},
		{"null", `null`, "$", "a trace is a JSON object, not null"},
		{"no format", `{"version": 1, "driver": "browser", "events": []}`,
			"$.format", `missing: not a cogflow trace (a trace begins with "format": "cogflow-trace", "version": 1)`},
		{"other format", `{"format": "har", "version": 1}`,
			"$.format", `not a cogflow trace: format is "har", want "cogflow-trace"`},
		{"devtools recording", `{"title": "x", "steps": []}`,
			"$", "not a cogflow trace: this looks like a Chrome DevTools Recorder recording; convert it with `cogflow import`"},
		{"unknown field", doc(`"events": [], "extra": true`), "$.extra", `unknown field "extra"`},
		{"unknown nested field", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"list": {"index": 0, "size": 1, "items": []}}}}`),
			"$.events[0].target.context.list.items", `unknown field "items"`},
		{"field in the wrong case", evs(`{"id": "e1", "time": 0, "Kind": "click"}`),
			"$.events[0].Kind", `unknown field "Kind" (did you mean "kind"?)`},
		{"camel case", evs(`{"id": "e1", "time": 0, "kind": "click", "offsetX": 3}`),
			"$.events[0].offsetX", `unknown field "offsetX" (did you mean "offset_x"?)`},
		{"duplicate field", evs(`{"id": "e1", "id": "e2", "time": 0, "kind": "click"}`),
			"$.events[0].id", `duplicate field "id"`},
		{"duplicate map key", doc(`"events": [], "screenshots": {"e1": "a.png", "e1": "b.png"}`),
			"$.screenshots.e1", `duplicate key "e1"`},
		{"string for integer", evs(`{"id": "e1", "time": "10", "kind": "click"}`),
			"$.events[0].time", "must be an integer, not a string"},
		{"fraction for integer", evs(`{"id": "e1", "time": 1.5, "kind": "click"}`),
			"$.events[0].time", "must be an integer, not 1.5"},
		{"integer out of range", evs(`{"id": "e1", "time": 1e30, "kind": "click"}`),
			"$.events[0].time", "must be an integer, not 1e30"},
		{"number out of range", evs(`{"id": "e1", "time": 0, "kind": "click", "x": 1e999}`),
			"$.events[0].x", "number 1e999 is out of range"},
		{"number for string", evs(`{"id": 1, "time": 0, "kind": "click"}`),
			"$.events[0].id", "must be a string, not the number 1"},
		{"string for bool", evs(`{"id": "e1", "time": 0, "kind": "keydown", "key": {"key": "a", "ctrl": "yes"}}`),
			"$.events[0].key.ctrl", "must be true or false, not a string"},
		{"object for array", doc(`"events": {}`), "$.events", "must be an array, not an object"},
		{"array for object", evs(`{"id": "e1", "time": 0, "kind": "click", "target": []}`),
			"$.events[0].target", "must be an object, not an array"},
		{"null", evs(`{"id": "e1", "time": 0, "kind": "click", "target": null}`),
			"$.events[0].target", "null is not allowed here: leave the field out instead"},
		{"missing events", doc(`"start": {"url": "http://x/"}`), "$.events", "required field is missing"},
		{"missing driver", `{"format": "cogflow-trace", "version": 1, "events": []}`, "$.driver", "required field is missing"},
		{"missing event id", evs(`{"time": 0, "kind": "click"}`), "$.events[0].id", "required field is missing"},
		{"missing time", evs(`{"id": "e1", "kind": "click"}`), "$.events[0].time", "required field is missing"},
		{"missing parent", doc(`"events": [], "snapshots": {"s1": {"elements": [{"ref": "r1"}]}}`),
			"$.snapshots.s1.elements[0].parent", "required field is missing"},
		{"missing list size", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"list": {"index": 0}}}}`),
			"$.events[0].target.context.list.size", "required field is missing"},
		{"key that is not an identifier", doc(`"events": [], "snapshots": {"page 1": {"titel": "x"}}`),
			`$.snapshots["page 1"].titel`, `unknown field "titel" (did you mean "title"?)`},
		{"bad time", doc(`"events": [], "recorded": "yesterday"`),
			"$.recorded", `invalid time "yesterday": want RFC 3339, like 2025-06-01T09:30:00Z`},
		{"data after the trace", doc(`"events": []`) + ` {}`, "$", "unexpected data after the end of the trace at line 1, column 78"},

		// The content.
		{"empty driver", `{"format": "cogflow-trace", "version": 1, "driver": "", "events": []}`,
			"$.driver", "empty: one of browser, android, uia"},
		{"unknown driver", `{"format": "cogflow-trace", "version": 1, "driver": "selenium", "events": []}`,
			"$.driver", `unknown driver "selenium": one of browser, android, uia`},
		{"viewport", doc(`"start": {"viewport": {"width": 0, "height": 600}}, "events": []`),
			"$.start.viewport", "width and height must be positive, not 0×600"},
		{"empty id", evs(`{"id": "", "time": 0, "kind": "scroll"}`),
			"$.events[0].id", "empty: every event needs an id"},
		{"duplicate id", evs(click1, `{"id": "e1", "time": 5, "kind": "scroll"}`),
			"$.events[1].id", `duplicate event id "e1" (also $.events[0])`},
		{"negative time", evs(`{"id": "e1", "time": -5, "kind": "scroll"}`),
			"$.events[0].time", "negative time -5: times count milliseconds from the start of the recording"},
		{"time order", evs(`{"id": "e1", "time": 1500, "kind": "scroll"}`, `{"id": "e2", "time": 1200, "kind": "scroll"}`),
			"$.events[1].time", "1200 is earlier than the previous event's 1500: events must be in time order"},
		{"unknown kind", evs(`{"id": "e1", "time": 0, "kind": "teleport"}`),
			"$.events[0].kind", `unknown event kind "teleport" (kinds: click, dblclick, rightclick, middleclick, keydown, keyup, input, change, select, copy, cut, paste, dialog, upload, navigate, tab_open, tab_switch, tab_close, scroll, drag_start, drop, submit, focus, hover, wait, viewport)`},
		{"click without target", evs(`{"id": "e1", "time": 0, "kind": "click"}`),
			"$.events[0].target", "missing: a click event needs the element it acted on"},
		{"input without target", evs(`{"id": "e1", "time": 0, "kind": "input", "text": "a"}`),
			"$.events[0].target", "missing: an input event needs the element it acted on"},
		{"keydown without key", evs(`{"id": "e1", "time": 0, "kind": "keydown"}`),
			"$.events[0].key", "missing: a keydown event needs its key"},
		{"keyup with modifiers only", evs(`{"id": "e1", "time": 0, "kind": "keyup", "key": {"ctrl": true}}`),
			"$.events[0].key.key", `empty: a keyup event needs the key's value ("a", "Enter", …)`},
		{"select without text", evs(`{"id": "e1", "time": 0, "kind": "select", "target": {"id": "intro"}}`),
			"$.events[0].text", "missing: a select event needs the selected text"},
		{"navigate without url", evs(`{"id": "e1", "time": 0, "kind": "navigate"}`),
			"$.events[0].url", "missing: a navigate event needs the address it loaded"},
		{"tab_switch without window", evs(`{"id": "e1", "time": 0, "kind": "tab_switch"}`),
			"$.events[0].window", "missing: a tab_switch event needs the tab or window"},
		{"window without id or title", evs(`{"id": "e1", "time": 0, "kind": "tab_close", "window": {"url": "http://x/"}}`),
			"$.events[0].window", "needs an id or a title"},
		{"unknown button", evs(`{"id": "e1", "time": 0, "kind": "click", "button": "primary", "target": {"id": "a"}}`),
			"$.events[0].button", `unknown button "primary": one of left, middle, right, back, forward`},
		{"cause later", evs(`{"id": "e1", "time": 0, "kind": "navigate", "cause": "e2", "url": "http://x/"}`, `{"id": "e2", "time": 0, "kind": "scroll"}`),
			"$.events[0].cause", `"e2" is not an earlier event`},
		{"cause itself", evs(`{"id": "e1", "time": 0, "kind": "navigate", "cause": "e1", "url": "http://x/"}`),
			"$.events[0].cause", `"e1" is not an earlier event`},
		{"unknown snapshot", evs(`{"id": "e1", "time": 0, "kind": "scroll", "snapshot": "s9"}`),
			"$.events[0].snapshot", `no snapshot "s9" in $.snapshots`},
		{"target ref not in snapshot", doc(`"events": [{"id": "e1", "time": 0, "kind": "click", "snapshot": "s1", "target": {"ref": "r7"}}], ` + snap1),
			"$.events[0].target.ref", `no element with ref "r7" in snapshot "s1"`},
		{"list index", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"list": {"index": 3, "size": 3}}}}`),
			"$.events[0].target.context.list.index", "3 is outside the list of 3 items (indexes count from 0)"},
		{"list size", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"list": {"index": 0, "size": 0}}}}`),
			"$.events[0].target.context.list.size", "a list has at least one item, not 0"},
		{"list texts", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"list": {"index": 0, "size": 1, "item_texts": ["a", "b"]}}}}`),
			"$.events[0].target.context.list.item_texts", "2 texts for a list of 1 items"},
		{"header column", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"headers": {"row_index": 0, "column_index": -2}}}}`),
			"$.events[0].target.context.headers.column_index", "-2 is not a column (columns count from 0; -1 is a whole row)"},
		{"negative row", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"context": {"headers": {"row_index": -2, "column_index": 0}}}}`),
			"$.events[0].target.context.headers.row_index", "negative row -2 (rows count from 0; -1 is a header row)"},
		{"negative bounds", evs(`{"id": "e1", "time": 0, "kind": "click", "target": {"bounds": {"x": 0, "y": 0, "w": -1, "h": 5}}}`),
			"$.events[0].target.bounds", "negative size -1×5"},
		{"parent after child", doc(`"events": [], "snapshots": {"s1": {"elements": [{"ref": "r1", "parent": 1}, {"ref": "r2", "parent": -1}]}}`),
			"$.snapshots.s1.elements[0].parent", "1 is not an earlier element: a parent comes before its children (-1 for a root)"},
		{"duplicate ref", doc(`"events": [], "snapshots": {"s1": {"elements": [{"ref": "r1", "parent": -1}, {"ref": "r1", "parent": 0}]}}`),
			"$.snapshots.s1.elements[1].ref", `duplicate ref "r1" (also elements[0])`},
		{"cell", doc(`"events": [], "snapshots": {"s1": {"elements": [{"parent": -1, "cell": {"row": 0, "column": -3}}]}}`),
			"$.snapshots.s1.elements[0].cell.column", "-3 is not a column (columns count from 0; -1 is a whole row)"},
		{"snapshot list", doc(`"events": [], "snapshots": {"s1": {"elements": [{"parent": -1, "list": {"index": -1, "size": 2}}]}}`),
			"$.snapshots.s1.elements[0].list.index", "-1 is outside the list of 2 items (indexes count from 0)"},
		{"empty snapshot id", doc(`"events": [], "snapshots": {"": {}}`), `$.snapshots[""]`, "empty snapshot id"},
		{"screenshot of no event", doc(`"events": [` + click1 + `], "screenshots": {"e2": "shots/e2.png"}`),
			"$.screenshots.e2", `no event "e2": screenshots are keyed by event id`},
		{"screenshot outside", doc(`"events": [` + click1 + `], "screenshots": {"e1": "../e1.png"}`),
			"$.screenshots.e1", `"../e1.png" must be a clean slash-separated path inside the trace's folder, like "shots/e3.png"`},
		{"screenshot absolute", doc(`"events": [` + click1 + `], "screenshots": {"e1": "/tmp/e1.png"}`),
			"$.screenshots.e1", `"/tmp/e1.png" must be a clean slash-separated path inside the trace's folder, like "shots/e3.png"`},
		{"screenshot backslash", doc(`"events": [` + click1 + `], "screenshots": {"e1": "shots\\e1.png"}`),
			"$.screenshots.e1", `"shots\\e1.png" must be a clean slash-separated path inside the trace's folder, like "shots/e3.png"`},
		{"screenshot empty", doc(`"events": [` + click1 + `], "screenshots": {"e1": ""}`),
			"$.screenshots.e1", "empty file name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Read(strings.NewReader(tt.in))
			if err == nil {
				t.Fatalf("no error; read %+v", tr)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T %q is not an *Error", err, err)
			}
			// A "did you mean" is the error's Suggestion, printed after the
			// message.
			msg := e.Msg
			if e.Suggestion != "" {
				msg += " (" + e.Suggestion + ")"
			}
			if e.Path != tt.path || msg != tt.msg {
				t.Errorf("got  %s: %s\nwant %s: %s", e.Path, msg, tt.path, tt.msg)
			}
		})
	}
}
