package main

import (
	"strings"
	"testing"
)

// TestCompileAndImportErrorPaths: errors of compile and import name the
// file given and a JSON path in it, never the .cog that compile did not
// write, nor Go's type names.
func TestCompileAndImportErrorPaths(t *testing.T) {
	dir := t.TempDir()
	tr := writeFile(t, dir, "t.trace.json", `{"format":"cogflow-trace","version":1,"driver":"browser","source":"test","title":"x","start":{"url":"http://127.0.0.1:8088/"},"events":[
{"id":"e1","time":100,"kind":"navigate","url":"http://127.0.0.1:8088/files","window":{"id":"t1","title":"Files"}},
{"id":"e2","time":200,"kind":"keydown","key":{"key":"Zork","ctrl":true},"target":{"role":"textbox","name":"Query","id":"q","editable":true}}]}`)
	badURL := writeFile(t, dir, "url.json", `{"title": "x", "steps": [{"type": "navigate", "url": "::::"}]}`)
	badType := writeFile(t, dir, "type.json", `{"title": "x", "steps": {"type": "navigate"}}`)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"compile", tr, "--no-llm", "-o", dir + "/t.cog"}, tr + ": $.events[1]: error: step `op2 = key(\"Ctrl+Zork\", target: textbox(name: \"Query\", id: \"q\"))`, compiled from event e2, does not check: unknown key \"Zork\""},
		{[]string{"import", badURL}, badURL + `: $.steps[0].url: error: "::::" is not an absolute URL`},
		{[]string{"import", badType}, badType + ": $.steps: error: not a DevTools Recorder recording: must be an array, not an object"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != exitBadInput || !strings.Contains(r.stderr, tt.want) || strings.Contains(r.stderr, ".cog:") || strings.Contains(r.stderr, "Go ") {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", tt.args, r.code, r.stderr, exitBadInput, tt.want)
		}
	}
}
