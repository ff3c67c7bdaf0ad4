package goal

import (
	"context"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestAnswerWordNeverGuesses: a reply line is read as a verdict only when
// it states one; an echoed template, a hedge or two verdicts are none.
func TestAnswerWordNeverGuesses(t *testing.T) {
	cases := []struct{ in, want string }{
		{"yes", Yes},
		{"Yes.", Yes},
		{"**No**", Not},
		{"** Yes", Yes}, // "**Answer:** Yes"
		{"** no, it types another name", Not},
		{"partly", Partly},
		{"No, the trajectory types another name", Not},
		{"Yes - every value matches", Yes},
		{"yes | partly | no", ""}, // the template echoed
		{"yes/no", ""},
		{"not sure", ""},
		{"no idea", ""},
		{"yes or no", ""},
		{"Partly yes", ""},
		{"maybe", ""},
		{"unknown", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := answerWord(c.in); got != c.want {
			t.Errorf("answerWord(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// leaks reports the forms of instruction that text shows: as written, its
// first minPartial characters, or escaped as a URL's query or path.
func leaks(text, instruction string) []string {
	var out []string
	low := strings.ToLower(text)
	for _, f := range []string{instruction, instruction[:minPartial], url.QueryEscape(instruction),
		url.PathEscape(instruction), url.QueryEscape(instruction[:minPartial]), url.PathEscape(instruction[:minPartial])} {
		if strings.Contains(low, strings.ToLower(f)) {
			out = append(out, f)
		}
	}
	return out
}

// TestMaskHidesEveryForm: the instruction is hidden from every prompt
// however the trace carries it: in URLs' query strings (+ or %20), in
// the masked element's accessible name when it has no text (UIA, an
// aria-label), in its capped text ending in "…" while a window title holds
// the whole of it.
func TestMaskHidesEveryForm(t *testing.T) {
	const instr = `Click on the "ok" button and then on Submit, please.`
	capped := instr[:30] + "…"
	base := func() *trace.Trace {
		tr := trace.New(trace.DriverBrowser)
		tr.Start.URL = "http://127.0.0.1:1/task"
		tr.Snapshots = map[string]trace.Snapshot{"s1": {URL: tr.Start.URL, Title: "Task", Elements: []trace.Element{
			{Ref: "r0", Parent: -1, Attributes: trace.Attributes{Role: "generic", ID: "query", Name: instr}},
			{Ref: "r1", Parent: -1, Attributes: trace.Attributes{Role: "button", Name: "ok"}},
		}}}
		tr.Events = []trace.Event{
			{ID: "e1", Kind: trace.KindClick, Snapshot: "s1", Target: &trace.Target{Ref: "r1"}},
		}
		return tr
	}
	cases := []struct {
		name string
		edit func(tr *trace.Trace)
		spec MaskSpec
	}{
		{"query string with +", func(tr *trace.Trace) {
			u := "http://127.0.0.1:1/next?goal=" + url.QueryEscape(instr)
			tr.Events = append(tr.Events, trace.Event{ID: "e2", Time: 5, Kind: trace.KindNavigate, URL: u})
		}, MaskSpec{Texts: []string{instr}}},
		{"query string with %20", func(tr *trace.Trace) {
			u := "http://127.0.0.1:1/next?goal=" + url.PathEscape(instr)
			tr.Events = append(tr.Events, trace.Event{ID: "e2", Time: 5, Kind: trace.KindTabSwitch, Window: &trace.Window{ID: "w2", URL: u}})
		}, MaskSpec{Texts: []string{instr}}},
		{"start URL", func(tr *trace.Trace) {
			tr.Start.URL = "http://127.0.0.1:1/task?q=" + url.QueryEscape(instr)
			s := tr.Snapshots["s1"]
			s.URL, s.Title = tr.Start.URL, ""
			tr.Snapshots["s1"] = s
		}, MaskSpec{Texts: []string{instr}}},
		{"the masked element's name, in a window title", func(tr *trace.Trace) {
			tr.Events = append(tr.Events, trace.Event{ID: "e2", Time: 5, Kind: trace.KindTabSwitch, Window: &trace.Window{ID: "w2", Title: "Help: " + instr}})
		}, MaskSpec{IDs: []string{"query"}}},
		{"the masked element's capped text, in a window title", func(tr *trace.Trace) {
			s := tr.Snapshots["s1"]
			s.Elements[0].Name, s.Elements[0].Text = "", capped
			tr.Snapshots["s1"] = s
			tr.Events = append(tr.Events, trace.Event{ID: "e2", Time: 5, Kind: trace.KindTabSwitch, Window: &trace.Window{ID: "w2", Title: instr[:30] + " and more"}})
		}, MaskSpec{IDs: []string{"query"}}},
		{"a target named by its id, without a snapshot", func(tr *trace.Trace) {
			tr.Snapshots = nil
			tr.Events = []trace.Event{
				{ID: "e1", Kind: trace.KindClick, Target: &trace.Target{CSS: "#query", Attributes: trace.Attributes{Role: "generic", Name: instr}}},
				{ID: "e2", Time: 5, Kind: trace.KindClick, Target: &trace.Target{Attributes: trace.Attributes{Role: "button", Name: "ok"}}},
				{ID: "e3", Time: 6, Kind: trace.KindTabSwitch, Window: &trace.Window{ID: "w2", Title: "Help: " + instr}},
			}
		}, MaskSpec{IDs: []string{"query"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr := base()
			c.edit(tr)
			if l := leaks(Trajectory(tr), instr); len(l) == 0 {
				t.Fatalf("the test trace does not show the instruction:\n%s", Trajectory(tr))
			}
			masked, _, err := Mask(tr, c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if l := leaks(Trajectory(masked), instr); len(l) > 0 {
				t.Errorf("the prompt shows %q:\n%s", l, Trajectory(masked))
			}
			if !strings.Contains(Trajectory(masked), `"ok"`) {
				t.Errorf("the button was masked too:\n%s", Trajectory(masked))
			}
		})
	}
}

// TestSeenAtWholeValues: a model's parameter is kept only when the
// trajectory shows that value, not when it is a piece of another one ("1"
// of "10", "an" of "Anna") or only white space.
func TestSeenAtWholeValues(t *testing.T) {
	tr := trace.New(trace.DriverBrowser)
	tr.Snapshots = map[string]trace.Snapshot{"s1": {Title: "Shop", Elements: []trace.Element{
		{Ref: "r0", Parent: -1, Attributes: trace.Attributes{Role: "text", Text: "Total: 10 items for Anna"}},
		{Ref: "r1", Parent: -1, Attributes: trace.Attributes{Role: "textbox", Name: "Quantity", Editable: true}},
	}}}
	tr.Events = []trace.Event{{ID: "e1", Kind: trace.KindInput, Snapshot: "s1", Value: "12", Target: &trace.Target{Ref: "r1"}}}
	steps := Steps(tr)
	for _, c := range []struct {
		v    string
		seen bool
	}{{"12", true}, {"10 items", true}, {"anna", true}, {"1", false}, {"an", false}, {"2", false}, {" ", false}} {
		if got := seenAt(tr, steps, c.v) != ""; got != c.seen {
			t.Errorf("seenAt(%q) = %q, want seen %v", c.v, seenAt(tr, steps, c.v), c.seen)
		}
	}
}

// TestReadReferenceEmptyMask: a mask line that names nothing is an error
// at its line, not a silently unmasked instruction; so is a line too long
// to read, with the file named.
func TestReadReferenceEmptyMask(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ text, want string }{
		{"Click ok\nmask:\n", ":2:1: an empty mask"},
		{"Click ok\n\nmask: #\n", ":3:1: an empty mask"},
		{"Click ok\n" + strings.Repeat("x", 2<<20) + "\n", "c" + GoalSuffix + ":2:1:"},
	} {
		p := filepath.Join(dir, string(rune('a'+i))+GoalSuffix)
		if err := writeText(p, c.text); err != nil {
			t.Fatal(err)
		}
		_, err := ReadReference(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.20q: error %v, want %q", c.text, err, c.want)
		}
	}
}

// TestURLCredentialsNeverShown: a password in a URL's user info, or a
// token in its query, reaches neither the rules' goal nor a prompt; the
// rest of the URL does.
func TestURLCredentialsNeverShown(t *testing.T) {
	tr := trace.New(trace.DriverBrowser)
	tr.Start.URL = "https://ann:s3cr3tpw@127.0.0.1:1/start"
	tr.Events = []trace.Event{
		{ID: "e1", Kind: trace.KindClick, Target: &trace.Target{Attributes: trace.Attributes{Role: "button", Name: "Go"}}},
		{ID: "e2", Time: 1, Kind: trace.KindNavigate, URL: "https://127.0.0.1:1/search?q=shoes&token=tk-998877&API_KEY=ak-112233"},
		{ID: "e3", Time: 2, Kind: trace.KindTabSwitch, Window: &trace.Window{ID: "w2", URL: "https://bob:hunter22@127.0.0.1:1/mail"}},
	}
	g, err := Infer(context.Background(), tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	shown := g.Sentence + "\n" + Trajectory(tr)
	for _, secret := range []string{"s3cr3tpw", "tk-998877", "ak-112233", "hunter22"} {
		if strings.Contains(shown, secret) {
			t.Errorf("%q shown:\n%s", secret, shown)
		}
	}
	for _, want := range []string{"q=shoes", "127.0.0.1:1/mail", "ann:"} {
		if !strings.Contains(shown, want) {
			t.Errorf("%q not shown:\n%s", want, shown)
		}
	}
	if got := shownURL("not a url: a+b%"); got != "not a url: a+b%" {
		t.Errorf("a text changed: %q", got)
	}
}

// TestReadReferenceParamsNone: `params: none` is a goal without
// parameters, not one whose quoted parts are its values; it does not mix
// with param lines.
func TestReadReferenceParamsNone(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ text, params, err string }{
		{"Close the dialog by clicking the \"x\".\nparams: none\n", "", ""},
		{"Close the dialog by clicking the \"x\".\n", "x", ""},
		{"Click \"x\"\nparams: none\nparam: x\n", "", "`params: none` and `param:` lines"},
		{"Click \"x\"\nparams: some\n", "", ":2:1: `params:` takes only `none`"},
	} {
		p := filepath.Join(dir, string(rune('a'+i))+GoalSuffix)
		if err := writeText(p, c.text); err != nil {
			t.Fatal(err)
		}
		r, err := ReadReference(p)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.text, err, c.err)
			}
		case err != nil:
			t.Errorf("%q: %v", c.text, err)
		case strings.Join(r.Params, "|") != c.params:
			t.Errorf("%q: params %q, want %q", c.text, r.Params, c.params)
		}
	}
}

// TestTwoLikeButtonsStayTwo: clicks on two buttons with the same label
// (the "Add" of two rows) are two steps; only a label's click and its
// control's, of different roles, are one.
func TestTwoLikeButtonsStayTwo(t *testing.T) {
	tr := trace.New(trace.DriverBrowser)
	for i, tg := range []trace.Attributes{
		{Role: "button", Name: "Add", ID: "add1"},
		{Role: "button", Name: "Add", ID: "add2"},
		{Role: "text", Name: "Pear", ID: "l"},
		{Role: "checkbox", Name: "Pear", ID: "c"},
	} {
		tr.Events = append(tr.Events, trace.Event{ID: "e" + string(rune('1'+i)), Time: int64(i), Kind: trace.KindClick, Target: &trace.Target{Attributes: tg}})
	}
	g, err := Infer(context.Background(), tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := `Click "Add" 2 times, then check "Pear"`; g.Sentence != want {
		t.Errorf("got  %s\nwant %s", g.Sentence, want)
	}
}
