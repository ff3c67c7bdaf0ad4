package goal

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

func load(t *testing.T, path string) *trace.Trace {
	t.Helper()
	tr, err := trace.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestInferRules: the rules' sentence and parameters on the project's own
// recorded and imported demonstrations.
func TestInferRules(t *testing.T) {
	cases := []struct {
		file     string
		sentence string
		params   []string // name=value
	}{
		{"../../testdata/signup.trace.json", `Enter "Ada" into textbox "Name", then click "Send"`, []string{"name=Ada"}},
		{"../../runtime/trace/testdata/keyword.trace.json",
			`Enter "Denali" into textbox "Search", click "Search", click "Denali", select "Denali is the highest mountain in North America, with a sum…", switch to "Notes", then enter "Alaska" into textbox "Notes"`,
			[]string{"search=Denali", "notes=Alaska"}},
		{"../../runtime/trace/testdata/devtools_form.trace.json",
			`Press Ctrl+a, enter "Ada Lovelace" into "Name", press Tab, enter "ada@example.org" into "Email", enter "+44 20 7946 0958" into "Phone", enter "United Kingdom" into "Country", click "Newsletter", right-click "Newsletter", then click "Submit"`,
			[]string{"name=Ada Lovelace", "email=ada@example.org", "phone=+44 20 7946 0958", "country=United Kingdom", "item=Newsletter"}},
		{"../../runtime/trace/testdata/explorer.trace.json",
			`Right-click "report-draft.docx", click "Cut", drag listitem "report-final.docx", drop it onto treeitem "Archive", then enter "Details" into combobox "View"`,
			[]string{"item=report-draft.docx", "item_2=Cut", "view=Details"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			g, err := Infer(context.Background(), load(t, c.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Source != SourceRules {
				t.Errorf("source %q, want rules", g.Source)
			}
			if g.Sentence != c.sentence {
				t.Errorf("sentence\n got %s\nwant %s", g.Sentence, c.sentence)
			}
			var got []string
			for _, p := range g.Params {
				got = append(got, p.Name+"="+p.Value)
				if p.Where == "" || !strings.HasPrefix(p.Where, "e") {
					t.Errorf("param %s: where %q names no event", p.Name, p.Where)
				}
			}
			if strings.Join(got, "|") != strings.Join(c.params, "|") {
				t.Errorf("params\n got %q\nwant %q", got, c.params)
			}
		})
	}
}

// TestRulesFolding: how raw events fold into steps and clauses.
func TestRulesFolding(t *testing.T) {
	el := func(role, name string) *trace.Target {
		return &trace.Target{Attributes: trace.Attributes{Role: role, Name: name}}
	}
	ev := func(kind trace.Kind, tg *trace.Target, f func(*trace.Event)) trace.Event {
		e := trace.Event{Kind: kind, Target: tg}
		if f != nil {
			f(&e)
		}
		return e
	}
	ctrlC := func(e *trace.Event) { e.Key = &trace.Key{Key: "c", Ctrl: true} }
	cases := []struct {
		name   string
		events []trace.Event
		want   string
	}{
		{"a repeated click counts", []trace.Event{ev(trace.KindClick, el("button", "+"), nil), ev(trace.KindClick, el("button", "+"), nil), ev(trace.KindClick, el("button", "+"), nil), ev(trace.KindClick, el("button", "Submit"), nil)},
			`Click "+" 3 times, then click "Submit"`},
		{"a label's click passes to its box", []trace.Event{ev(trace.KindClick, el("text", "Pear"), nil), ev(trace.KindClick, el("checkbox", "Pear"), nil)},
			`Check "Pear"`},
		{"the chord of a copy is the copy", []trace.Event{ev(trace.KindKeyDown, el("cell", "x"), ctrlC), ev(trace.KindCopy, el("cell", "x"), func(e *trace.Event) { e.Text = "x" })},
			`Copy "x"`},
		{"keystrokes and the focusing click are one typing", []trace.Event{ev(trace.KindClick, el("textbox", "Q"), nil), ev(trace.KindInput, el("textbox", "Q"), func(e *trace.Event) { e.Value = "a" }), ev(trace.KindInput, el("textbox", "Q"), func(e *trace.Event) { e.Value = "ab" }), ev(trace.KindKeyDown, el("textbox", "Q"), func(e *trace.Event) { e.Key = &trace.Key{Key: "Enter"} })},
			`Enter "ab" into textbox "Q", then press Enter`},
		{"two unlabelled fields stay two", []trace.Event{
			ev(trace.KindInput, &trace.Target{Attributes: trace.Attributes{Role: "textbox", ID: "a"}}, func(e *trace.Event) { e.Value = "x" }),
			ev(trace.KindInput, &trace.Target{Attributes: trace.Attributes{Role: "textbox", ID: "b"}}, func(e *trace.Event) { e.Value = "y" })},
			`Enter "x" into textbox, then enter "y" into textbox`},
		{"a click into a field with no typing after it is a step", []trace.Event{ev(trace.KindClick, el("textbox", ""), nil)}, "Click a textbox"},
		{"no steps", nil, "Do nothing (the demonstration has no steps)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := trace.New(trace.DriverBrowser)
			for i, e := range c.events {
				e.ID, e.Time = "e"+string(rune('1'+i)), int64(i)
				tr.Events = append(tr.Events, e)
			}
			g, err := Infer(context.Background(), tr, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Sentence != c.want {
				t.Errorf("got  %s\nwant %s", g.Sentence, c.want)
			}
		})
	}
}

// TestSecretNeverInGoal: a password typed into a secret field is neither a
// parameter nor in the sentence nor in the trajectory a prompt shows.
func TestSecretNeverInGoal(t *testing.T) {
	tr := trace.New(trace.DriverBrowser)
	// A snapshot that still holds the value (a recorder that failed to
	// mask it) must not show it either.
	tr.Snapshots = map[string]trace.Snapshot{"s1": {Elements: []trace.Element{
		{Ref: "pw", Parent: -1, Attributes: trace.Attributes{Role: "textbox", Value: "hunter2"}},
		{Ref: "go", Parent: -1, Attributes: trace.Attributes{Role: "button", Name: "Log in"}}}}}
	tr.Events = []trace.Event{
		{ID: "e1", Kind: trace.KindInput, Value: "hunter2", Snapshot: "s1", Target: &trace.Target{Ref: "pw", Attributes: trace.Attributes{Role: "textbox", Name: "Password"}, Secret: true}},
		{ID: "e2", Time: 1, Kind: trace.KindClick, Snapshot: "s1", Target: &trace.Target{Ref: "go", Attributes: trace.Attributes{Role: "button", Name: "Log in"}}},
	}
	g, err := Infer(context.Background(), tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := g.Sentence + Trajectory(tr)
	for _, p := range g.Params {
		all += p.Value
	}
	if strings.Contains(all, "hunter2") {
		t.Fatalf("the password leaked: %s", all)
	}
	if g.Sentence != `Enter the password into textbox "Password", then click "Log in"` {
		t.Errorf("sentence %q", g.Sentence)
	}
}

// TestMask: after masking, the instruction is nowhere in the trace (not in
// #query, its span, its ancestor's text, a capped context, a target inside
// it, the window title), and the controls' labels are still there.
func TestMask(t *testing.T) {
	for _, d := range demos {
		t.Run(d.name, func(t *testing.T) {
			tr := d.build()
			masked, n, err := Mask(tr, MaskSpec{IDs: []string{"#query"}, Texts: []string{d.instruction}})
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(masked)
			text := string(data)
			if strings.Contains(text, jsonText(d.instruction)) || strings.Contains(text, jsonText(d.instruction[:minPartial])) {
				t.Errorf("the instruction survived the mask:\n%s", text)
			}
			if n < 4 {
				t.Errorf("hid %d texts, want at least 4 (query, its span, the wrap text, the title)", n)
			}
			for _, c := range d.controls {
				if c.label != "" && !strings.Contains(text, jsonText(c.label)) {
					t.Errorf("the control %q was masked too", c.label)
				}
			}
			// An empty id names nothing.
			if _, n, _ := Mask(tr, MaskSpec{IDs: []string{"#", ""}}); n != 0 {
				t.Errorf("an empty id hid %d texts", n)
			}
			// The original is unchanged.
			orig, _ := json.Marshal(tr)
			if !strings.Contains(string(orig), jsonText(d.instruction)) {
				t.Error("Mask changed its input")
			}
			if _, err := trace.Marshal(masked); err != nil {
				t.Errorf("the masked trace is not valid: %v", err)
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestJudgeRules: the rules compare the values each trajectory used with
// the other description, and say so.
func TestJudgeRules(t *testing.T) {
	ok := demos[0].build() // clicks "ok"
	form := demos[1].build()
	empty := trace.New(trace.DriverBrowser)
	cases := []struct {
		name         string
		a, b         Described
		verdict      string
		answerAB, ba string
	}{
		{"both name the values", Described{`Press the "ok" button`, ok}, Described{`Click ok`, ok}, Match, Yes, Yes},
		{"a value missing", Described{`Press the "ok" button`, ok}, Described{`Click the button`, ok}, Partial, Not, Yes},
		{"different values", Described{`Click ok`, ok}, Described{`Type Bob and submit`, form}, No, Not, Not},
		{"a value is not a word inside another", Described{`Click "okay"`, ok}, Described{`Click ok`, ok}, Partial, Yes, Not},
		{"nothing to compare", Described{`Do it`, empty}, Described{`Do that`, empty}, Unknown, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Judge(context.Background(), c.a, c.b, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if v.Verdict != c.verdict || v.AB.Answer != c.answerAB || v.BA.Answer != c.ba || v.Source != SourceRules {
				t.Errorf("got %s (A→B %q, B→A %q, %s), want %s (%q, %q)", v.Verdict, v.AB.Answer, v.BA.Answer, v.Source, c.verdict, c.answerAB, c.ba)
			}
			if !strings.HasPrefix(v.AB.Reason, "rules only") || !strings.HasPrefix(v.BA.Reason, "rules only") {
				t.Errorf("the reasons do not say rules only: %q %q", v.AB.Reason, v.BA.Reason)
			}
		})
	}
	if _, err := Judge(context.Background(), Described{"x", ok}, Described{"  ", ok}, Options{}); err == nil {
		t.Error("an empty description was judged")
	}
}

// TestEvaluateRules: the protocol with rules only, on the three
// demonstrations: every reference value is recovered, no sentence is
// exact, and the table says rules only.
func TestEvaluateRules(t *testing.T) {
	dir := writeDemos(t, demos)
	rep, err := Evaluate(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	tot := rep.Totals()
	if tot.Rows != 3 || tot.AllFound != 3 || tot.Values != 4 || tot.ValuesFound != 4 || tot.Exact != 0 || tot.Errors != 0 {
		t.Errorf("totals %+v", tot)
	}
	for _, row := range rep.Rows {
		if row.Inferred == nil || row.Inferred.Source != SourceRules || row.Verdict == nil {
			t.Fatalf("%s: %+v", row.Name, row)
		}
		if strings.Contains(row.Inferred.Sentence, "[hidden]") {
			t.Errorf("%s: the sentence shows the mask: %s", row.Name, row.Inferred.Sentence)
		}
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rep, true); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rules only (no model)", "click-button", "3 of 3 goals", "4 of 4 values", "Exact sentences: 0 of 3", "Judge: "} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestReadReference: the goal file's directives and its errors.
func TestReadReference(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		text    string
		goal    string
		params  []string
		ids     []string
		wantErr string
	}{
		{"Enter \"Ann\" and \"Bo\"\n", `Enter "Ann" and "Bo"`, []string{"Ann", "Bo"}, nil, ""},
		{"Select 3 items\nparam: 3\nmask: #query\nmask: secret words\n", "Select 3 items", []string{"3"}, []string{"query"}, ""},
		{"\n\n", "", nil, nil, ":1:1: no reference goal"},
		{"One\nTwo\n", "", nil, nil, ":2:1: a second goal line"},
	}
	for i, c := range cases {
		p := dir + "/" + string(rune('a'+i)) + GoalSuffix
		if err := writeText(p, c.text); err != nil {
			t.Fatal(err)
		}
		r, err := ReadReference(p)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%q: error %v, want %q", c.text, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if r.Goal != c.goal || strings.Join(r.Params, "|") != strings.Join(c.params, "|") || strings.Join(r.Mask.IDs, "|") != strings.Join(c.ids, "|") {
			t.Errorf("%q: got %+v", c.text, r)
		}
		if r.Mask.Texts[len(r.Mask.Texts)-1] != r.Goal {
			t.Errorf("%q: the reference goal is not masked", c.text)
		}
	}
}
