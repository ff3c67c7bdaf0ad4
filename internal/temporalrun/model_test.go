package temporalrun

import (
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/testsuite"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestModelWorkflowRetries runs the model workflow in the SDK's test
// environment against the scripted endpoint, with the client's own retries
// off as on a worker: the engine retries what the client would (5xx, 429)
// and stops at once at any other 4xx.
func TestModelWorkflowRetries(t *testing.T) {
	tests := []struct {
		name     string
		failures []int // statuses before the answer
		wantReqs int
		wantErr  string
	}{
		{name: "answer", wantReqs: 1},
		{name: "500 then answer", failures: []int{500}, wantReqs: 2},
		{name: "429 and 503 then answer", failures: []int{429, 503}, wantReqs: 3},
		{name: "400 is not retried", failures: []int{400}, wantReqs: 1, wantErr: "HTTP 400"},
		{name: "401 is not retried", failures: []int{401}, wantReqs: 1, wantErr: "HTTP 401"},
		{name: "gives up after five attempts", failures: []int{500, 500, 500, 500, 500, 500}, wantReqs: ModelAttempts, wantErr: "HTTP 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules []llmtest.Rule
			for i, status := range tt.failures {
				rules = append(rules, llmtest.Rule{Name: "fail", Match: func(q llmtest.Req) bool { return q.Seq == i+1 },
					Reply: func(llmtest.Req) llmtest.Reply { return llmtest.Reply{Status: status, Text: "scripted failure"} }})
			}
			rules = append(rules, llmtest.Rule{Name: "answer", Reply: llmtest.Text("the answer")})
			srv := llmtest.New(t, rules...)
			chat, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			var s testsuite.WorkflowTestSuite
			env := s.NewTestWorkflowEnvironment()
			env.RegisterWorkflow(ModelWorkflow)
			env.RegisterActivityWithOptions((&Chatter{Client: chat}).Chat, activity.RegisterOptions{Name: ChatActivity})
			req := llm.Request{Model: "gpt-test", Messages: []llm.Message{{Role: "user", Content: "a question"}}}
			env.ExecuteWorkflow(ModelWorkflow, ModelCall{Request: req, Timeout: 5 * time.Second})
			if !env.IsWorkflowCompleted() {
				t.Fatal("the model workflow did not complete")
			}
			err = env.GetWorkflowError()
			if srv.Count() != tt.wantReqs {
				t.Errorf("%d requests, want %d (err %v)", srv.Count(), tt.wantReqs, err)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var res llm.Response
			if err := env.GetWorkflowResult(&res); err != nil {
				t.Fatal(err)
			}
			if res.Text != "the answer" || res.Attempts != tt.wantReqs {
				t.Errorf("response %q after %d attempts, want the answer after %d", res.Text, res.Attempts, tt.wantReqs)
			}
		})
	}
}
