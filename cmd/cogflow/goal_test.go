package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

const signupTrace = "../../testdata/signup.trace.json"

// TestGoalCommand: the goal and its parameters, and "rules only" without
// a model; a bad trace is a diagnostic naming the file.
func TestGoalCommand(t *testing.T) {
	isolateConfig(t)
	cases := []struct {
		name string
		args []string
		code int
		out  []string
		err  string
	}{
		{"rules", []string{"goal", mustAbs(t, signupTrace)}, exitOK,
			[]string{`goal: Enter "Ada" into textbox "Name", then click "Send"`, `param: name = "Ada" (e3: typed into textbox "Name")`, "source: rules only (no model)"}, ""},
		{"no trace", []string{"goal"}, exitUsage, nil, "give one trace"},
		{"missing file", []string{"goal", "nothere.trace.json"}, exitBadInput, nil, "nothere.trace.json"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCLI(t, "", c.args...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, c.code, r.stdout, r.stderr)
			}
			for _, s := range c.out {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			if !strings.Contains(r.stderr, c.err) {
				t.Errorf("stderr lacks %q:\n%s", c.err, r.stderr)
			}
		})
	}
}

// mustAbs is a path made absolute.
func mustAbs(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJudgeCommand: the rules' verdict, both directions with reasons, and
// the model's when one is configured.
func TestJudgeCommand(t *testing.T) {
	isolateConfig(t)
	tr := mustAbs(t, signupTrace)
	r := runCLI(t, "", "judge", "--goal-a", "Sign up as Ada", "--trace-a", tr, "--goal-b", "Register Ada", "--trace-b", tr)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, s := range []string{"verdict: match", `A's trajectory fulfils B: yes: rules only: B names every value A's trajectory used ("Ada")`, "source: rules only"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	if r := runCLI(t, "", "judge", "--goal-a", "x", "--trace-a", tr); r.code != exitUsage {
		t.Errorf("a missing description: exit %d", r.code)
	}

	srv := model(t, llmtest.Rule{Name: "judge", Match: llmtest.Contains("You judge whether"), Reply: func(q llmtest.Req) llmtest.Reply {
		if strings.Contains(q.LastUser(), `was asked: "Sign up as Ada"`) {
			return llmtest.Reply{Text: "answer: partly\nreason: registering is signing up, but the trajectory does not confirm the account"}
		}
		return llmtest.Reply{Text: "answer: yes\nreason: the name Ada was sent"}
	}})
	r = runCLI(t, "", "judge", "--goal-a", "Sign up as Ada", "--trace-a", tr, "--goal-b", "Register Ada", "--trace-b", tr)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, s := range []string{"verdict: partial", "A's trajectory fulfils B: partly: registering is signing up", "B's trajectory fulfils A: yes: the name Ada was sent", "source: the model"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	if srv.Count() != 2 {
		t.Errorf("%d requests, want 2", srv.Count())
	}
}

// TestEvalGoalsCommand: the table over a folder, rules only; a trace
// without its reference goal is an error naming it.
func TestEvalGoalsCommand(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	data, err := os.ReadFile(signupTrace)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "signup.trace.json", string(data))
	writeFile(t, dir, "signup.goal.txt", "Sign up as \"Ada\"\n")
	r := runCLI(t, "", "eval", "goals", dir)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, s := range []string{"rules only (no model)", "signup", "1/1", "Judge: 1 match, 0 partial, 0 no", "Parameters recovered exactly: 1 of 1 goals"} {
		if !strings.Contains(r.stdout, s) {
			t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
		}
	}
	writeFile(t, dir, "lonely.trace.json", string(data))
	r = runCLI(t, "", "eval", "goals", dir)
	if r.code != exitUsage || !strings.Contains(r.stderr, "lonely.goal.txt") {
		t.Errorf("exit %d, stderr %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "eval", "skills", dir); r.code != exitUsage {
		t.Errorf("eval skills: exit %d", r.code)
	}
}
