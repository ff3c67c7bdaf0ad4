package discover

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime/driver"
	_ "github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// needChromium skips on a machine without Chromium, and fails under CI.
func needChromium(t testing.TB) {
	t.Helper()
	for _, p := range []string{os.Getenv("COGFLOW_CHROME"), "/usr/bin/chromium"} {
		if _, err := os.Stat(p); p != "" && err == nil {
			return
		}
	}
	if _, err := exec.LookPath("chromium"); err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Chromium is not installed")
	}
	t.Skip("Chromium is not installed")
}

// demoSite serves a fresh demo site.
func demoSite(t *testing.T) (*site.Site, string) {
	s := site.New()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func openBrowser(t *testing.T) driver.Driver {
	t.Helper()
	needChromium(t)
	d, err := driver.Open(context.Background(), "browser", driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

var candidateLine = regexp.MustCompile(`(?m)^(\d+)\. (.*)$`)

// The proposals the scripted model makes, SITE standing for the demo
// site's address: a search skill with its API translation, a form-fill
// skill, a wrong skill (its final state names a text the page never
// shows), and a malformed one (a step that does not parse).
const proposals = `{"skills": [
 {"name": "wiki_search", "description": "Search the wiki and show the matching articles.",
  "params": [{"name": "query", "type": "text"}],
  "parameter_sets": [{"query": "Kilimanjaro"}, {"query": "Mount Kenya"}, {"query": "Serengeti"}],
  "steps": "skill wiki_search(query: text) {\n s1 = open(\"SITE/wiki\")\n s2 = type(textbox(name: \"Search\"), query)\n s3 = click(button(name: \"Search\"))\n}",
  "api": "skill wiki_search(query: text) {\n s1 = open(\"SITE/wiki?q=\" + urlquery(query))\n}",
  "effect": "read_only",
  "final_state": {"url_contains": "/wiki?q={query}", "shows": ["“{query}”"], "elements": ["list(name: \"Search results\")"]}},
 {"name": "order_form", "description": "Send the order form with a name and an e-mail address.",
  "params": [{"name": "full_name", "type": "text"}, {"name": "email", "type": "text"}],
  "parameter_sets": [{"full_name": "Ada Lovelace", "email": "ada@example.com"}, {"full_name": "Alan Turing", "email": "alan@example.org"}, {"full_name": "Grace Hopper", "email": "grace@example.net"}],
  "steps": "skill order_form(full_name: text, email: text) {\n s1 = open(\"SITE/form\")\n s2 = type(textbox(name: \"Name\"), full_name)\n s3 = type(textbox(name: \"Email\"), email)\n s4 = click(button(name: \"Submit\"))\n}",
  "api": "",
  "effect": "mutating",
  "final_state": {"shows": ["from {full_name} ({email}) was received"], "elements": ["heading(name: \"Thank you\")"]}},
 {"name": "wiki_article", "description": "Open a wiki article by its title.",
  "params": [{"name": "title", "type": "text"}],
  "parameter_sets": [{"title": "Kilimanjaro"}, {"title": "Nile"}, {"title": "Mount Kenya"}],
  "steps": "skill wiki_article(title: text) {\n s1 = open(\"SITE/wiki?q=\" + title)\n}",
  "effect": "read_only",
  "final_state": {"shows": ["This article about {title} was deleted"]}},
 {"name": "broken", "description": "A skill whose step does not parse.",
  "params": [{"name": "query", "type": "text"}],
  "parameter_sets": [{"query": "a"}, {"query": "b"}, {"query": "c"}],
  "steps": "skill broken(query: text) {\n s1 = open(\"SITE/wiki\"\n}",
  "effect": "read_only",
  "final_state": {"shows": ["{query}"]}}
]}`

// model is the scripted model of a discovery of the demo site: it ranks
// the home page's Wiki and Order form navigation items first (unique
// descriptions, which exploring finds again after going back) and judges every other
// screen a dead end (so the survey comes back to the home page), and
// proposes the skills once it has seen the trajectory, which it checks:
// the prompt must hold every text of want.
func model(t *testing.T, base string, want ...string) *llmtest.Server {
	return llmtest.New(t,
		llmtest.Rule{Name: "rank", Match: llmtest.Contains("Candidates:"), Reply: func(r llmtest.Req) llmtest.Reply {
			home := strings.Contains(r.LastUser(), "Screen: cogflow demo site")
			var b strings.Builder
			for _, l := range candidateLine.FindAllStringSubmatch(r.LastUser(), -1) {
				score := 1
				if home && (l[2] == `click listitem(text: "Wiki")` || l[2] == `click listitem(text: "Order form")`) {
					score = 5
				}
				fmt.Fprintf(&b, "%s: %d\n", l[1], score)
			}
			return llmtest.Reply{Text: b.String()}
		}},
		llmtest.Rule{Name: "reached", Match: llmtest.Contains("Is the goal reached?"), Reply: func(r llmtest.Req) llmtest.Reply {
			if strings.Contains(r.LastUser(), "Screen: Wiki") {
				return llmtest.Reply{Text: "yes: the wiki's search is on the screen"}
			}
			return llmtest.Reply{Text: "no: this is not the wiki"}
		}},
		llmtest.Rule{Name: "propose", Match: llmtest.Contains("Propose the skills."), Reply: func(r llmtest.Req) llmtest.Reply {
			p := r.LastUser()
			for _, w := range append([]string{"Trajectory:"}, want...) {
				if !strings.Contains(p, w) {
					t.Errorf("the proposal prompt lacks %q:\n%s", w, p)
				}
			}
			if !strings.Contains(r.Prompt(), `"final_state"`) {
				t.Errorf("the system prompt does not ask for a final state:\n%s", r.Prompt())
			}
			return llmtest.Reply{Text: strings.ReplaceAll(proposals, "SITE", base)}
		}},
	)
}

func client(t *testing.T, srv *llmtest.Server) llm.Client {
	c, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "sk-test-discover"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Discovery on the demo site (explorer mode) validates the search skill
// (both forms, API kept) and the form-fill skill on their three sets each
// and writes them; the wrong skill fails its final state and the broken
// one its parse, and neither is written.
func TestDiscoverDemoSite(t *testing.T) {
	s, base := demoSite(t)
	d := openBrowser(t)
	// The trajectory is in the prompt: the wiki's search form and the
	// order form, as the exploration saw them.
	srv := model(t, base, "The agent surveyed the app with no task.", base+"/wiki", `textbox(name: "Search"`, base+"/form",
		`textbox(name: "Email"`, `button(name: "Submit")`, `Action: click listitem(text: "Order form")`)
	dir := t.TempDir()
	rep, err := Discover(context.Background(), d, Options{Driver: "browser", Start: base + "/", Budget: 4,
		Model: client(t, srv), Mutate: true, ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Mode != Explorer || rep.Steps == 0 {
		t.Errorf("mode %s, %d steps; want an explorer-mode survey", rep.Mode, rep.Steps)
	}
	if len(rep.Written) != 4 { // two skills, a .cog and a .json each
		t.Errorf("written: %q", rep.Written)
	}
	if rep.ModelCalls != srv.Count() {
		t.Errorf("report says %d model calls, the server got %d", rep.ModelCalls, srv.Count())
	}
	byName := map[string]Verdict{}
	for _, v := range rep.Verdicts {
		byName[v.Name] = v
		for _, r := range v.Runs {
			t.Logf("%s %s set %d: ok %v, %d ms", v.Name, r.Body, r.Set, r.OK, r.Millis)
			if r.Millis <= 0 {
				t.Errorf("%s %s set %d took %d ms", v.Name, r.Body, r.Set, r.Millis)
			}
		}
	}
	t.Logf("%s mode: %d exploration steps, %d model calls, %d screens", rep.Mode, rep.Steps, rep.ModelCalls, len(rep.Trajectory.Visits))
	cases := []struct {
		name     string
		accepted bool
		runs     int    // validation runs
		body     string // the form written
		why      string // in the reasons
	}{
		{"wiki_search", true, 6, BodyAPI, ""},
		{"order_form", true, 3, BodySteps, ""},
		{"wiki_article", false, 1, "", "is not on the screen"},
		{"broken", false, 0, "", "broken.steps.cog:2:11: error: this ( is not closed"},
	}
	for _, c := range cases {
		v, ok := byName[c.name]
		if !ok {
			t.Errorf("%s: no verdict", c.name)
			continue
		}
		why := strings.Join(v.Why, "\n")
		if v.Accepted != c.accepted || len(v.Runs) != c.runs || v.Body.Kind != c.body || !strings.Contains(why, c.why) {
			t.Errorf("%s: accepted %v, %d runs, body %q, why:\n%s\nwant accepted %v, %d runs, body %q, why with %q",
				c.name, v.Accepted, len(v.Runs), v.Body.Kind, why, c.accepted, c.runs, c.body, c.why)
		}
		_, err := os.Stat(filepath.Join(SkillsDir(dir, "browser"), c.name+".cog"))
		if written := err == nil; written != c.accepted {
			t.Errorf("%s: written %v, want %v", c.name, written, c.accepted)
		}
	}
	if n := len(s.State().Submissions); n != 3 {
		t.Errorf("the order form was submitted %d times, want 3 (one per parameter set)", n)
	}
	src, err := os.ReadFile(filepath.Join(SkillsDir(dir, "browser"), "wiki_search.cog"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# Search the wiki and show the matching articles.\n# example: wiki_search(\"Kilimanjaro\")\nskill wiki_search(query: text) {\n"
	if !strings.HasPrefix(string(src), want) || !strings.Contains(string(src), base+"/wiki?q=") {
		t.Errorf("wiki_search.cog:\n%s\nwant it to begin with\n%s", src, want)
	}
	var rec Sidecar
	data, err := os.ReadFile(filepath.Join(SkillsDir(dir, "browser"), "order_form.json"))
	if err == nil {
		err = json.Unmarshal(data, &rec)
	}
	if err != nil {
		t.Fatal(err)
	}
	if rec.Effect != Mutating || len(rec.ParameterSets) != 3 || rec.Last() == nil || !rec.Last().Accepted || len(rec.Last().Runs) != 3 {
		t.Errorf("order_form.json: %s", data)
	}
	callFromTask(t, d, dir, base)
}

// callFromTask runs a task of the project that calls the accepted skill
// without declaring it: the project's library holds it now.
func callFromTask(t *testing.T, d driver.Driver, dir, base string) {
	src := "task find \"Find Denali\" {\n  driver browser\n  s1 = wiki_search(\"Denali\")\n}\n"
	wf, ds := cogflow.LoadSource("find.cog", []byte(src), cogflow.Options{ProjectDir: dir})
	if ds.HasErrors() {
		t.Fatalf("a task calling the accepted skill does not check: %v", ds.Err())
	}
	if _, err := wf.Run(context.Background(), cogflow.RunOptions{Driver: d}); err != nil {
		t.Fatal(err)
	}
	tree, err := d.Observe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if tree.URL != base+"/wiki?q=Denali" {
		t.Errorf("after the task the page is %s, want the wiki's results for Denali", tree.URL)
	}
	if _, ds := cogflow.LoadSource("find.cog", []byte(src), cogflow.Options{}); !ds.HasErrors() {
		t.Error("without the project, a task calling wiki_search checks; want an unknown skill")
	}
}

// With a task, discovery follows it (follower mode): the model judges it
// done on the wiki, and the proposal prompt says which task was followed.
// The target is not named safe: the mutating form-fill skill is not run
// and not written, the read-only search is.
func TestDiscoverFollower(t *testing.T) {
	s, base := demoSite(t)
	d := openBrowser(t)
	srv := model(t, base, `The agent followed the task "search the wiki" (carried out: true).`, base+"/wiki", `textbox(name: "Search"`)
	dir := t.TempDir()
	rep, err := Discover(context.Background(), d, Options{Driver: "browser", Start: base + "/", Task: "search the wiki", Budget: 4,
		Model: client(t, srv), ProjectDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Mode != Follower || !rep.Reached || len(rep.Trajectory.Visits) != 2 {
		t.Fatalf("mode %s, reached %v, %d screens; want the wiki reached in follower mode", rep.Mode, rep.Reached, len(rep.Trajectory.Visits))
	}
	got := map[string]bool{}
	for _, v := range rep.Verdicts {
		got[v.Name] = v.Accepted
		if v.Name == "order_form" && (len(v.Runs) != 0 || len(v.Why) != 1 || v.Why[0] != NotSafe) {
			t.Errorf("order_form on a target not named safe: %d runs, why %q", len(v.Runs), v.Why)
		}
	}
	if !got["wiki_search"] || got["order_form"] || got["wiki_article"] {
		t.Errorf("accepted: %v; want wiki_search only", got)
	}
	if n := len(s.State().Submissions); n != 0 {
		t.Errorf("the order form was submitted %d times on a target not named safe", n)
	}
	if _, err := os.Stat(filepath.Join(SkillsDir(dir, "browser"), "order_form.cog")); err == nil {
		t.Error("order_form.cog was written although it was not validated")
	}
}

// Discovery hands the target named safe to validation: the mutating
// form-fill skill, whose own open leads to a page outside it, fails there
// without submitting anything, and is not written.
func TestDiscoverSafeTarget(t *testing.T) {
	s, base := demoSite(t)
	d := openBrowser(t)
	srv := model(t, base, `The agent followed the task "search the wiki" (carried out: true).`)
	dir := t.TempDir()
	rep, err := Discover(context.Background(), d, Options{Driver: "browser", Start: base + "/", Task: "search the wiki", Budget: 4,
		Model: client(t, srv), ProjectDir: dir, Mutate: true, Safe: func(u string) bool { return !strings.HasPrefix(u, base+"/form") }})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range rep.Verdicts {
		if v.Name == "order_form" && (v.Accepted || !strings.Contains(strings.Join(v.Why, ""), "a mutating skill may not open "+base+"/form")) {
			t.Errorf("order_form outside the safe target: accepted %v, why %q", v.Accepted, v.Why)
		}
	}
	if n := len(s.State().Submissions); n != 0 {
		t.Errorf("the order form was submitted %d times outside the safe target", n)
	}
	if _, err := os.Stat(filepath.Join(SkillsDir(dir, "browser"), "order_form.cog")); err == nil {
		t.Error("order_form.cog was written")
	}
}
