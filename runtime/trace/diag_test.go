package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDiagnostics: every kind of trace error becomes diagnostics that name
// the file and the JSON path, with the suggestion on a line of its own.
func TestDiagnostics(t *testing.T) {
	const head = `{"format": "cogflow-trace", "version": 1, "driver": "browser", "events": [`
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, text string
		want       string // the start of the rendering, FILE for the file's path
	}{
		{"unknown field", head + `{"id": "e1", "time": 1, "Kind": "click"}]}`,
			"FILE: $.events[0].Kind: error: unknown field \"Kind\"\n  = help: did you mean \"kind\"?\n"},
		{"validation", head + `{"id": "e1", "time": 2, "kind": "click"}, {"id": "e1", "time": 1, "kind": "navigate"}]}`,
			"FILE: $.events[0].target: error: missing: a click event needs the element it acted on\n" +
				"FILE: $.events[1].id: error: duplicate event id \"e1\" (also $.events[0])\n" +
				"FILE: $.events[1].time: error: 1 is earlier than the previous event's 2: events must be in time order\n" +
				"FILE: $.events[1].url: error: missing: a navigate event needs the address it loaded\n"},
		{"version", `{"format": "cogflow-trace", "version": 7}`,
			"FILE: $.version: error: trace version 7 is not supported: this cogflow reads version 1\n"},
		{"not JSON", `{"format": `, "FILE: $.format: error: invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write(tt.name+".json", tt.text)
			_, err := Load(path)
			ds := Diagnostics(err, path)
			if len(ds) == 0 || !ds.HasErrors() {
				t.Fatalf("no diagnostics for %v", err)
			}
			var b strings.Builder
			ds.Render(&b, nil)
			got := strings.ReplaceAll(b.String(), path, "FILE")
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	if ds := Diagnostics(nil, "x"); ds != nil {
		t.Errorf("nil error gave %v", ds)
	}
	missing := filepath.Join(dir, "missing.json")
	_, err := Load(missing)
	if ds := Diagnostics(err, missing); len(ds) != 1 || ds[0].Path != "" || !strings.HasPrefix(ds[0].String(), missing+": error: open ") {
		t.Errorf("missing file: %v", ds)
	}
	w := Warning{Step: 3, Type: "hover", Msg: "no event of this kind"}
	if got, want := w.Diagnostic("rec.json").String(), "rec.json: $.steps[3]: warning: hover step: no event of this kind"; got != want {
		t.Errorf("warning %q, want %q", got, want)
	}
	_, _, err = FromDevTools(strings.NewReader(`{"steps": 3}`))
	ds := Diagnostics(err, "rec.json")
	if want := "rec.json: $.steps: error: not a DevTools Recorder recording: must be an array, not a number"; len(ds) != 1 || ds[0].String() != want {
		t.Errorf("FromDevTools: %v, want %s", ds, want)
	}
}
