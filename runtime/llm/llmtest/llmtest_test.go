package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/llm"
)

// recordingTB catches the server's test failures so tests can expect them.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recordingTB) failures() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.errs...)
}

type result struct {
	status int
	header http.Header
	body   map[string]any
	raw    string
}

func post(t *testing.T, method, url, auth, body string) result {
	t.Helper()
	r, err := send(method, url, auth, body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// send is post for goroutines other than the test's.
func send(method, url, auth, body string) (result, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Trace", "abc")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return result{}, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	r := result{status: resp.StatusCode, header: resp.Header, raw: string(raw)}
	_ = json.Unmarshal(raw, &r.body)
	return r, err
}

const okBody = `{"model":"gpt-4o-mini","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Summarize Kilimanjaro"}],"temperature":0,"max_tokens":64}`

func TestChecksRequests(t *testing.T) {
	tests := []struct {
		name       string
		method     string
		path       string
		auth       string
		body       string
		wantStatus int
		wantMsg    string
	}{
		{"valid", "POST", "/v1/chat/completions", "Bearer sk-key", okBody, 200, ""},
		{"valid without /v1", "POST", "/chat/completions", "Bearer sk-key", okBody, 200, ""},
		{"GET", "GET", "/v1/chat/completions", "Bearer sk-key", "", 405, "use POST"},
		{"unknown path", "POST", "/v1/completions", "Bearer sk-key", okBody, 404, "no endpoint"},
		{"no key", "POST", "/v1/chat/completions", "", okBody, 401, "didn't provide an API key"},
		{"wrong key", "POST", "/v1/chat/completions", "Bearer sk-other", okBody, 401, "Incorrect API key"},
		{"not bearer", "POST", "/v1/chat/completions", "sk-key", okBody, 401, "Incorrect API key"},
		{"bad JSON", "POST", "/v1/chat/completions", "Bearer sk-key", `{"model":`, 400, "could not parse the JSON"},
		{"no model", "POST", "/v1/chat/completions", "Bearer sk-key", `{"messages":[{"role":"user","content":"x"}]}`, 400, "provide a model"},
		{"no messages", "POST", "/v1/chat/completions", "Bearer sk-key", `{"model":"m","messages":[]}`, 400, "non-empty"},
		{"unknown role", "POST", "/v1/chat/completions", "Bearer sk-key", `{"model":"m","messages":[{"role":"robot","content":"x"}]}`, 400, `messages[0].role: "robot"`},
		{"bad content", "POST", "/v1/chat/completions", "Bearer sk-key", `{"model":"m","messages":[{"role":"user","content":42}]}`, 400, "messages[0].content"},
		{"stream", "POST", "/v1/chat/completions", "Bearer sk-key", `{"model":"m","stream":true,"messages":[{"role":"user","content":"x"}]}`, 400, "streaming"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t, Rule{Name: "any", Reply: Text("ok")}).RequireKey("sk-key")
			base := strings.TrimSuffix(srv.URL(), "/v1")
			got := post(t, tt.method, base+tt.path, tt.auth, tt.body)
			if got.status != tt.wantStatus {
				t.Fatalf("status %d, want %d; body %s", got.status, tt.wantStatus, got.raw)
			}
			reqs := srv.Requests()
			if len(reqs) != 1 || srv.Count() != 1 {
				t.Fatalf("recorded %d requests, want 1", len(reqs))
			}
			rec := reqs[0]
			if rec.Status != tt.wantStatus || rec.Header.Get("Authorization") != "" || rec.Header.Get("X-Trace") != "abc" || string(rec.Body) != tt.body {
				t.Errorf("recorded %+v", rec)
			}
			if tt.wantStatus == 200 {
				if rec.Rejected != "" {
					t.Errorf("valid request marked rejected: %s", rec.Rejected)
				}
				return
			}
			e, _ := got.body["error"].(map[string]any)
			if msg, _ := e["message"].(string); !strings.Contains(msg, tt.wantMsg) || !strings.Contains(rec.Rejected, tt.wantMsg) {
				t.Errorf("error message %q (recorded %q) does not contain %q", msg, rec.Rejected, tt.wantMsg)
			}
			if e["type"] == "" {
				t.Error("error has no type")
			}
		})
	}
}

