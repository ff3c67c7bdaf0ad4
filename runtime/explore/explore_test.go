package explore

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
)

const androidURL = "android-app://com.example.contacts"

var importGoal = Goal{Text: "import contacts from a file", Check: importedCheck}

// trail is the steps as "direction op target" lines, skips included.
func trail(steps []Step) []string {
	var out []string
	for _, s := range steps {
		out = append(out, s.Direction+" "+s.Op+" "+s.Target)
	}
	return out
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got: %q\nwant: %q", what, got, want)
	}
}

// wrongFirst scores Settings above Import/export: one wrong branch.
func wrongFirst() *fakeModel {
	return &fakeModel{scores: map[string]int{
		"More options": 4, "Settings": 5, "Import/export": 4, "Import from .vcf file": 5, "contacts.vcf": 5,
	}}
}

func TestExplore(t *testing.T) {
	cases := []struct {
		name      string
		model     func() *fakeModel
		url       string
		wantSteps []string
		wantCalls int    // model requests
		undone    string // the target of the one transition undone
		edit      func(map[string]screen)
	}{
		{
			name: "forward by words, no model",
			url:  androidURL,
			wantSteps: []string{
				`forward click button(name: "More options")`,
				`forward click menuitem(name: "Import/export")`,
				`forward click button(name: "Import from .vcf file")`,
				`forward click listitem(name: "contacts.vcf")`,
			},
		},
		{
			name:  "one wrong branch and the back key",
			model: wrongFirst,
			url:   androidURL,
			wantSteps: []string{
				`forward click button(name: "More options")`,
				`forward click menuitem(name: "Settings")`,
				`back back `,
				`forward click menuitem(name: "Import/export")`,
				`forward click button(name: "Import from .vcf file")`,
				`forward click listitem(name: "contacts.vcf")`,
			},
			// list, menu, settings, import, files ranked; one lesson.
			wantCalls: 6,
			undone:    "Settings",
		},
		{
			name: "a browser closes a menu with Escape",
			model: func() *fakeModel {
				m := wrongFirst()
				m.scores["Sort"] = 5
				m.scores["Settings"] = 1
				return m
			},
			url: "http://127.0.0.1:8088/contacts",
			wantSteps: []string{
				`forward click button(name: "Sort")`,
				`back key `,
				`forward click button(name: "More options")`,
				`forward click menuitem(name: "Import/export")`,
				`forward click button(name: "Import from .vcf file")`,
				`forward click listitem(name: "contacts.vcf")`,
			},
			wantCalls: 6,
			undone:    "Sort",
		},
		{
			name:  "a browser goes back in history from another page",
			model: wrongFirst,
			url:   "http://127.0.0.1:8088/contacts",
			edit: func(m map[string]screen) {
				s := m["settings"]
				s.url = "http://127.0.0.1:8088/settings"
				m["settings"] = s
			},
			wantSteps: []string{
				`forward click button(name: "More options")`,
				`forward click menuitem(name: "Settings")`,
				`back back `,
				`forward click menuitem(name: "Import/export")`,
				`forward click button(name: "Import from .vcf file")`,
				`forward click listitem(name: "contacts.vcf")`,
			},
			wantCalls: 6,
			undone:    "Settings",
		},
		{
			name:  "back from a screen a popup menu opened shows the list: the menu opens again",
			model: wrongFirst,
			url:   androidURL,
			edit: func(m map[string]screen) {
				s := m["menu"]
				s.popup = true
				m["menu"] = s
			},
			wantSteps: []string{
				`forward click button(name: "More options")`,
				`forward click menuitem(name: "Settings")`,
				`back back `,
				`forward click button(name: "More options")`,
				`forward click menuitem(name: "Import/export")`,
				`forward click button(name: "Import from .vcf file")`,
				`forward click listitem(name: "contacts.vcf")`,
			},
			wantCalls: 6,
			undone:    "Settings",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			screens := contactsScreens()
			if tc.edit != nil {
				tc.edit(screens)
			}
			app := newFakeApp(tc.url, screens, "list")
			mem := newMemory()
			o := Options{Memory: mem}
			var m *fakeModel
			if tc.model != nil {
				m = tc.model()
				o.Model = m
			}
			var journal []Step
			o.OnStep = func(s Step) { journal = append(journal, s) }
			res, err := Explore(context.Background(), app, importGoal, o)
			if err != nil {
				t.Fatal(err)
			}
			var acted []Step
			for _, s := range res.Steps {
				if s.Op != "skip" {
					acted = append(acted, s)
				}
			}
			sameLines(t, "steps", trail(acted), tc.wantSteps)
			if !res.Reached || res.Replayed || app.top() != "done" {
				t.Errorf("reached %v replayed %v screen %s", res.Reached, res.Replayed, app.top())
			}
			if app.clicked("Delete all") {
				t.Error("the irreversible Delete all was clicked")
			}
			if len(res.Path) != 4 || len(mem.paths) != 1 {
				t.Errorf("path %v, stored %d paths", res.Path, len(mem.paths))
			}
			if m != nil && (m.calls() != tc.wantCalls || res.ModelCalls != tc.wantCalls) {
				t.Errorf("model calls: server %d, result %d, want %d", m.calls(), res.ModelCalls, tc.wantCalls)
			}
			if len(journal) != len(res.Steps) || !journal[len(journal)-1].Reached {
				t.Errorf("the journal saw %d steps, the last not reached: %v", len(journal), journal)
			}
			if m != nil {
				if len(mem.lessons) != 1 {
					t.Errorf("lessons %v, want one", mem.lessons)
				}
				undone := 0
				for _, tr := range mem.transitions {
					if tr.Undo != "" {
						undone++
						if !strings.Contains(tr.Action.Target, tc.undone) {
							t.Errorf("undone transition %+v is not %s", tr, tc.undone)
						}
					}
				}
				if undone != 1 {
					t.Errorf("%d undone transitions, want 1: %+v", undone, mem.transitions)
				}
			}
		})
	}
}

