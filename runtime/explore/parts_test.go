package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
)

func TestIrreversible(t *testing.T) {
	cases := []struct {
		el   driver.Element
		want string
	}{
		{driver.Element{Role: "button", Name: "Delete contact"}, "delete"},
		{driver.Element{Role: "button", Name: "Send"}, "send"},
		{driver.Element{Role: "button", Text: "Place order"}, "place order"},
		{driver.Element{Role: "button", ID: "btn-submit"}, "submit"},
		{driver.Element{Role: "button", Name: "Payments"}, ""}, // "payment" is not "pay"
		{driver.Element{Role: "button", Name: "Sort order"}, ""},
		{driver.Element{Role: "menuitem", Name: "Import/export"}, ""},
		{driver.Element{Role: "button", Name: "Order from the menu"}, ""},
		{driver.Element{Role: "textbox", Name: "Message to send", Editable: true}, ""}, // typing is undone by clearing
	}
	for _, tc := range cases {
		got := Irreversible(&tc.el)
		if (tc.want == "") != (got == "") || !strings.HasSuffix(got, tc.want) {
			t.Errorf("%+v: %q, want one naming %q", tc.el, got, tc.want)
		}
	}
	if Irreversible(&driver.Element{Role: "button", Name: "Archive all"}, "archive") == "" {
		t.Error("an extra word is not heeded")
	}
	if got := Irreversible(&driver.Element{Role: "menuitem", Name: "Import/export"}, "import from"); got != "" {
		t.Errorf("a phrase with a stop word matched another text: %q", got)
	}
}

func TestDescriptionRoundTrip(t *testing.T) {
	cases := []struct {
		el   driver.Element
		want string
	}{
		{driver.Element{Role: "button", Name: `Say "hi"`}, `button(name: "Say \"hi\"")`},
		{driver.Element{Role: "textbox", Text: "typed secret", Placeholder: "Search", Editable: true}, `textbox(placeholder: "Search")`},
		{driver.Element{Role: "", ID: "more"}, `element(id: "more")`},
	}
	for _, tc := range cases {
		got := describe(&tc.el)
		if got != tc.want {
			t.Errorf("describe %+v = %s, want %s", tc.el, got, tc.want)
		}
		d, err := parseDescription(got)
		if err != nil || len(d.Attrs) != 1 {
			t.Errorf("parse %s: %+v, %v", got, d, err)
		}
	}
	for _, bad := range []string{"button", `button(name "x")`, `button(name: x)`} {
		if _, err := parseDescription(bad); err == nil {
			t.Errorf("%s parsed", bad)
		}
	}
}

func TestParseScores(t *testing.T) {
	got := parseScores("1: 5\n2. 3\ncandidate 3 = 1\n4: 9\nnoise 5: 2 text\n")
	want := map[int]int{1: 5, 2: 3, 3: 1}
	if len(got) != len(want) {
		t.Errorf("scores %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("scores %v, want %v", got, want)
		}
	}
}

// A parameter is typed into the field its words name; a branch that
// typed and led nowhere is undone by clearing the field.
func TestExploreTypesAndClears(t *testing.T) {
	screens := map[string]screen{
		"form": {items: []item{{role: "textbox", name: "File name", field: true}, {role: "button", name: "Import", to: "done"}}},
		"done": {items: []item{{role: "listitem", name: "Bob Imported"}}},
	}
	app := newFakeApp(androidURL, screens, "form")
	m := &fakeModel{scores: map[string]int{"File name": 5, "Import": 2}}
	res, err := Explore(context.Background(), app, importGoal, Options{Model: m, Params: map[string]string{"file name": "contacts.vcf"}})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "steps", trail(res.Steps), []string{
		`forward type textbox(name: "File name")`,
		`back clear textbox(name: "File name")`,
		`forward click button(name: "Import")`,
	})
	sameLines(t, "actions", app.log, []string{"type File namecontacts.vcf", "clear File name", "click Import"})
	if !strings.Contains(strings.Join(m.prompts, "\n"), "type the file name into") || strings.Contains(strings.Join(m.prompts, "\n"), "contacts.vcf") {
		t.Errorf("the ranking must name the parameter, not its value:\n%s", m.prompts[0])
	}
}