func TestRecordsRequests(t *testing.T) {
	srv := New(t, Rule{Name: "any", Reply: Text("ok")})
	body := `{"model":"llama3","messages":[{"role":"system","content":"Be brief."},` +
		`{"role":"user","content":[{"type":"text","text":"Hello "},{"type":"text","text":"world"}]},` +
		`{"role":"assistant","content":null}],"temperature":0.25,"max_completion_tokens":9}`
	if got := post(t, "POST", srv.URL()+"/chat/completions", "Bearer whatever", body); got.status != 200 {
		t.Fatalf("status %d: %s", got.status, got.raw)
	}
	post(t, "POST", srv.URL()+"/chat/completions", "", `{"model":"m","messages":[{"role":"user","content":"x"}]}`)
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	wantMsgs := []llm.Message{{Role: "system", Content: "Be brief."}, {Role: "user", Content: "Hello world"}, {Role: "assistant", Content: ""}}
	if r.Seq != 1 || r.Method != "POST" || r.Path != "/v1/chat/completions" || r.Model != "llama3" || fmt.Sprint(r.Messages) != fmt.Sprint(wantMsgs) {
		t.Errorf("recorded %+v", r)
	}
	if r.Temperature == nil || *r.Temperature != 0.25 || r.MaxTokens != 9 {
		t.Errorf("temperature %v max tokens %d", r.Temperature, r.MaxTokens)
	}
	if r.Header.Get("Authorization") != "" {
		t.Error("Authorization recorded")
	}
	if r.LastUser() != "Hello world" || !strings.Contains(r.Prompt(), "Be brief.\nHello world\n") {
		t.Errorf("LastUser %q Prompt %q", r.LastUser(), r.Prompt())
	}
	if reqs[1].Seq != 2 || reqs[1].Temperature != nil || reqs[1].MaxTokens != 0 {
		t.Errorf("second request %+v", reqs[1])
	}
}

func TestResponseShape(t *testing.T) {
	srv := New(t,
		Rule{Name: "no usage", Match: LastUserContains("bare"), Reply: func(Req) Reply { return Reply{Text: "bare answer", NoUsage: true} }},
		Rule{Name: "fixed usage", Match: LastUserContains("fixed"), Reply: func(Req) Reply {
			return Reply{Text: "x", Usage: &Usage{PromptTokens: 7, CompletionTokens: 2}, FinishReason: "length", Headers: map[string]string{"X-Request-Id": "r1"}}
		}},
		Rule{Name: "default", Reply: Text("A dormant volcano.")},
	)
	msg := func(s string) string {
		return `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"` + s + `"}]}`
	}

	got := post(t, "POST", srv.URL()+"/chat/completions", "", msg("Summarize Kilimanjaro"))
	b := got.body
	choice := b["choices"].([]any)[0].(map[string]any)
	message := choice["message"].(map[string]any)
	usage := b["usage"].(map[string]any)
	if got.status != 200 || got.header.Get("Content-Type") != "application/json" ||
		b["id"] == "" || b["object"] != "chat.completion" || b["created"].(float64) <= 0 || b["model"] != "gpt-4o-mini" ||
		message["role"] != "assistant" || message["content"] != "A dormant volcano." || choice["finish_reason"] != "stop" {
		t.Errorf("response %s", got.raw)
	}
	in := llm.EstimateMessages([]llm.Message{{Role: "user", Content: "Summarize Kilimanjaro"}})
	out := llm.EstimateTokens("A dormant volcano.")
	if usage["prompt_tokens"] != float64(in) || usage["completion_tokens"] != float64(out) || usage["total_tokens"] != float64(in+out) {
		t.Errorf("usage %v, want estimates %d + %d", usage, in, out)
	}

	got = post(t, "POST", srv.URL()+"/chat/completions", "", msg("fixed"))
	usage = got.body["usage"].(map[string]any)
	choice = got.body["choices"].([]any)[0].(map[string]any)
	if usage["prompt_tokens"] != 7.0 || usage["completion_tokens"] != 2.0 || usage["total_tokens"] != 9.0 ||
		choice["finish_reason"] != "length" || got.header.Get("X-Request-Id") != "r1" {
		t.Errorf("response %s headers %v", got.raw, got.header)
	}

	got = post(t, "POST", srv.URL()+"/chat/completions", "", msg("bare"))
	if _, ok := got.body["usage"]; ok {
		t.Errorf("NoUsage response has usage: %s", got.raw)
	}
}

