package trace

import (
	"errors"
	"strings"
	"testing"
)

func TestVersionErrors(t *testing.T) {
	tests := []struct{ name, in, msg string }{
		{"missing", `{"format": "cogflow-trace", "driver": "browser", "events": []}`,
			`trace has no version: this cogflow reads version 1 (the file must begin with "format": "cogflow-trace", "version": 1)`},
		{"newer", `{"format": "cogflow-trace", "version": 2, "driver": "browser", "events": []}`,
			"trace version 2 is not supported: this cogflow reads version 1"},
		{"older", `{"format": "cogflow-trace", "version": 0, "driver": "browser", "events": []}`,
			"trace version 0 is not supported: this cogflow reads version 1"},
		{"string", `{"format": "cogflow-trace", "version": "1", "driver": "browser", "events": []}`,
			`trace version "1" is not supported: this cogflow reads version 1`},
		{"fraction", `{"format": "cogflow-trace", "version": 1.0, "driver": "browser", "events": []}`,
			"trace version 1.0 is not supported: this cogflow reads version 1"},
		// The version is checked first: a newer trace may have fields and
		// kinds this version does not know, and its problem is its version.
		{"newer with new fields", `{"format": "cogflow-trace", "version": 2, "driver": "web", "events": [{"kind": "hover"}], "frames": []}`,
			"trace version 2 is not supported: this cogflow reads version 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in))
			var ve *VersionError
			if !errors.As(err, &ve) {
				t.Fatalf("error %T %v is not a *VersionError", err, err)
			}
			if err.Error() != tt.msg {
				t.Errorf("got  %s\nwant %s", err, tt.msg)
			}
			if !errors.Is(err, ErrUnsupportedVersion) {
				t.Error("errors.Is(err, ErrUnsupportedVersion) is false")
			}
		})
	}
}

func TestValidateReportsEveryProblemInOrder(t *testing.T) {
	in := evs(
		`{"id": "e1", "time": 10, "kind": "click"}`,
		`{"id": "e1", "time": 5, "kind": "navigate"}`,
		`{"id": "e3", "time": 20, "kind": "keydown", "snapshot": "s1"}`,
	)
	_, err := Read(strings.NewReader(in))
	var list Errors
	if !errors.As(err, &list) {
		t.Fatalf("error %T %v is not Errors", err, err)
	}
	want := []string{
		"$.events[0].target: missing: a click event needs the element it acted on",
		`$.events[1].id: duplicate event id "e1" (also $.events[0])`,
		"$.events[1].time: 5 is earlier than the previous event's 10: events must be in time order",
		"$.events[1].url: missing: a navigate event needs the address it loaded",
		"$.events[2].key: missing: a keydown event needs its key",
		`$.events[2].snapshot: no snapshot "s1" in $.snapshots`,
	}
	if len(list) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(list), len(want), err)
	}
	for i, e := range list {
		if e.Error() != want[i] {
			t.Errorf("problem %d:\ngot  %s\nwant %s", i, e, want[i])
		}
	}
	if got := err.Error(); !strings.HasPrefix(got, "6 problems in the trace:\n\t$.events[0].target: missing") {
		t.Errorf("Error() = %q", got)
	}
}

func TestWriteRefusesAnInvalidTrace(t *testing.T) {
	tr := New(DriverBrowser)
	tr.Events = append(tr.Events, Event{ID: "e1", Kind: KindClick})
	var b strings.Builder
	err := Write(&b, tr)
	if err == nil || err.Error() != "$.events[0].target: missing: a click event needs the element it acted on" {
		t.Errorf("Write: %v", err)
	}
	if b.Len() != 0 {
		t.Errorf("Write wrote %q", b.String())
	}
	tr = &Trace{Driver: DriverBrowser}
	err = Write(&b, tr)
	want := "2 problems in the trace:\n\t$.format: not a cogflow trace: format is \"\", want \"cogflow-trace\"\n" +
		"\t$.version: trace version 0 is not supported: this cogflow reads version 1"
	if err == nil || err.Error() != want {
		t.Errorf("Write without format and version: %v", err)
	}
}

func TestEmptyTrace(t *testing.T) {
	tr := New(DriverAndroid)
	tr.Events = nil // a recorder stopped before anything happened
	data, err := Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"format\": \"cogflow-trace\",\n  \"version\": 1,\n  \"driver\": \"android\",\n  \"events\": []\n}\n"
	if string(data) != want {
		t.Errorf("got %q", data)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Events) != 0 || back.Driver != DriverAndroid {
		t.Errorf("read back %+v", back)
	}
}