func TestTraceOf(t *testing.T) {
	tree := &driver.Tree{URL: androidURL, Elements: []*driver.Element{
		{Ref: "a", Role: "textbox", Name: "Password", Editable: true, Visible: true, Enabled: true, Parent: -1, Bounds: driver.Rect{W: 10, H: 10}},
		{Ref: "b", Role: "button", Name: "Go", Visible: true, Enabled: true, Parent: -1, Bounds: driver.Rect{X: 20, W: 10, H: 10}},
	}}
	res := Result{Path: []knowledge.Step{{Op: "type", Target: `textbox(name: "Password")`, Text: "{pw}"}, {Op: "click", Target: `button(name: "Go")`}},
		Before: []*driver.Tree{tree, tree}}
	tr, err := TraceOf(trace.DriverAndroid, trace.Start{App: "com.example"}, res, map[string]string{"pw": "abc"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 2 || tr.Events[0].Kind != trace.KindInput || tr.Events[0].Value != "abc" || tr.Events[1].Kind != trace.KindClick || tr.Events[1].X != 25 {
		t.Errorf("events %+v", tr.Events)
	}
	if _, err := TraceOf(trace.DriverAndroid, trace.Start{App: "com.example"}, res, map[string]string{"pw": "abc"}, []string{"pw"}); err == nil ||
		!strings.Contains(err.Error(), "never holds a secret") {
		t.Errorf("a secret parameter: %v", err)
	}
	res.Before = res.Before[:1]
	if _, err := TraceOf(trace.DriverAndroid, trace.Start{}, res, nil, nil); err == nil {
		t.Error("a result without its screens made a trace")
	}
}

// garbleModel answers every ranking with no score in it.
type garbleModel struct{ fakeModel }

func (m *garbleModel) Complete(ctx context.Context, r llm.Request) (*llm.Response, error) {
	if _, err := m.fakeModel.Complete(ctx, r); err != nil {
		return nil, err
	}
	return &llm.Response{Text: "I think the menu is a good idea."}, nil
}

// A ranking answer without scores is no judgment: the search goes on by
// words, as without a model.
func TestExploreUnreadableRanking(t *testing.T) {
	app := newFakeApp(androidURL, contactsScreens(), "list")
	m := &garbleModel{}
	res, err := Explore(context.Background(), app, importGoal, Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Reached || len(res.Path) != 4 {
		t.Errorf("reached %v, path %v", res.Reached, res.Path)
	}
}

// A busy screen's ranking request lists at most maxRanked candidates.
func TestRankingRequestBounded(t *testing.T) {
	var items []item
	for i := range 100 {
		items = append(items, item{role: "button", name: fmt.Sprintf("Button %d", i)})
	}
	items = append(items, item{role: "button", name: "Import from file", to: "done"})
	screens := map[string]screen{"busy": {items: items}, "done": {items: []item{{role: "listitem", name: "Bob Imported"}}}}
	m := &fakeModel{scores: map[string]int{"Import from file": 5}}
	res, err := Explore(context.Background(), newFakeApp(androidURL, screens, "busy"), importGoal, Options{Model: m})
	if err != nil || !res.Reached {
		t.Fatalf("reached %v: %v", res.Reached, err)
	}
	if n := len(candLine.FindAllString(m.prompts[0], -1)); n != maxRanked || !strings.Contains(m.prompts[0], "Import from file") {
		t.Errorf("the request lists %d candidates (want %d), the one sharing the goal's words first:\n%s", n, maxRanked, m.prompts[0])
	}
}

// An action that leads back to a screen of the path ("Navigate up") is
// not undone with the back key, which would leave the app: the search
// walks from that screen to where it was.
func TestExploreUpToAnAncestor(t *testing.T) {
	screens := map[string]screen{
		"list":   {items: []item{{role: "button", name: "Details", to: "detail"}, {role: "button", name: "Import", to: "done"}}},
		"detail": {items: []item{{role: "button", name: "Go home", to: "list"}}},
		"done":   {items: []item{{role: "listitem", name: "Bob Imported"}}},
	}
	app := newFakeApp(androidURL, screens, "list")
	m := &fakeModel{scores: map[string]int{"Details": 5, "Go home": 5, "Import": 4}}
	res, err := Explore(context.Background(), app, importGoal, Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, "steps", trail(res.Steps), []string{
		`forward click button(name: "Details")`,
		`forward click button(name: "Go home")`,
		`forward click button(name: "Details")`,
		`back back `,
		`forward click button(name: "Import")`,
	})
	if len(res.Path) != 1 {
		t.Errorf("path %v, want the one click", res.Path)
	}
}

// A tree with a nil element (a driver's bug) is searched around it, not
// a panic.
func TestExploreNilElement(t *testing.T) {
	tree := &driver.Tree{URL: androidURL, Elements: []*driver.Element{nil,
		{Ref: "a", Role: "button", Name: "Import", Visible: true, Enabled: true, Parent: -1}}}
	e := newExplorer(nil, importGoal, Options{})
	if cs := e.candidates(tree, nil); len(cs) != 1 || signature(tree) == "" || stateKey(tree) == "" {
		t.Errorf("candidates %v", cs)
	}
	if _, err := anchor(tree, `button(name: "Import")`); err != nil {
		t.Error(err)
	}
	if closeButton(tree, tree, nil) != nil {
		t.Error("a close button out of nothing")
	}
}