func TestRulesOrderAndTimes(t *testing.T) {
	srv := New(t,
		Rule{Name: "rate limited twice", Match: ModelIs("gpt-4o"), Reply: func(Req) Reply {
			return Reply{Status: 429, Times: 2, Headers: map[string]string{"Retry-After": "1"}}
		}},
		Rule{Name: "element model", Match: ModelIs("gpt-4o"), Reply: Text("3")},
		Rule{Name: "mentions volcano", Match: Contains("volcano"), Reply: Text("volcano rule")},
		Rule{Name: "fallback", Reply: Text("fallback")},
	)
	req := func(model, content string) string {
		return `{"model":"` + model + `","messages":[{"role":"system","content":"` + content + `"},{"role":"user","content":"go"}]}`
	}
	var got []string
	for _, body := range []string{req("gpt-4o", "x"), req("gpt-4o", "x"), req("gpt-4o", "x"), req("mini", "a volcano"), req("mini", "x")} {
		r := post(t, "POST", srv.URL()+"/chat/completions", "", body)
		if r.status != 200 {
			e := r.body["error"].(map[string]any)
			got = append(got, fmt.Sprintf("%d %s %s", r.status, r.header.Get("Retry-After"), e["type"]))
			continue
		}
		got = append(got, r.body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string))
	}
	want := []string{"429 1 rate_limit_exceeded", "429 1 rate_limit_exceeded", "3", "volcano rule", "fallback"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("answers %q, want %q", got, want)
	}
	// LastUserContains looks at the last user message only.
	if LastUserContains("volcano")(srv.Requests()[3]) || !LastUserContains("go")(srv.Requests()[3]) {
		t.Error("LastUserContains matched the wrong message")
	}
}

func TestScriptedErrorMessage(t *testing.T) {
	srv := New(t, Rule{Name: "down", Reply: func(Req) Reply { return Reply{Status: 503} }})
	r := post(t, "POST", srv.URL()+"/chat/completions", "", okBody)
	e := r.body["error"].(map[string]any)
	if r.status != 503 || e["type"] != "server_error" || !strings.Contains(e["message"].(string), `rule "down"`) {
		t.Errorf("got %d %s", r.status, r.raw)
	}
	if rec := srv.Requests()[0]; rec.Status != 503 || rec.Rejected != "" {
		t.Errorf("recorded %+v", rec)
	}
}

func TestNoRuleFailsTheTest(t *testing.T) {
	tb := &recordingTB{TB: t}
	srv := New(tb, Rule{Name: "only volcanoes", Match: Contains("volcano"), Reply: Text("x")})
	r := post(t, "POST", srv.URL()+"/chat/completions", "", okBody)
	if r.status != 500 {
		t.Errorf("status %d, want 500", r.status)
	}
	fails := tb.failures()
	if len(fails) != 1 || !strings.Contains(fails[0], "no rule matches request #1") ||
		!strings.Contains(fails[0], `"gpt-4o-mini"`) || !strings.Contains(fails[0], "Summarize Kilimanjaro") {
		t.Errorf("test failures %q; want one naming the request", fails)
	}
	if msg := r.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "no rule matches") {
		t.Errorf("error message %q", msg)
	}
}

func TestDelayAbandonedByClient(t *testing.T) {
	srv := New(t, Rule{Reply: func(Req) Reply { return Reply{Text: "late", Delay: time.Minute} }})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", srv.URL()+"/chat/completions", strings.NewReader(okBody))
	start := time.Now()
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("no timeout")
	}
	if time.Since(start) > 5*time.Second {
		t.Error("the client was held past its deadline")
	}
	// The test's cleanup closes the server; it must not wait out the minute.
}

func TestDelay(t *testing.T) {
	srv := New(t, Rule{Reply: func(Req) Reply { return Reply{Text: "late", Delay: 80 * time.Millisecond} }})
	start := time.Now()
	if r := post(t, "POST", srv.URL()+"/chat/completions", "", okBody); r.status != 200 {
		t.Fatal(r.raw)
	}
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Errorf("answered after %s, before the delay", d)
	}
}

func TestConcurrentRequests(t *testing.T) {
	srv := New(t, Rule{Name: "echo", Reply: func(r Req) Reply { return Reply{Text: "re: " + r.LastUser()} }})
	srv.Add(Rule{Name: "never reached"})
	const n = 50
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			body := fmt.Sprintf(`{"model":"m","messages":[{"role":"user","content":"q%d"}]}`, i)
			r, err := send("POST", srv.URL()+"/chat/completions", "", body)
			if err != nil || r.status != 200 {
				t.Errorf("request %d: %v %s", i, err, r.raw)
				return
			}
			got := r.body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"]
			if got != fmt.Sprintf("re: q%d", i) {
				t.Errorf("request %d answered %v", i, got)
			}
		})
		wg.Go(func() { _ = srv.Requests(); _ = srv.Count() })
	}
	wg.Wait()
	if srv.Count() != n {
		t.Errorf("Count %d, want %d", srv.Count(), n)
	}
	seqs := map[int]bool{}
	for _, r := range srv.Requests() {
		seqs[r.Seq] = true
	}
	if len(seqs) != n {
		t.Errorf("%d distinct sequence numbers, want %d", len(seqs), n)
	}
}

func TestURL(t *testing.T) {
	srv := New(t)
	if u := srv.URL(); !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.HasSuffix(u, "/v1") {
		t.Errorf("URL %q", u)
	}
}
