//go:build unix

package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// modelEntryWorkflow types the model's summary of the code into the form:
// the row needs one chat completion.
const modelEntryWorkflow = `task enter "Submit one entry with a summarized code" {
  driver browser
  input site: url = "http://127.0.0.1:8088"
  input n: text
  input code: text
  input pin: secret

  op1 = open(site + "/entries/" + n)
  op2 = type(textbox(name: "Code"), summarize<"the entry code in capitals">(code))
  op3 = type(textbox(name: "PIN"), pin)
  op4 = click(button(name: "Submit"))
  op5 = wait("Entry " + n + " received")
}
`

// TestTemporalModelCallRetried: a row's chat completion is a Temporal
// workflow of its own whose activity the engine retries. The endpoint
// fails the first request with a 500 (the client's own retries are off on
// a worker) and answers the second; the row completes with the answer, and
// the model call's history shows the activity's second attempt.
func TestTemporalModelCallRetried(t *testing.T) {
	c := newCluster(t)
	const answer = "SUMMARIZED-CODE-7"
	srv := model(t,
		llmtest.Rule{Name: "flaky", Match: llmtest.Contains("the entry code in capitals"),
			Reply: func(llmtest.Req) llmtest.Reply {
				return llmtest.Reply{Status: 500, Text: "the model is overloaded", Times: 1}
			}},
		llmtest.Rule{Name: "summary", Match: llmtest.Contains("the entry code in capitals"), Reply: llmtest.Text(answer)},
	)
	csvPath, pins := c.rows(7, 7)
	cog := writeWorkflow(t, "enter_model.cog", strings.ReplaceAll(modelEntryWorkflow, "http://127.0.0.1:8088", c.base))
	w := c.worker("w1") // after model(): it reads the endpoint from the environment
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	r := c.submit(ctx, cog, csvPath, "--wait")
	if r.code != exitOK {
		t.Fatalf("submit --wait: exit %d\nstdout:\n%s\nstderr:\n%s\nworker:\n%s", r.code, r.stdout, r.stderr, w.output())
	}
	entries := c.site.Entries()
	if len(entries) != 1 || entries[0].N != 7 || entries[0].Code != answer {
		t.Fatalf("entries %+v, want entry 7 once with the model's answer %q as its code", entries, answer)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || reqs[0].Status != 500 || reqs[1].Status != 200 {
		t.Fatalf("the endpoint got %d requests, want 2 (a 500, then the answer): %+v", len(reqs), reqs)
	}
	for _, q := range reqs {
		if q.Rejected != "" || !strings.Contains(q.Prompt(), "C-7") || strings.Contains(q.Prompt(), pins[7]) {
			t.Errorf("request %d: rejected %q, or it lacks the code or holds the PIN:\n%s", q.Seq, q.Rejected, q.Prompt())
		}
	}

	batchID := strings.TrimSpace(r.stdout[:strings.Index(r.stdout, "\n")])
	b := loadBatch(t, c.root, batchID)
	id := temporalrun.ModelWorkflowID(temporalrun.RowWorkflowID(b.Temporal.WorkflowID, 1), 1, 1)
	out, err := exec.Command(c.tcli, "workflow", "show", "--address", c.addr, "--workflow-id", id, "--output", "json").CombinedOutput()
	if err != nil {
		t.Fatalf("temporal workflow show %s: %v\n%s", id, err, out)
	}
	h := string(out)
	// The activity's started event is written when the attempt that
	// succeeded began: the second.
	for _, want := range []string{temporalrun.ChatActivity, `"attempt": 2`, "ACTIVITY_TASK_COMPLETED"} {
		if !strings.Contains(h, want) {
			t.Errorf("the history of the model call %s lacks %q:\n%.3000s", id, want, h)
		}
	}
	// Payloads are sealed: neither the prompt nor the answer is readable.
	if strings.Contains(h, answer) || strings.Contains(h, "the entry code in capitals") {
		t.Errorf("the history of %s holds the prompt or the answer in the clear", id)
	}
}