func TestExploreBudget(t *testing.T) {
	app := newFakeApp(androidURL, contactsScreens(), "list")
	_, err := Explore(context.Background(), app, importGoal, Options{Budget: 3, Model: wrongFirst()})
	var be *BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("error %v, want a BudgetError", err)
	}
	if be.Budget != 3 || !strings.Contains(err.Error(), "budget of 3 steps") || !strings.Contains(err.Error(), "Settings") {
		t.Errorf("error %q does not say the budget and the steps tried", err)
	}
	if n := len(app.log); n != 3 {
		t.Errorf("%d actions, want 3 (the budget): %v", n, app.log)
	}
}

func TestExploreIrreversible(t *testing.T) {
	for _, confirm := range []bool{false, true} {
		app := newFakeApp(androidURL, contactsScreens(), "list")
		m := &fakeModel{scores: map[string]int{"Delete all": 5, "More options": 4, "Import/export": 4}}
		var asked string
		o := Options{Model: m, Budget: 6, Confirm: func(_ context.Context, e *driver.Element, why string) bool {
			asked = e.Name + ": " + why
			return confirm
		}}
		goal := Goal{Text: "remove every contact", Check: func(t *driver.Tree) (bool, error) {
			return t.Title == "empty", nil
		}}
		res, err := Explore(context.Background(), app, goal, o)
		if asked != "Delete all: its words say delete" {
			t.Errorf("confirm %v: asked %q", confirm, asked)
		}
		if confirm {
			if err != nil || !res.Reached || !app.clicked("Delete all") {
				t.Errorf("confirmed: err %v, reached %v, log %v", err, res.Reached, app.log)
			}
			continue
		}
		if app.clicked("Delete all") {
			t.Errorf("not confirmed, yet Delete all was clicked: %v", app.log)
		}
		if err == nil || len(res.Steps) == 0 && res.Reached {
			t.Errorf("not confirmed: err %v reached %v", err, res.Reached)
		}
		skipped := false
		for _, s := range stepsOf(err) {
			skipped = skipped || s.Op == "skip" && strings.Contains(s.Target, "Delete all")
		}
		if !skipped {
			t.Errorf("no skip step for Delete all in %v", err)
		}
	}
}

func stepsOf(err error) []Step {
	var be *BudgetError
	var de *DeadEndError
	switch {
	case errors.As(err, &be):
		return be.Steps
	case errors.As(err, &de):
		return de.Steps
	}
	return nil
}

