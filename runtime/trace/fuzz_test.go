package trace

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

func FuzzRead(f *testing.F) {
	for _, file := range traceFiles(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		evs(click1), doc(`"events": [], ` + snap1), evs(`{"id": "e1", "time": 0, "kind": "keydown", "key": {"key": "a"}}`),
		`{"format": "cogflow-trace", "version": 2}`, `[]`, `null`, `{"format": "cogflow-trace", "version": 1, "driver": "uia", "events": [], "recorded": "2025-01-01T10:00:00+02:00"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Parse(data)
		if err != nil {
			if err.Error() == "" {
				t.Error("empty error message")
			}
			return
		}
		out, err := Marshal(tr)
		if err != nil {
			t.Fatalf("an accepted trace cannot be written: %v", err)
		}
		again, err := Parse(out)
		if err != nil {
			t.Fatalf("the written trace cannot be read: %v\n%s", err, out)
		}
		out2, err := Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("writing is not stable:\n%s\n%s", out, out2)
		}
		// Times compare by instant; the rest must be identical.
		if !again.Recorded.Equal(tr.Recorded) {
			t.Fatalf("recorded %v became %v", tr.Recorded, again.Recorded)
		}
		a, b := *tr, *again
		a.Recorded, b.Recorded = a.Recorded.UTC(), b.Recorded.UTC()
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("Read(Write(trace)) differs from the trace")
		}
	})
}

func FuzzFromDevTools(f *testing.F) {
	for _, file := range []string{"testdata/devtools_wiki.json", "testdata/devtools_form.json"} {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"steps": [{"type": "click", "selectors": [["aria/a[role=\"b\"]"], ["#\\"], ["xpath//html/body/x"]]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, warns, err := FromDevTools(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, w := range warns {
			if strings.TrimSpace(w.Msg) == "" {
				t.Error("empty warning")
			}
		}
		if _, err := Marshal(tr); err != nil {
			t.Fatalf("an imported trace cannot be written: %v", err)
		}
	})
}
