package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// skillsProposals are the scripted model's skills for the demo site
// (SITE its address): a search with its API translation (through the
// browser library's open_with_query), a form fill, and
// a skill whose final state never holds.
const skillsProposals = `{"skills": [
 {"name": "wiki_search", "description": "Search the wiki and show the matching articles.",
  "params": [{"name": "query", "type": "text"}],
  "parameter_sets": [{"query": "Kilimanjaro"}, {"query": "Denali"}, {"query": "Zanzibar"}],
  "steps": "skill wiki_search(query: text) {\n s1 = open(\"SITE/wiki\")\n s2 = type(textbox(name: \"Search\"), query)\n s3 = click(button(name: \"Search\"))\n}",
  "api": "skill wiki_search(query: text) {\n s1 = open_with_query(\"SITE/wiki\", \"q\", query)\n}",
  "effect": "read_only",
  "final_state": {"url_contains": "q={query}", "elements": ["link(name: \"{query}\")"]}},
 {"name": "order_form", "description": "Send the order form.",
  "params": [{"name": "full_name", "type": "text"}, {"name": "email", "type": "text"}],
  "parameter_sets": [{"full_name": "Ada", "email": "ada@example.com"}, {"full_name": "Alan", "email": "alan@example.org"}, {"full_name": "Grace", "email": "grace@example.net"}],
  "steps": "skill order_form(full_name: text, email: text) {\n s1 = open(\"SITE/form\")\n s2 = type(textbox(name: \"Name\"), full_name)\n s3 = type(textbox(name: \"Email\"), email)\n s4 = click(button(name: \"Submit\"))\n}",
  "effect": "mutating",
  "final_state": {"shows": ["from {full_name} ({email}) was received"]}},
 {"name": "wiki_random", "description": "Open a random article.",
  "params": [{"name": "seed", "type": "number"}],
  "parameter_sets": [{"seed": 1}, {"seed": 2}, {"seed": 3}],
  "steps": "skill wiki_random(seed: number) {\n s1 = open(\"SITE/wiki\")\n}",
  "effect": "read_only",
  "final_state": {"shows": ["Random article number {seed}"]}}
]}`

// skillsModel surveys the demo site's home page (Wiki and Order form
// first: the navigation's items, whose descriptions are unique, so that
// exploring finds them again after going back; every other screen a dead
// end) and proposes skillsProposals once
// the prompt shows both pages.
func skillsModel(t *testing.T, base string) *llmtest.Server {
	return llmtest.New(t,
		llmtest.Rule{Name: "rank", Match: llmtest.Contains("Candidates:"), Reply: func(r llmtest.Req) llmtest.Reply {
			home := strings.Contains(r.LastUser(), "Screen: cogflow demo site")
			var b strings.Builder
			for _, l := range exploreCandidate.FindAllStringSubmatch(r.LastUser(), -1) {
				score := 1
				if home && (l[2] == `click listitem(text: "Wiki")` || l[2] == `click listitem(text: "Order form")`) {
					score = 5
				}
				fmt.Fprintf(&b, "%s: %d\n", l[1], score)
			}
			return llmtest.Reply{Text: b.String()}
		}},
		llmtest.Rule{Name: "propose", Match: llmtest.Contains("Propose the skills."), Reply: func(r llmtest.Req) llmtest.Reply {
			for _, want := range []string{"The agent surveyed the app", "- open_with_query(", base + "/wiki", `textbox(name: "Search", id: "q")`, `textbox(name: "Email"`} {
				if !strings.Contains(r.LastUser(), want) {
					t.Errorf("the proposal prompt lacks %q:\n%s", want, r.LastUser())
				}
			}
			return llmtest.Reply{Text: strings.ReplaceAll(skillsProposals, "SITE", base)}
		}},
	)
}

// `cogflow skills discover` on the demo site writes the two skills that
// pass and not the wrong one; list, show and validate manage them, and a
// mutating skill is validated again only on a target named safe.
func TestSkillsDiscoverE2E(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	dir := filepath.Join(t.TempDir(), ".cogflow")
	ctx := context.Background()
	if r := runWith(ctx, "", "skills", "discover", "--url", base+"/", "--dir", dir); r.code != exitUsage || !strings.Contains(r.stderr, "no model is configured") {
		t.Fatalf("discover without a model: exit %d, stderr:\n%s", r.code, r.stderr)
	}
	model := skillsModel(t, base)
	t.Setenv("OPENAI_BASE_URL", model.URL())
	t.Setenv("OPENAI_API_KEY", "sk-test-skills")
	r := runWith(ctx, "", "skills", "discover", "--driver", "browser", "--url", base+"/", "--budget", "4", "--safe", base, "--dir", dir)
	t.Logf("discover:\n%s%s", r.stdout, r.stderr)
	if r.code != exitOK {
		t.Fatalf("discover: exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{"accepted wiki_search (6 validation runs; the file holds the api)", "accepted order_form (3 validation runs; the file holds the steps)",
		"rejected wiki_random (1 validation run)", `"Random article number 1" is not on the screen`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("discover's output lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "explorer mode") || !strings.Contains(r.stderr, "2 of 3 proposed skills validated") {
		t.Errorf("discover's summary:\n%s", r.stderr)
	}
	if n := len(s.State().Submissions); n != 3 {
		t.Errorf("%d order submissions, want 3", n)
	}

	cases := []struct {
		args []string
		code int
		want []string
		not  []string
	}{
		{[]string{"list"}, exitOK, []string{"wiki_search", "Search the wiki and show the matching articles.  (project, read_only, validated",
			"order_form", "(project, mutating, validated", "open_with_query", "(shipped)"}, []string{"wiki_random"}},
		{[]string{"show", "wiki_search"}, exitOK, []string{"# example: wiki_search(\"Kilimanjaro\")", "skill wiki_search(query: text) {",
			`parameter set 3: query = "Zanzibar"`, `open_with_query("` + base + `/wiki", "q", query)`, "the UI steps it translates:", "api, set 3: ok"}, nil},
		{[]string{"show", "nope"}, exitUsage, nil, nil},
		{[]string{"validate", "order_form"}, exitStepFailed, []string{"not validated order_form\n", "not validated: mutating, target not named safe"}, nil},
		{[]string{"validate", "--safe", base}, exitOK, []string{"accepted order_form (3 validation runs", "accepted wiki_search (6 validation runs; the file holds the api)"}, nil},
	}
	for _, c := range cases {
		r := runWith(ctx, "", append(append([]string{"skills"}, c.args...), "--dir", dir)...)
		t.Logf("skills %s:\n%s%s", strings.Join(c.args, " "), r.stdout, r.stderr)
		if r.code != c.code {
			t.Errorf("skills %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(c.args, " "), r.code, c.code, r.stdout, r.stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("skills %s: stdout lacks %q:\n%s", strings.Join(c.args, " "), w, r.stdout)
			}
		}
		for _, w := range c.not {
			if strings.Contains(r.stdout, w) {
				t.Errorf("skills %s: stdout holds %q:\n%s", strings.Join(c.args, " "), w, r.stdout)
			}
		}
	}
	if n := len(s.State().Submissions); n != 6 {
		t.Errorf("%d order submissions after validating again on the safe target, want 6", n)
	}

	// A workflow of the project calls the skills without declaring them.
	t.Chdir(filepath.Dir(dir))
	wf := writeWorkflow(t, "order.cog", "task order \"Look Denali up, then order\" {\n  driver browser\n"+
		"  s1 = wiki_search(\"Denali\")\n  s2 = order_form(\"Edmund\", \"ed@example.com\")\n}\n")
	if r := runWith(ctx, "", "run", wf, "--yes"); r.code != exitOK {
		t.Fatalf("a task calling the project's skills: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if sub := s.State().Submissions; len(sub) != 7 || sub[6].Name != "Edmund" {
		t.Errorf("after the task, the submissions are %+v", sub)
	}
}