func TestExploreReplay(t *testing.T) {
	mem := newMemory()
	first := wrongFirst()
	if _, err := Explore(context.Background(), newFakeApp(androidURL, contactsScreens(), "list"), importGoal,
		Options{Memory: mem, Model: first, Command: "import contacts from a file"}); err != nil {
		t.Fatal(err)
	}
	second := wrongFirst()
	app := newFakeApp(androidURL, contactsScreens(), "list")
	res, err := Explore(context.Background(), app, importGoal, Options{Memory: mem, Model: second, Command: "import contacts from a file"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Replayed || !res.Reached || res.ModelCalls != 0 || second.calls() != 0 {
		t.Errorf("replayed %v reached %v, model calls %d/%d, want a replay with none", res.Replayed, res.Reached, res.ModelCalls, second.calls())
	}
	for _, s := range res.Steps {
		if s.Direction != Replay {
			t.Errorf("step %v is not a replay", s)
		}
	}
	if len(res.Steps) != 4 || app.clicked("Settings") {
		t.Errorf("steps %v, log %v: want the 4 steps without the detour", res.Steps, app.log)
	}

	// A path whose target is gone falls back to exploring.
	screens := contactsScreens()
	s := screens["menu"]
	s.items[1].name = "Import"
	screens["menu"] = s
	third := wrongFirst()
	third.scores["Import"] = 4
	res, err = Explore(context.Background(), newFakeApp(androidURL, screens, "list"), importGoal,
		Options{Memory: mem, Model: third, Command: "import contacts from a file"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Replayed || !res.Reached || third.calls() == 0 {
		t.Errorf("replayed %v reached %v calls %d: want exploring after the replay stopped", res.Replayed, res.Reached, third.calls())
	}
	if !strings.Contains(res.Steps[1].Note, "replay stopped") {
		t.Errorf("step %v does not say the replay stopped", res.Steps[1])
	}
	if !strings.Contains(strings.Join(third.prompts, "\n"), "Settings does not lead to importing") {
		t.Error("the lesson of the first run did not reach the model's prompt")
	}
}

func TestExploreCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	app := newFakeApp(androidURL, contactsScreens(), "list")
	o := Options{OnStep: func(s Step) {
		if s.N == 2 {
			cancel()
		}
	}}
	_, err := Explore(ctx, app, importGoal, o)
	if err != context.Canceled {
		t.Errorf("error %v, want context.Canceled unchanged", err)
	}
}

func TestExploreNeedsCheckOrModel(t *testing.T) {
	_, err := Explore(context.Background(), newFakeApp(androidURL, contactsScreens(), "list"), Goal{Text: "x"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "needs a model") {
		t.Errorf("error %v", err)
	}
}

// Knowledge ranks first where there is no model: an action that led on
// before beats the page order, one undone before comes after the others.
func TestExploreKnowledgeRanks(t *testing.T) {
	app := newFakeApp(androidURL, contactsScreens(), "list")
	list, _ := app.Observe(context.Background())
	mem := newMemory()
	from := stateKey(list)
	mem.transitions = []knowledge.Transition{
		{App: "com.example.contacts", From: from, Action: knowledge.Step{Op: "click", Target: `button(name: "Sort")`}, To: "x"},
		{App: "com.example.contacts", From: from, Action: knowledge.Step{Op: "click", Target: `button(name: "More options")`}, To: "y", Undo: "back"},
	}
	e := newExplorer(app, importGoal, Options{Memory: mem})
	e.app = "com.example.contacts"
	cs := e.candidates(list, nil)
	if err := e.know(from, cs); err != nil {
		t.Fatal(err)
	}
	order(cs)
	var got []string
	for _, c := range cs {
		got = append(got, c.desc)
	}
	sameLines(t, "order", got, []string{`button(name: "Sort")`, `listitem(name: "Alice")`, `button(name: "Delete all")`, `button(name: "More options")`})
}

// TestExploreReplayStoppedKeepsPrefix: when a replay stops part way, the
// search goes on from where it stopped; the path it returns and keeps must
// still start from the first screen, the replayed steps included.
func TestExploreReplayStoppedKeepsPrefix(t *testing.T) {
	mem := newMemory()
	const command = "import contacts from a file"
	if _, err := Explore(context.Background(), newFakeApp(androidURL, contactsScreens(), "list"), importGoal,
		Options{Memory: mem, Model: wrongFirst(), Command: command}); err != nil {
		t.Fatal(err)
	}
	screens := contactsScreens()
	s := screens["menu"]
	s.items[1].name = "Import"
	screens["menu"] = s
	m := wrongFirst()
	m.scores["Import"] = 4
	res, err := Explore(context.Background(), newFakeApp(androidURL, screens, "list"), importGoal,
		Options{Memory: mem, Model: m, Command: command})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Path {
		got = append(got, s.Op+" "+s.Target)
	}
	want := []string{`click button(name: "More options")`, `click menuitem(name: "Import")`,
		`click button(name: "Import from .vcf file")`, `click listitem(name: "contacts.vcf")`}
	sameLines(t, "path", got, want)
	if len(res.Before) != len(res.Path) || res.Before[0].Title != "list" {
		t.Errorf("%d screens for %d steps, want one per step from the list", len(res.Before), len(res.Path))
	}
	p, _, _ := mem.Path(knowledge.AppOf(res.Before[0]), command)
	if len(p.Steps) != 4 || p.Steps[0].Target != `button(name: "More options")` {
		t.Errorf("kept path %v, want the 4 steps from the list", p.Steps)
	}
}

// TestExploreReplayIrreversible: a kept path holding an irreversible
// action a person confirmed once is not replayed without asking again.
func TestExploreReplayIrreversible(t *testing.T) {
	mem := newMemory()
	goal := Goal{Text: "remove every contact", Check: func(t *driver.Tree) (bool, error) { return t.Title == "empty", nil }}
	m := &fakeModel{scores: map[string]int{"Delete all": 5}}
	yes := func(context.Context, *driver.Element, string) bool { return true }
	if _, err := Explore(context.Background(), newFakeApp(androidURL, contactsScreens(), "list"), goal,
		Options{Memory: mem, Model: m, Confirm: yes}); err != nil {
		t.Fatal(err)
	}
	asked := 0
	no := func(context.Context, *driver.Element, string) bool { asked++; return false }
	app := newFakeApp(androidURL, contactsScreens(), "list")
	res, _ := Explore(context.Background(), app, goal, Options{Memory: mem, Budget: 2, Confirm: no,
		Model: &fakeModel{scores: map[string]int{"Delete all": 5}}})
	if app.clicked("Delete all") || res.Reached {
		t.Errorf("Delete all taken without a confirmation: reached %v, log %v", res.Reached, app.log)
	}
	if asked == 0 {
		t.Error("the replay did not ask before the irreversible step")
	}
}

// TestExploreUndoNeverIrreversible: undoing never clicks a "close" button
// whose words make it irreversible ("Close account").
func TestExploreUndoNeverIrreversible(t *testing.T) {
	screens := map[string]screen{
		"home":   {items: []item{{role: "button", name: "Settings", to: "panel"}, {role: "button", name: "Import", to: "done"}}},
		"panel":  {items: []item{{role: "button", name: "Close account", to: "closed"}}},
		"done":   {items: []item{{role: "text", name: "Imported"}}},
		"closed": {items: []item{{role: "text", name: "Account closed"}}},
	}
	app := newFakeApp("https://app.test/", screens, "home")
	goal := Goal{Text: "import", Check: func(t *driver.Tree) (bool, error) { return t.Title == "done", nil }}
	res, err := Explore(context.Background(), app, goal, Options{Model: &fakeModel{scores: map[string]int{"Settings": 5, "Import": 4}},
		IrreversibleWords: []string{"close account"}})
	if app.clicked("Close account") {
		t.Fatalf("the undo clicked Close account: log %v", app.log)
	}
	if err != nil || !res.Reached {
		t.Errorf("err %v reached %v, want the goal reached after going back", err, res.Reached)
	}
}

// TestExploreRewalkIrreversible: going back further than meant never
// repeats a confirmed irreversible action without asking again.
func TestExploreRewalkIrreversible(t *testing.T) {
	screens := map[string]screen{
		"home": {items: []item{{role: "button", name: "Send", to: "sent"}}},
		// Options replaces this screen, as a popup does: back from it
		// lands on home, before Send.
		"sent": {popup: true, items: []item{{role: "button", name: "Options", to: "opts"}}},
		"opts": {items: []item{{role: "text", name: "Nothing here"}}},
	}
	app := newFakeApp(androidURL, screens, "home")
	asked := 0
	once := func(context.Context, *driver.Element, string) bool { asked++; return asked == 1 }
	goal := Goal{Text: "archive", Check: func(t *driver.Tree) (bool, error) { return false, nil }}
	_, err := Explore(context.Background(), app, goal, Options{Budget: 6, Confirm: once,
		Model: &fakeModel{scores: map[string]int{"Send": 5, "Options": 5}}})
	sends := 0
	for _, l := range app.log {
		if l == "click Send" {
			sends++
		}
	}
	if sends != 1 || asked != 2 {
		t.Errorf("Send clicked %d times, asked %d times, want once after one yes and a no: log %v", sends, asked, app.log)
	}
	if err == nil || !strings.Contains(err.Error(), "not confirmed") {
		t.Errorf("error %v, want one saying Send was not confirmed again", err)
	}
}

// TestExploreSecretShownOnScreen: a secret parameter's value shown on the
// screen reaches neither the model's prompts nor the steps, the path or
// knowledge, whether a model or the goal's words rank.
func TestExploreSecretShownOnScreen(t *testing.T) {
	const pw = "hunter2-Zq"
	screens := map[string]screen{
		"login": {items: []item{{role: "textbox", name: "Password", field: true}, {role: "button", name: "Copy " + pw},
			{role: "text", name: "Hint: " + pw}, {role: "button", name: "Sign in", to: "home"}}},
		"home": {items: []item{{role: "text", name: "Welcome"}}},
	}
	home := func(t *driver.Tree) (bool, error) { return t.Title == "home", nil }
	for _, tc := range []struct {
		name  string
		goal  Goal
		model *fakeModel
	}{
		{"model", Goal{Text: "sign in"}, &fakeModel{scores: map[string]int{"Password": 5, "Sign in": 4}, reached: "Welcome"}},
		{"words", Goal{Text: "copy, then sign in", Check: home}, nil},
	} {
		app := newFakeApp(androidURL, screens, "login")
		mem := newMemory()
		o := Options{Memory: mem, Params: map[string]string{"password": pw}, Secrets: []string{"password"}}
		if tc.model != nil {
			o.Model = tc.model
		}
		res, err := Explore(context.Background(), app, tc.goal, o)
		if err != nil || !res.Reached {
			t.Fatalf("%s: err %v reached %v", tc.name, err, res.Reached)
		}
		var leaks []string
		if tc.model != nil {
			leaks = append(leaks, tc.model.prompts...)
		}
		for _, s := range res.Steps {
			leaks = append(leaks, s.String())
		}
		for _, tr := range mem.transitions {
			leaks = append(leaks, tr.Action.Target)
		}
		for _, l := range leaks {
			if strings.Contains(l, pw) {
				t.Errorf("%s: the secret reached %q", tc.name, l)
			}
		}
	}
}

// TestExploreUndoNeverRepeatsIrreversible: the way back from a confirmed
// irreversible action is never the same element clicked again.
func TestExploreUndoNeverRepeatsIrreversible(t *testing.T) {
	screens := map[string]screen{
		"home":  {items: []item{{role: "button", name: "Send", to: "panel"}, {role: "button", name: "Archive", to: "done"}}},
		"panel": {items: []item{{role: "button", name: "Send"}, {role: "text", name: "Sent"}}},
		"done":  {items: []item{{role: "text", name: "Archived"}}},
	}
	app := newFakeApp("https://app.test/", screens, "home")
	yes := func(context.Context, *driver.Element, string) bool { return true }
	goal := Goal{Text: "archive", Check: func(t *driver.Tree) (bool, error) { return t.Title == "done", nil }}
	res, err := Explore(context.Background(), app, goal, Options{Confirm: yes,
		Model: &fakeModel{scores: map[string]int{"Send": 5, "Archive": 4}}})
	sends := 0
	for _, l := range app.log {
		if l == "click Send" {
			sends++
		}
	}
	if sends != 1 {
		t.Errorf("Send clicked %d times, want once: log %v", sends, app.log)
	}
	if err != nil || !res.Reached {
		t.Errorf("err %v reached %v", err, res.Reached)
	}
}
