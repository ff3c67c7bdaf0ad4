package goal

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

const testModel = "goal-test-model"

// scripted starts the scripted server with the goal and judge rules and
// returns options pointing at it.
func scripted(t *testing.T, judge func(llmtest.Req) llmtest.Reply) (*llmtest.Server, Options) {
	t.Helper()
	srv := llmtest.New(t,
		llmtest.Rule{Name: "goal", Match: llmtest.Contains("You identify the goal"), Reply: func(r llmtest.Req) llmtest.Reply {
			p := r.LastUser()
			switch {
			case strings.Contains(p, "Kanesha"):
				return llmtest.Reply{Text: "goal: Type Kanesha into the field and submit\nparam: name = Kanesha"}
			case strings.Contains(p, "quince"):
				// durian is nowhere in the trajectory: the parameter is dropped.
				return llmtest.Reply{Text: "Here it is.\ngoal: Select lemon, quince and click Submit.\nparam: first = lemon\nparam: second = quince\nparam: third = durian"}
			}
			return llmtest.Reply{Text: "goal: Click the \"ok\" button\nparam: button = ok"}
		}},
		llmtest.Rule{Name: "judge", Match: llmtest.Contains("You judge whether"), Reply: judge},
	).RequireKey("sk-goal")
	client, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "sk-goal"})
	if err != nil {
		t.Fatal(err)
	}
	return srv, Options{LLM: client, Model: testModel}
}

// checkRequests fails when a request shows an instruction where it must
// not: anywhere in a goal request, or in a judge request's trajectory
// (the judge gets the reference as the description to compare, by design).
func checkRequests(t *testing.T, srv *llmtest.Server, ds []demo) (goals, judges int) {
	t.Helper()
	for _, r := range srv.Requests() {
		if r.Rejected != "" || r.Model != testModel {
			t.Errorf("request %d: rejected %q, model %q", r.Seq, r.Rejected, r.Model)
		}
		shown := r.Prompt()
		if strings.Contains(shown, "You judge whether") {
			judges++
			traj := r.LastUser()
			start, end := strings.Index(traj, "Trajectory:\n"), strings.LastIndex(traj, "Does this trajectory fulfil")
			if start < 0 || end < start {
				t.Fatalf("request %d: no trajectory section:\n%s", r.Seq, traj)
			}
			shown = traj[start:end]
		} else {
			goals++
			if !strings.Contains(shown, "Steps (") {
				t.Errorf("request %d: the goal prompt has no trajectory:\n%s", r.Seq, shown)
			}
		}
		for _, d := range ds {
			for _, s := range []string{d.instruction, d.instruction[:minPartial]} {
				if strings.Contains(strings.ToLower(shown), strings.ToLower(s)) {
					t.Errorf("request %d shows the masked instruction %q:\n%s", r.Seq, s, shown)
				}
			}
		}
	}
	return goals, judges
}

// TestEvaluateWithModel reproduces the protocol end to end with a
// scripted model: masked traces, one goal request and two judge requests
// per demonstration, the verdicts combined, the table.
func TestEvaluateWithModel(t *testing.T) {
	dir := writeDemos(t, demos)
	srv, opts := scripted(t, func(r llmtest.Req) llmtest.Reply {
		p := r.LastUser()
		switch {
		case strings.Contains(p, "Kanesha") && strings.Contains(p, `fulfil the task description "Enter`):
			// B's (inferred) trajectory does not say it pressed Submit.
			return llmtest.Reply{Text: "answer: partly\nreason: it typed Kanesha but the description also asks to press Submit"}
		case strings.Contains(p, `"ok"`) && strings.Contains(p, `was asked: "Click on the`):
			return llmtest.Reply{Text: "Answer: No.\nreason: pretend disagreement"}
		case strings.Contains(p, `"ok"`):
			return llmtest.Reply{Text: "answer: no\nreason: pretend disagreement"}
		}
		return llmtest.Reply{Text: "answer: yes\nreason: the same items, the same button"}
	})
	rep, err := Evaluate(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	goals, judges := checkRequests(t, srv, demos)
	if goals != 3 || judges != 6 {
		t.Errorf("%d goal and %d judge requests, want 3 and 6", goals, judges)
	}
	want := map[string]string{"click-button": No, "click-checkboxes": Match, "enter-text": Partial}
	for _, row := range rep.Rows {
		if row.Err != "" || row.Verdict == nil {
			t.Fatalf("%s: %s", row.Name, row.Err)
		}
		if row.Verdict.Verdict != want[row.Name] || row.Verdict.Source != SourceModel || row.Inferred.Source != SourceModel {
			t.Errorf("%s: verdict %s (%s), want %s", row.Name, row.Verdict.Verdict, row.Verdict.Source, want[row.Name])
		}
	}
	tot := rep.Totals()
	if tot.Match != 1 || tot.Partial != 1 || tot.No != 1 || tot.Exact != 1 || tot.AllFound != 3 || tot.Extra != 0 {
		t.Errorf("totals %+v", tot)
	}
	cb := rep.Rows[1]
	if cb.Name != "click-checkboxes" || len(cb.Inferred.Notes) != 1 || !strings.Contains(cb.Inferred.Notes[0], "durian") {
		t.Errorf("the unseen parameter was not dropped with a note: %+v", cb.Inferred)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rep, true); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"by the model", "Judge: 1 match, 1 partial, 1 no", "Exact sentences: 1 of 3", "enter-text: B→A partly: it typed Kanesha", "note: dropped the parameter third"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the table lacks %q:\n%s", s, b.String())
		}
	}
}

// TestJudgeModelWithoutAnswer: a reply with no answer line is an error,
// never a guessed verdict; the row says so and the totals count it.
func TestJudgeModelWithoutAnswer(t *testing.T) {
	dir := writeDemos(t, demos[:1])
	_, opts := scripted(t, llmtest.Text("I think they are about the same."))
	rep, err := Evaluate(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Rows[0]
	if row.Verdict != nil || !strings.Contains(row.Err, `no "answer: yes|partly|no" line`) {
		t.Fatalf("row %+v", row)
	}
	if rep.Totals().Errors != 1 {
		t.Errorf("totals %+v", rep.Totals())
	}
}

// TestInferModelWithoutGoal: a reply with no goal line is an error.
func TestInferModelWithoutGoal(t *testing.T) {
	srv := llmtest.New(t, llmtest.Rule{Name: "any", Reply: llmtest.Text("param: x = ok")})
	client, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Infer(context.Background(), demos[0].build(), Options{LLM: client, Model: testModel})
	if err == nil || !strings.Contains(err.Error(), `no "goal:" line`) {
		t.Fatalf("error %v", err)
	}
}
