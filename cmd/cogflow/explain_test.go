package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestCompileExplain: `cogflow compile --explain` prints, for each typed
// value, where it was found, the programs consistent with it and why one
// was written; a value with no evidence says so. Without the flag nothing
// of it is printed.
func TestCompileExplain(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "quote.trace.json")
	if err := trace.Save(path, explainTrace()); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "", "compile", "--no-llm", "--explain", "--dir", filepath.Join(dir, ".cogflow"), path)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"cogflow compile: evidence for 2 values:",
		`op2 "Kasey": regex("\"([^\"]+)\"", text(id: "query").text)`,
		`  found in   text(id: "query") in s1`,
		`  consistent regex("\"([^\"]+)\"", text(id: "query").text)`,
		`  why        the simplest program consistent with the demonstration`,
		`op3 "blue": (no program: an input or a dependency)`,
		`  why        not found on the screen before the step`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("--explain lacks %q:\n%s", want, r.stderr)
		}
	}
	if !strings.Contains(r.stdout, `example: "Kasey"`) {
		t.Errorf("the step read from the screen has no example:\n%s", r.stdout)
	}
	quiet := runCLI(t, "", "compile", "--no-llm", "--dir", filepath.Join(dir, ".cogflow2"), path)
	if strings.Contains(quiet.stderr, "evidence") {
		t.Errorf("evidence printed without --explain:\n%s", quiet.stderr)
	}
}

// explainTrace is a demonstration that types the quoted name of the
// instruction into one field and a color nothing on the page shows into
// another.
func explainTrace() *trace.Trace {
	tr := trace.New(trace.DriverBrowser)
	el := func(ref, role, id, text string, parent int, y float64) trace.Element {
		return trace.Element{Ref: ref, Parent: parent, Attributes: trace.Attributes{Role: role, ID: id, Text: text,
			Editable: role == "textbox", Visible: true, Bounds: trace.Rect{Y: y, W: 100, H: 10}}}
	}
	tr.Snapshots = map[string]trace.Snapshot{"s1": {URL: "http://127.0.0.1/form", Elements: []trace.Element{
		el("r0", "text", "query", `Enter "Kasey" into the first field.`, -1, 0),
		el("r1", "textbox", "name", "", -1, 20),
		el("r2", "textbox", "color", "", -1, 40),
	}}}
	n := 0
	ev := func(e trace.Event) {
		n++
		e.ID, e.Time = "e"+string(rune('0'+n)), int64(n)
		tr.Events = append(tr.Events, e)
	}
	ev(trace.Event{Kind: trace.KindNavigate, URL: "http://127.0.0.1/form"})
	for _, f := range []struct{ ref, value string }{{"r1", "Kasey"}, {"r2", "blue"}} {
		ev(trace.Event{Kind: trace.KindClick, Target: &trace.Target{Ref: f.ref}, Snapshot: "s1", Button: "left"})
		ev(trace.Event{Kind: trace.KindInput, Target: &trace.Target{Ref: f.ref}, Snapshot: "s1", Value: f.value})
	}
	return tr
}
