package goal

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// demo is a small task page in the shape of the MiniWoB++ ones (written
// here, not copied): the instruction in #query (with its value in a span
// inside), the controls in #area, and what the person did.
type demo struct {
	name, instruction string
	params            []string // the instruction's values
	controls          []ctl
	acts              []act
}

type ctl struct{ role, label string }

type act struct {
	kind  trace.Kind
	label string // the control acted on
	value string // typed
}

// the three demonstrations the protocol tests use.
var demos = []demo{
	{name: "click-button", instruction: `Click on the "ok" button.`, params: []string{"ok"},
		controls: []ctl{{"button", "ok"}, {"button", "cancel"}},
		acts:     []act{{kind: trace.KindClick, label: "ok"}}},
	{name: "enter-text", instruction: `Enter "Kanesha" into the text field and press Submit.`, params: []string{"Kanesha"},
		controls: []ctl{{"textbox", ""}, {"button", "Submit"}},
		acts:     []act{{kind: trace.KindClick, label: ""}, {kind: trace.KindInput, label: "", value: "Kanesha"}, {kind: trace.KindClick, label: "Submit"}}},
	{name: "click-checkboxes", instruction: `Select lemon, quince and click Submit.`, params: []string{"lemon", "quince"},
		controls: []ctl{{"checkbox", "lemon"}, {"checkbox", "pear"}, {"checkbox", "quince"}, {"button", "Submit"}},
		acts:     []act{{kind: trace.KindClick, label: "lemon"}, {kind: trace.KindClick, label: "quince"}, {kind: trace.KindClick, label: "Submit"}}},
}

// build makes the demonstration's trace. The instruction is everywhere a
// recorder puts it: #query and the span in it, the text of their
// ancestor, a capped context, the window title.
func (d demo) build() *trace.Trace {
	tr := trace.New(trace.DriverBrowser)
	url := "http://127.0.0.1:1/" + d.name + ".html"
	tr.Start.URL = url
	var labels []string
	for _, c := range d.controls {
		labels = append(labels, c.label)
	}
	area := strings.TrimSpace(strings.Join(labels, " "))
	els := []trace.Element{
		{Ref: "r0", Parent: -1, Attributes: trace.Attributes{Role: "generic", ID: "wrap", Text: d.instruction + " " + area}},
		{Ref: "r1", Parent: 0, Attributes: trace.Attributes{Role: "text", ID: "query", Text: d.instruction}},
		{Ref: "r2", Parent: 1, Attributes: trace.Attributes{Role: "text", Text: d.params[0]}},
		{Ref: "r3", Parent: 0, Attributes: trace.Attributes{Role: "generic", ID: "area", Text: area}},
	}
	for i, c := range d.controls {
		a := trace.Attributes{Role: c.role, Name: c.label, Visible: true, Enabled: true}
		if c.role == "textbox" {
			a.Editable = true
		}
		els = append(els, trace.Element{Ref: fmt.Sprintf("c%d", i), Parent: 3, Attributes: a})
	}
	title := "Task: " + d.instruction
	tr.Snapshots = map[string]trace.Snapshot{"s1": {URL: url, Title: title, Elements: els}}
	tr.Events = append(tr.Events, trace.Event{ID: "e1", Kind: trace.KindNavigate, URL: url, Window: &trace.Window{ID: "w1", Title: title, URL: url}})
	// The person reads the instruction first: a click on it.
	tr.Events = append(tr.Events, trace.Event{ID: "e2", Time: 10, Kind: trace.KindClick, Snapshot: "s1",
		Target: &trace.Target{Ref: "r2", Attributes: trace.Attributes{Role: "text", Text: d.params[0]}}})
	for i, a := range d.acts {
		ref := ""
		for j, c := range d.controls {
			if c.label == a.label {
				ref = fmt.Sprintf("c%d", j)
				break
			}
		}
		ev := trace.Event{ID: fmt.Sprintf("e%d", i+3), Time: int64(100 * (i + 1)), Kind: a.kind, Snapshot: "s1", Value: a.value,
			Target: &trace.Target{Ref: ref, Context: &trace.Context{ParentText: capText(d.instruction+" "+area, 24)}}}
		tr.Events = append(tr.Events, ev)
	}
	return tr
}

// writeDemos writes the demonstrations as an evaluation folder and
// returns it.
func writeDemos(t *testing.T, ds []demo) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range ds {
		if err := trace.Save(filepath.Join(dir, d.name+TraceSuffix), d.build()); err != nil {
			t.Fatal(err)
		}
		goalTxt := d.instruction + "\n"
		for _, p := range d.params {
			goalTxt += "param: " + p + "\n"
		}
		goalTxt += "mask: #query\n"
		if err := os.WriteFile(filepath.Join(dir, d.name+GoalSuffix), []byte(goalTxt), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func writeText(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }
