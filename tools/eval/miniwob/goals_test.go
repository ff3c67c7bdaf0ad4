package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/compiler/goal"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestInstructionParams: the values of an instruction are what other
// instances word differently; instances of another wording are not
// compared.
func TestInstructionParams(t *testing.T) {
	cases := []struct {
		main   string
		others []string
		want   []string
	}{
		{`Click on the "ok" button.`, []string{`Click on the "no" button.`, `Click on the "Yes" button.`}, []string{"ok"}},
		{"Select ab, cd, ef and click Submit.", []string{"Select gh and click Submit.", "Select ij, kl and click Submit."}, []string{"ab", "cd", "ef"}},
		{"Select a, b, c, d, e, f, g, h and click Submit.", []string{"Select i, j and click Submit.", "Select k, l, m and click Submit."}, []string{"a", "b", "c", "d", "e", "f", "g", "h"}},
		{"Enter 8:22 AM as the time and press submit.", []string{"Enter 11:05 PM as the time and press submit.", "Enter 1:10 AM as the time and press submit."}, []string{"8:22 AM"}},
		{"Find the email by Ann and click the star icon to mark it as important.",
			[]string{"Find the email by Bo and reply to them with the text \"hi\".", "Find the email by Cy and click the star icon to mark it as important."},
			[]string{"Ann"}},
		{`Copy the text "x" here.`, []string{"Something else entirely, worded apart from it all."}, []string{"x"}},
		{`Enter an item that starts with "Ira" and ends with "an".`, []string{`Enter an item that starts with "Bo".`, `Enter an item that starts with "Cy".`}, []string{"Ira", "an"}},
		{"Copy the text below and press Submit.", []string{"Copy the text below and press Submit."}, nil},
	}
	for _, c := range cases {
		got := instructionParams(c.main, c.others)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.main, got, c.want)
		}
	}
}

// TestReferenceText: the goal file the builder writes reads back with the
// values the builder found, none included (not the quoted parts).
func TestReferenceText(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct {
		instruction string
		params      []string
	}{
		{`Close the dialog box by clicking the "x".`, nil},
		{`Click on the "ok" button.`, []string{"ok"}},
		{"Select a, b and click Submit.", []string{"a", "b"}},
	} {
		p := filepath.Join(dir, fmt.Sprintf("t%d%s", i, goal.GoalSuffix))
		if err := os.WriteFile(p, []byte(referenceText(c.instruction, c.params)), 0o644); err != nil {
			t.Fatal(err)
		}
		ref, err := goal.ReadReference(p)
		if err != nil {
			t.Fatal(err)
		}
		if ref.Goal != c.instruction || strings.Join(ref.Params, "|") != strings.Join(c.params, "|") || strings.Join(ref.Mask.IDs, "|") != "query" {
			t.Errorf("%q %q: read back %+v", c.instruction, c.params, ref)
		}
	}
}

// TestGoalsProtocolOnFixtures reproduces the goal protocol end to end on
// three MiniWoB++ development tasks (third-party pages, read in place):
// the scripted person demonstrates each while `cogflow record` records
// it, the folder is written as `make eval-goals` writes it, and the
// evaluation runs with llmtest's scripted model, which checks that no
// goal prompt, and no judge prompt's trajectory, shows the instruction.
func TestGoalsProtocolOnFixtures(t *testing.T) {
	if os.Getenv("COGFLOW_EVAL_FIXTURES") == "" {
		// make test keeps to the project's own pages; make eval-goals
		// runs this one on the third-party fixtures.
		t.Skip("reads the third-party MiniWoB++ fixtures: run by make eval-goals (COGFLOW_EVAL_FIXTURES=1)")
	}
	bin := os.Getenv("COGFLOW_CHROME")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no Chromium:", err)
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	html := fixtureDir(root, "")
	if _, err := os.Stat(filepath.Join(html, "miniwob", "click-button.html")); err != nil {
		t.Fatal("no MiniWoB++ fixtures (../shared/fixtures or $COGFLOW_FIXTURES):", err)
	}
	srv, err := startServer(html)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	e, cleanup, err := setup(ctx, root, options{out: t.TempDir(), chrome: bin}, srv)
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	dir := filepath.Join(e.out, "goals")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	tasks := []string{"click-button", "click-checkboxes", "choose-list"}
	var instructions []string
	for _, task := range tasks {
		if line, err := e.goalDemo(ctx, dir, task, "1"); err != nil {
			t.Fatalf("%s: %s", task, line)
		}
		ref, err := goal.ReadReference(filepath.Join(dir, "miniwob-"+task+goal.GoalSuffix))
		if err != nil {
			t.Fatal(err)
		}
		if len(ref.Params) == 0 || len(ref.Mask.IDs) != 1 {
			t.Errorf("%s: reference %+v: no values or no mask", task, ref)
		}
		instructions = append(instructions, ref.Goal)
		// The recorded trace shows it: masking has something to do.
		raw, err := os.ReadFile(filepath.Join(dir, "miniwob-"+task+goal.TraceSuffix))
		if err != nil || !strings.Contains(string(raw), ref.Goal[:12]) {
			t.Errorf("%s: the recorded trace does not show the instruction %q (%v)", task, ref.Goal, err)
		}
	}

	model := llmtest.New(t,
		llmtest.Rule{Name: "goal", Match: llmtest.Contains("You identify the goal"), Reply: llmtest.Text("goal: Pick the item the page asks for and submit")},
		llmtest.Rule{Name: "judge", Match: llmtest.Contains("You judge whether"), Reply: llmtest.Text("answer: partly\nreason: the description names no item")},
	)
	client, err := llm.NewOpenAI(llm.Config{BaseURL: model.URL(), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := goal.Evaluate(ctx, dir, goal.Options{LLM: client, Model: "scripted"})
	if err != nil {
		t.Fatal(err)
	}
	if tot := rep.Totals(); tot.Rows != 3 || tot.Partial != 3 || tot.Errors != 0 {
		t.Errorf("totals %+v", tot)
	}
	reqs := model.Requests()
	if len(reqs) != 9 {
		t.Errorf("%d requests, want 3 goal and 6 judge requests", len(reqs))
	}
	for _, r := range reqs {
		shown := r.LastUser()
		if strings.Contains(r.Prompt(), "You judge whether") {
			i, j := strings.Index(shown, "Trajectory:\n"), strings.LastIndex(shown, "Does this trajectory fulfil")
			if i < 0 || j < i {
				t.Fatalf("request %d has no trajectory section", r.Seq)
			}
			shown = shown[i:j]
		}
		if !strings.Contains(shown, "Steps (") {
			t.Errorf("request %d shows no steps:\n%s", r.Seq, shown)
		}
		for _, q := range instructions {
			if strings.Contains(strings.ToLower(shown), strings.ToLower(q)) || strings.Contains(shown, q[:12]) {
				t.Errorf("request %d shows the instruction %q:\n%s", r.Seq, q, shown)
			}
		}
	}
}
