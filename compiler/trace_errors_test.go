package compiler

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/runtime/trace"
)

// TestErrorsPointIntoTheTrace compiles traces whose workflow does not
// check and wants each error at the JSON path of the event its step came
// from, never at a position in the workflow, which is not written.
func TestErrorsPointIntoTheTrace(t *testing.T) {
	const head = `{"format":"cogflow-trace","version":1,"driver":"browser","source":"test","title":"x","start":{"url":"http://127.0.0.1:8088/"},"events":[
{"id":"e1","time":100,"kind":"navigate","url":"http://127.0.0.1:8088/files","window":{"id":"t1","title":"Files"}},
{"id":"e2","time":200,"kind":"click","target":{"role":"textbox","name":"Query","id":"q","editable":true},"button":"left"},`
	tests := []struct {
		name, event, path, want string
	}{
		{"unknown key", `{"id":"e3","time":300,"kind":"keydown","key":{"key":"Zork","ctrl":true},"target":{"role":"textbox","name":"Query","id":"q","editable":true}}`,
			"$.events[2]", "step `op3 = key(\"Ctrl+Zork\", target: query)`, compiled from event e3, does not check: unknown key \"Zork\""},
		{"unknown key later", `{"id":"e3","time":300,"kind":"keydown","key":{"key":"Enter"},"target":{"role":"textbox","name":"Query","id":"q","editable":true}},
{"id":"e4","time":400,"kind":"keydown","key":{"key":"Quux","alt":true},"target":{"role":"textbox","name":"Query","id":"q","editable":true}}`,
			"$.events[3]", "compiled from event e4, does not check: unknown key \"Quux\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Parse([]byte(head + tt.event + "]}"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Compile(tr, Options{Filename: "out.cog", Trace: "in.trace.json"})
			var errs diag.ListError
			if !errors.As(err, &errs) || len(errs) != 1 {
				t.Fatalf("error %v (%T), want one diagnostic", err, err)
			}
			if errs[0].Range.Filename != "in.trace.json" || errs[0].Path != tt.path || !strings.Contains(errs[0].Message, tt.want) {
				t.Errorf("got %s\nwant in.trace.json: %s: …%s…", errs[0], tt.path, tt.want)
			}
			if strings.Contains(err.Error(), "out.cog") {
				t.Errorf("the error names the unwritten workflow: %v", err)
			}
		})
	}
}

// TestWarningsPointIntoTheTrace: a compiler warning is a diagnostic at the
// event its step was compiled from, in the trace file given.
func TestWarningsPointIntoTheTrace(t *testing.T) {
	tr, err := trace.Load("testdata/structure.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(tr, Options{Filename: "structure.cog", Trace: "testdata/structure.trace.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) == 0 {
		t.Fatal("no warnings")
	}
	w := res.Warnings[0] // the TODO choice of op1: "op1: click on a list item (e2): …"
	_, cited, _ := strings.Cut(w.Message, "(")
	cited, _, _ = strings.Cut(cited, ")")
	want := ""
	for i, e := range tr.Events {
		if e.ID == cited {
			want = fmt.Sprintf("$.events[%d]", i)
		}
	}
	if w.Severity != diag.Warning || w.Range.Filename != "testdata/structure.trace.json" || want == "" || w.Path != want {
		t.Errorf("warning %s, want a warning at testdata/structure.trace.json: %s (event %q)", w, want, cited)
	}
	if !strings.HasPrefix(string(res.Source), "# Compiled from structure.trace.json ") {
		t.Errorf("the header cites more than the trace's base name:\n%.80s", res.Source)
	}
}
