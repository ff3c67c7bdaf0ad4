package explore

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/android"
	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

const (
	importCommand = "import contacts from a file"
	// secretValue is a parameter no screen asks for: it must reach no
	// request, step, path or lesson.
	secretValue = "hunter2-s3cret"
)

// simPhone opens the Android driver, over the real ADB protocol, on a
// fresh simulated phone showing the contacts list.
func simPhone(t testing.TB) (driver.Driver, *adbtest.App) {
	t.Helper()
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := android.Open(context.Background(), driver.Options{RemoteURL: srv.Addr(), ActionTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	if _, err := d.Do(context.Background(), driver.Action{Op: action.Launch, Text: adbtest.ContactsPackage}); err != nil {
		t.Fatal(err)
	}
	return d, srv.App()
}

var rankedLine = regexp.MustCompile(`(?m)^(\d+)\. (.*)$`)

// scriptedModel ranks by a fixed rule that sends the explorer down one
// wrong branch first: menus and settings score 5, importing and
// contacts.vcf 4, the rest 1. It checks every request it receives.
func scriptedModel(t testing.TB) *llmtest.Server {
	check := func(r llmtest.Req) {
		p := r.Prompt()
		if !strings.Contains(p, "Goal: "+importCommand) {
			t.Errorf("request %d lacks the goal:\n%s", r.Seq, p)
		}
		if strings.Contains(p, secretValue) {
			t.Errorf("request %d holds the secret value:\n%s", r.Seq, p)
		}
	}
	return llmtest.New(t,
		llmtest.Rule{Name: "rank", Match: llmtest.Contains("Candidates:"), Reply: func(r llmtest.Req) llmtest.Reply {
			check(r)
			lines := rankedLine.FindAllStringSubmatch(r.LastUser(), -1)
			if len(lines) == 0 {
				t.Errorf("request %d lists no candidates:\n%s", r.Seq, r.LastUser())
			}
			var b strings.Builder
			for _, l := range lines {
				score := 1
				switch {
				case strings.Contains(l[2], "More options"), strings.Contains(l[2], "Settings"):
					score = 5
				case strings.Contains(l[2], "Import"), strings.Contains(l[2], "contacts.vcf"):
					score = 4
				}
				fmt.Fprintf(&b, "%s: %d\n", l[1], score)
			}
			return llmtest.Reply{Text: b.String()}
		}},
		llmtest.Rule{Name: "lesson", Match: llmtest.Contains("What should a later exploration"), Reply: func(r llmtest.Req) llmtest.Reply {
			check(r)
			if !strings.Contains(r.LastUser(), "Settings") {
				t.Errorf("the lesson request does not name the wrong branch:\n%s", r.LastUser())
			}
			return llmtest.Reply{Text: "Settings holds no import; importing is under Import/export."}
		}},
	)
}

func modelOf(t *testing.T, srv *llmtest.Server) llm.Client {
	c, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// importedOnList is the goal's check: the list shows a contact of the file.
func importedOnList(t *driver.Tree) (bool, error) {
	for _, e := range t.Elements {
		if e.Visible && (e.Name == "Dana Whitfield" || e.Text == "Dana Whitfield") {
			return true, nil
		}
	}
	return false, nil
}

// The acceptance test of exploration: a command never demonstrated is
// carried out on the simulated phone after one wrong branch and one
// backtrack; the second run replays from knowledge with no exploration
// step and no model call.
func TestAcceptanceImportContacts(t *testing.T) {
	if testing.Short() {
		t.Skip("drives the simulated phone")
	}
	mem, err := knowledge.Open(t.TempDir()) // the real store, on bbolt
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	goal := Goal{Text: importCommand, Check: importedOnList}
	opts := func(m llm.Client, journal *[]Step) Options {
		return Options{Command: importCommand, Memory: mem, Model: m,
			Params: map[string]string{"account password": secretValue}, Secrets: []string{"account password"},
			OnStep: func(s Step) { *journal = append(*journal, s) }}
	}

	d, app := simPhone(t)
	model := scriptedModel(t)
	var journal []Step
	res, err := Explore(context.Background(), d, goal, opts(modelOf(t, model), &journal))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`forward click button(name: "More options")`,
		`forward click listitem(name: "Settings")`,
		`back back `,
		`forward click button(name: "More options")`, // the popup closed when Settings was chosen
		`forward click listitem(name: "Import/export")`,
		`forward click button(name: "Import from .vcf file")`,
		`forward click listitem(name: "contacts.vcf")`,
	}
	sameLines(t, "first run", trail(res.Steps), want)
	backs := 0
	for _, s := range res.Steps {
		if s.Direction == Back {
			backs++
		}
	}
	if backs != 1 || !res.Reached || res.Replayed {
		t.Errorf("backs %d reached %v replayed %v", backs, res.Reached, res.Replayed)
	}
	for _, r := range model.Requests() {
		t.Logf("request %d:\n%s", r.Seq, r.LastUser())
	}
	if n := model.Count(); n != res.ModelCalls || n != 6 {
		// list, menu, settings, menu again is not ranked anew, import, files: 5 rankings; 1 lesson.
		t.Errorf("model requests %d, result says %d, want 6", n, res.ModelCalls)
	}
	if names := contactNames(app); !slices.Contains(names, "Dana Whitfield") || !slices.Contains(names, "Evan Okafor") {
		t.Errorf("contacts after exploring: %v", names)
	}
	if len(journal) != len(res.Steps) || !journal[len(journal)-1].Reached {
		t.Errorf("journal %v", journal)
	}
	p, ok, _ := mem.Path(adbtest.ContactsPackage, importCommand)
	if !ok || len(p.Steps) != 4 || strings.Contains(p.Steps[1].Target, "Settings") {
		t.Errorf("kept path %+v: want 4 steps without the detour", p)
	}
	lessons, err := mem.Lessons(adbtest.ContactsPackage, importCommand)
	if err != nil || len(lessons) != 1 || !strings.Contains(lessons[0].Text, "Import/export") {
		t.Errorf("lessons %v, %v", lessons, err)
	}
	from, _ := mem.Transitions(adbtest.ContactsPackage, stateKey(res.Before[1]))
	undone := 0
	for _, tr := range from {
		if tr.Undo == "back" && strings.Contains(tr.Action.Target, "Settings") {
			undone++
		}
	}
	if undone != 1 {
		t.Errorf("transitions from the menu %+v: want Settings undone by back", from)
	}
	entries, _ := mem.List("")
	if s := fmt.Sprintf("%+v %+v %+v", entries, res.Steps, journal); strings.Contains(s, secretValue) {
		t.Error("the secret reached knowledge, the result or the journal")
	}

	// The second run, on a fresh phone with the same knowledge.
	d2, app2 := simPhone(t)
	model2 := scriptedModel(t)
	journal = nil
	res, err = Explore(context.Background(), d2, goal, opts(modelOf(t, model2), &journal))
	if err != nil {
		t.Fatal(err)
	}
	if !res.Replayed || !res.Reached || res.ModelCalls != 0 || model2.Count() != 0 {
		t.Errorf("second run: replayed %v reached %v, model calls %d, requests %d", res.Replayed, res.Reached, res.ModelCalls, model2.Count())
	}
	for _, s := range res.Steps {
		if s.Direction != Replay {
			t.Errorf("second run explored: %v", s)
		}
	}
	if len(res.Steps) != 4 || !slices.Contains(contactNames(app2), "Dana Whitfield") {
		t.Errorf("second run: steps %v, contacts %v", res.Steps, contactNames(app2))
	}
}

func contactNames(a *adbtest.App) []string {
	var out []string
	for _, c := range a.Contacts() {
		out = append(out, c.Name)
	}
	return out
}
