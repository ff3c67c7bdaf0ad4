package compiler

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestDialogsAndUploads: a dialog the person answered becomes dialog: (and
// prompt:) on the step that opened it; files chosen for a file input
// become upload(target, files), the click that opened the chooser folded
// in.
func TestDialogsAndUploads(t *testing.T) {
	button := func(id, name string) *trace.Target {
		return &trace.Target{Attributes: trace.Attributes{Role: "button", Name: name, ID: id}}
	}
	file := &trace.Target{Attributes: trace.Attributes{Role: "button", Label: "Attachment", Name: "Attachment", ID: "att"}}
	click := func(id string, tg *trace.Target) trace.Event {
		return trace.Event{ID: id, Kind: trace.KindClick, Button: "left", Target: tg}
	}
	dialog := func(id, cause string, d trace.Dialog) trace.Event {
		return trace.Event{ID: id, Kind: trace.KindDialog, Cause: cause, Dialog: &d}
	}
	upload := func(id string, tg *trace.Target, files ...string) trace.Event {
		return trace.Event{ID: id, Kind: trace.KindUpload, Target: tg, Files: files}
	}
	for _, tc := range []struct {
		name   string
		events []trace.Event
		want   []string // the steps, op2 on (op1 opens the page)
	}{
		{"confirm accepted", []trace.Event{click("e2", button("del", "Delete")), dialog("e3", "e2", trace.Dialog{Type: "confirm", Message: "Sure?", Accept: true})},
			[]string{`click(button(name: "Delete", id: "del"), dialog: "accept")`}},
		{"confirm dismissed", []trace.Event{click("e2", button("del", "Delete")), dialog("e3", "e2", trace.Dialog{Type: "confirm", Message: "Sure?"})},
			[]string{`click(button(name: "Delete", id: "del"), dialog: "dismiss")`}},
		{"prompt answered", []trace.Event{click("e2", button("ren", "Rename")), dialog("e3", "e2", trace.Dialog{Type: "prompt", Accept: true, Prompt: "Archive"})},
			[]string{`click(button(name: "Rename", id: "ren"), dialog: "accept", prompt: "Archive")`}},
		{"alert without a cause goes to the last step", []trace.Event{click("e2", button("go", "Go")), click("e3", button("save", "Save")), dialog("e4", "", trace.Dialog{Type: "alert", Message: "Saved", Accept: true})},
			[]string{`click(button(name: "Go", id: "go"))`, `click(button(name: "Save", id: "save"), dialog: "accept")`}},
		{"two dialogs of one step: the first answers", []trace.Event{click("e2", button("del", "Delete")), dialog("e3", "e2", trace.Dialog{Type: "confirm", Accept: true}), dialog("e4", "e2", trace.Dialog{Type: "alert", Accept: true})},
			[]string{`click(button(name: "Delete", id: "del"), dialog: "accept")`}},
		{"upload after a click on the input", []trace.Event{click("e2", file), upload("e3", file, "report.pdf")},
			[]string{`upload(button(name: "Attachment", id: "att"), attachment)`}},
		{"upload of two files, no click", []trace.Event{upload("e2", file, "a.png", "b.png")},
			[]string{`upload(button(name: "Attachment", id: "att"), ["a.png", "b.png"])`}},
		{"upload after a click elsewhere", []trace.Event{click("e2", button("add", "Add")), upload("e3", file, "a.png")},
			[]string{`click(button(name: "Add", id: "add"))`, `upload(button(name: "Attachment", id: "att"), attachment)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := trace.New(trace.DriverBrowser)
			tr.Events = append([]trace.Event{{ID: "e1", Kind: trace.KindNavigate, URL: "http://127.0.0.1:8088/files"}}, tc.events...)
			for i := range tr.Events {
				tr.Events[i].Time = int64(i * 500)
			}
			if err := tr.Validate(); err != nil {
				t.Fatal(err)
			}
			res := compileOK(t, tr, "dialogs.trace.json")
			for i, want := range tc.want {
				if got := stepOf(t, res, "op"+string(rune('2'+i))); got != want {
					t.Errorf("op%d = %s\nwant  %s\n%s", i+2, got, want, res.Source)
				}
			}
			if n := strings.Count(string(res.Source), "\n  op"); n != len(tc.want)+1 {
				t.Errorf("%d steps, want %d:\n%s", n, len(tc.want)+1, res.Source)
			}
		})
	}
}
