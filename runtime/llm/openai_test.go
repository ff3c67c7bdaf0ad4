package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

const testKey = "sk-test-0123456789abcdef"

// waits records the backoff and Retry-After waits a client asked for,
// without waiting.
type waits struct {
	mu      sync.Mutex
	backoff []int           // attempts Backoff was asked about
	slept   []time.Duration // what Sleep was asked to wait
}

func (w *waits) config(cfg *llm.Config) {
	cfg.Backoff = func(attempt int) time.Duration {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.backoff = append(w.backoff, attempt)
		return time.Millisecond
	}
	cfg.Sleep = func(ctx context.Context, d time.Duration) error {
		w.mu.Lock()
		w.slept = append(w.slept, d)
		w.mu.Unlock()
		return ctx.Err()
	}
}

func newClient(t *testing.T, baseURL string, w *waits, edit func(*llm.Config)) llm.Client {
	t.Helper()
	cfg := llm.Config{BaseURL: baseURL, APIKey: testKey, Timeout: 5 * time.Second, MaxRetries: 2}
	if w != nil {
		w.config(&cfg)
	}
	if edit != nil {
		edit(&cfg)
	}
	c, err := llm.NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func request(prompt string) llm.Request {
	return llm.Request{
		Model: "gpt-4o-mini",
		Messages: []llm.Message{
			{Role: "system", Content: "You answer in one sentence."},
			{Role: "user", Content: prompt},
		},
	}
}

// noKey fails if the API key appears anywhere in err's chain.
func noKey(t *testing.T, err error) {
	t.Helper()
	for e := err; e != nil; e = errors.Unwrap(e) {
		if s := fmt.Sprintf("%v|%+v", e, e); strings.Contains(s, testKey) {
			t.Errorf("error contains the API key: %s", s)
		}
	}
	var le *llm.Error
	if errors.As(err, &le) && strings.Contains(fmt.Sprintf("%#v", *le), testKey) {
		t.Errorf("llm.Error fields contain the API key: %#v", *le)
	}
}

func TestCompleteSuccess(t *testing.T) {
	tests := []struct {
		name            string
		reply           llmtest.Reply
		wantIn, wantOut int // 0: estimated
	}{
		{"usage reported", llmtest.Reply{Text: "Kilimanjaro is Africa's highest mountain.", Usage: &llmtest.Usage{PromptTokens: 31, CompletionTokens: 9}}, 31, 9},
		{"usage missing", llmtest.Reply{Text: "Kilimanjaro is Africa's highest mountain.", NoUsage: true}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Rule{Name: "summary", Match: llmtest.LastUserContains("Kilimanjaro"),
				Reply: func(llmtest.Req) llmtest.Reply { return tt.reply }}).RequireKey(testKey)
			c := newClient(t, srv.URL(), &waits{}, nil)
			req := request("Summarize: Kilimanjaro is a dormant volcano in Tanzania.")
			res, err := c.Complete(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			wantIn, wantOut := tt.wantIn, tt.wantOut
			if wantIn == 0 {
				wantIn, wantOut = llm.EstimateMessages(req.Messages), llm.EstimateTokens(tt.reply.Text)
			}
			if res.Text != tt.reply.Text || res.Model != "gpt-4o-mini" || res.Attempts != 1 ||
				res.TokensIn != wantIn || res.TokensOut != wantOut || res.Latency <= 0 {
				t.Errorf("got %+v; want text %q, model gpt-4o-mini, 1 attempt, tokens %d/%d, latency > 0", res, tt.reply.Text, wantIn, wantOut)
			}

			// What was sent.
			reqs := srv.Requests()
			if len(reqs) != 1 {
				t.Fatalf("server saw %d requests, want 1", len(reqs))
			}
			got := reqs[0]
			if got.Model != req.Model || len(got.Messages) != 2 || got.Messages[1] != req.Messages[1] || got.Messages[0] != req.Messages[0] {
				t.Errorf("sent model %q messages %+v", got.Model, got.Messages)
			}
			if got.Temperature == nil || *got.Temperature != 0 {
				t.Errorf("temperature 0 must be sent explicitly; body %s", got.Body)
			}
			if got.Header.Get("Authorization") != "" || strings.Contains(string(got.Body), testKey) {
				t.Error("the recorded request exposes the key")
			}
		})
	}
}

func TestCompleteRetries(t *testing.T) {
	fail := func(status, times int, headers map[string]string) llmtest.Rule {
		return llmtest.Rule{Name: fmt.Sprintf("%d×%d", status, times), Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Status: status, Times: times, Headers: headers, Text: "scripted failure"}
		}}
	}
	ok := llmtest.Rule{Name: "ok", Reply: llmtest.Text("fine")}
	tests := []struct {
		name         string
		rules        []llmtest.Rule
		maxRetries   int
		wantAttempts int
		wantErr      []string // substrings of the error; nil: success
		wantStatus   int      // llm.Error.StatusCode
		wantTemp     bool     // llm.Error.Temporary
		wantSlept    []time.Duration
	}{
		{name: "429 twice then success", rules: []llmtest.Rule{fail(429, 2, nil), ok}, maxRetries: 2, wantAttempts: 3,
			wantSlept: []time.Duration{time.Millisecond, time.Millisecond}},
		{name: "500 then success", rules: []llmtest.Rule{fail(500, 1, nil), ok}, maxRetries: 2, wantAttempts: 2,
			wantSlept: []time.Duration{time.Millisecond}},
		{name: "502 503 504 then success", rules: []llmtest.Rule{fail(502, 1, nil), fail(503, 1, nil), fail(504, 1, nil), ok}, maxRetries: 3, wantAttempts: 4,
			wantSlept: []time.Duration{time.Millisecond, time.Millisecond, time.Millisecond}},
		{name: "Retry-After seconds honoured", rules: []llmtest.Rule{fail(429, 1, map[string]string{"Retry-After": "2"}), ok}, maxRetries: 1, wantAttempts: 2,
			wantSlept: []time.Duration{2 * time.Second}},
		{name: "retry-after-ms honoured", rules: []llmtest.Rule{fail(429, 1, map[string]string{"Retry-After-Ms": "1500"}), ok}, maxRetries: 1, wantAttempts: 2,
			wantSlept: []time.Duration{1500 * time.Millisecond}},
		{name: "Retry-After on 503 honoured", rules: []llmtest.Rule{fail(503, 1, map[string]string{"Retry-After": "0"}), ok}, maxRetries: 1, wantAttempts: 2,
			wantSlept: []time.Duration{0}},
		{name: "Retry-After beyond the limit stops", rules: []llmtest.Rule{fail(429, 1, map[string]string{"Retry-After": "3600"}), ok}, maxRetries: 3, wantAttempts: 1,
			wantErr: []string{"HTTP 429", "scripted failure", "retry after 1h0m0s"}, wantStatus: 429, wantTemp: true},
		{name: "503 until retries run out", rules: []llmtest.Rule{fail(503, 0, nil)}, maxRetries: 2, wantAttempts: 3,
			wantErr: []string{"HTTP 503 Service Unavailable: scripted failure", "gave up after 3 attempts"}, wantStatus: 503, wantTemp: true,
			wantSlept: []time.Duration{time.Millisecond, time.Millisecond}},
		{name: "429 with retries disabled", rules: []llmtest.Rule{fail(429, 0, nil)}, maxRetries: 0, wantAttempts: 1,
			wantErr: []string{"HTTP 429", "retries disabled"}, wantStatus: 429, wantTemp: true},
		{name: "400 not retried", rules: []llmtest.Rule{fail(400, 0, nil), ok}, maxRetries: 3, wantAttempts: 1,
			wantErr: []string{"HTTP 400 Bad Request: scripted failure", "not retried"}, wantStatus: 400},
		{name: "404 not retried", rules: []llmtest.Rule{fail(404, 0, nil), ok}, maxRetries: 3, wantAttempts: 1,
			wantErr: []string{"HTTP 404"}, wantStatus: 404},
		{name: "422 not retried", rules: []llmtest.Rule{fail(422, 0, nil), ok}, maxRetries: 3, wantAttempts: 1,
			wantErr: []string{"HTTP 422"}, wantStatus: 422},
		{name: "malformed 200 not retried", rules: []llmtest.Rule{{Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Raw: "<html>proxy login</html>"}
		}}}, maxRetries: 3, wantAttempts: 1, wantErr: []string{"not an OpenAI chat completion"}, wantStatus: 200},
		{name: "no choices not retried", rules: []llmtest.Rule{{Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Raw: `{"id":"x","object":"chat.completion","model":"m","choices":[]}`}
		}}}, maxRetries: 3, wantAttempts: 1, wantErr: []string{"no choices"}, wantStatus: 200},
		{name: "non-JSON 502 from a proxy retried", rules: []llmtest.Rule{{Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Status: 502, Times: 1, Raw: "<html><body>\n Bad   gateway \n</body></html>"}
		}}, ok}, maxRetries: 1, wantAttempts: 2, wantSlept: []time.Duration{time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.rules...)
			w := &waits{}
			c := newClient(t, srv.URL(), w, func(cfg *llm.Config) { cfg.MaxRetries = tt.maxRetries })
			res, err := c.Complete(context.Background(), request("hello"))
			if srv.Count() != tt.wantAttempts {
				t.Errorf("server saw %d requests, want %d", srv.Count(), tt.wantAttempts)
			}
			if fmt.Sprint(w.slept) != fmt.Sprint(tt.wantSlept) {
				t.Errorf("waited %v, want %v", w.slept, tt.wantSlept)
			}
			if tt.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if res.Attempts != tt.wantAttempts || res.Text != "fine" {
					t.Errorf("got %+v, want %d attempts and text %q", res, tt.wantAttempts, "fine")
				}
				return
			}
			if err == nil {
				t.Fatalf("no error; response %+v", res)
			}
			var le *llm.Error
			if !errors.As(err, &le) {
				t.Fatalf("error %T is not *llm.Error: %v", err, err)
			}
			for _, s := range append(tt.wantErr, srv.URL()+"/chat/completions", `"gpt-4o-mini"`) {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			if tt.maxRetries > 0 && strings.Contains(err.Error(), "retries disabled") {
				t.Errorf("error %q says retries are disabled; MaxRetries is %d", err, tt.maxRetries)
			}
			if le.StatusCode != tt.wantStatus || le.Attempts != tt.wantAttempts || le.Temporary != tt.wantTemp {
				t.Errorf("error fields status %d attempts %d temporary %v; want %d %d %v", le.StatusCode, le.Attempts, le.Temporary, tt.wantStatus, tt.wantAttempts, tt.wantTemp)
			}
			noKey(t, err)
		})
	}
}

func TestCompleteTimeout(t *testing.T) {
	srv := llmtest.New(t, llmtest.Rule{Name: "slow", Reply: func(llmtest.Req) llmtest.Reply {
		return llmtest.Reply{Text: "too late", Delay: 10 * time.Second}
	}})
	w := &waits{}
	c := newClient(t, srv.URL(), w, func(cfg *llm.Config) { cfg.Timeout = 50 * time.Millisecond; cfg.MaxRetries = 2 })
	start := time.Now()
	_, err := c.Complete(context.Background(), request("hello"))
	if err == nil {
		t.Fatal("no error")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s; each attempt should stop after 50ms", d)
	}
	var le *llm.Error
	if !errors.As(err, &le) || !le.TimedOut || !le.Temporary || le.Attempts != 3 || le.StatusCode != 0 {
		t.Fatalf("got %#v, want a timed-out *llm.Error after 3 attempts", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Error("a timeout should satisfy errors.Is(err, context.DeadlineExceeded)")
	}
	for _, s := range []string{"no response within 50ms", "gave up after 3 attempts"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
	if srv.Count() != 3 || len(w.slept) != 2 {
		t.Errorf("server saw %d requests and the client waited %d times; want 3 and 2", srv.Count(), len(w.slept))
	}
}

func TestCompleteTimeoutThenSuccess(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Rule{Name: "slow once", Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Text: "too late", Delay: 10 * time.Second, Times: 1}
		}},
		llmtest.Rule{Name: "fast", Reply: llmtest.Text("in time")})
	c := newClient(t, srv.URL(), &waits{}, func(cfg *llm.Config) { cfg.Timeout = 50 * time.Millisecond })
	res, err := c.Complete(context.Background(), request("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "in time" || res.Attempts != 2 {
		t.Errorf("got %+v, want the second attempt's answer", res)
	}
}

func TestCompleteUnauthorized(t *testing.T) {
	tests := []struct {
		name    string
		srv     func(t *testing.T) *llmtest.Server
		wantMsg string
	}{
		{"wrong key", func(t *testing.T) *llmtest.Server {
			return llmtest.New(t, llmtest.Rule{Reply: llmtest.Text("never")}).RequireKey("sk-the-right-one")
		}, "Incorrect API key provided"},
		{"endpoint echoes the key", func(t *testing.T) *llmtest.Server {
			return llmtest.New(t, llmtest.Rule{Reply: func(r llmtest.Req) llmtest.Reply {
				// A careless endpoint (or proxy) quoting the key it was sent.
				return llmtest.Reply{Status: 401, Text: "Incorrect API key provided: " + testKey + ". Check it."}
			}})
		}, "Incorrect API key provided: [REDACTED]. Check it."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := tt.srv(t)
			w := &waits{}
			c := newClient(t, srv.URL(), w, func(cfg *llm.Config) { cfg.MaxRetries = 5 })
			_, err := c.Complete(context.Background(), request("hello"))
			if err == nil {
				t.Fatal("no error")
			}
			if srv.Count() != 1 || len(w.slept) != 0 {
				t.Errorf("401 was retried: %d requests, %d waits", srv.Count(), len(w.slept))
			}
			for _, s := range []string{"HTTP 401 Unauthorized", tt.wantMsg, "not retried", srv.URL() + "/chat/completions"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not contain %q", err, s)
				}
			}
			var le *llm.Error
			if !errors.As(err, &le) || le.StatusCode != 401 || le.Temporary || le.Attempts != 1 {
				t.Errorf("got %#v", err)
			}
			noKey(t, err)
		})
	}
}

func TestCompleteConnectionError(t *testing.T) {
	// A port on loopback that nothing listens on.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	w := &waits{}
	c := newClient(t, "http://"+addr+"/v1", w, func(cfg *llm.Config) { cfg.MaxRetries = 2 })
	_, err = c.Complete(context.Background(), request("hello"))
	var le *llm.Error
	if !errors.As(err, &le) || !le.Temporary || le.Attempts != 3 || le.StatusCode != 0 {
		t.Fatalf("got %v, want a temporary *llm.Error after 3 attempts", err)
	}
	if !strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), `Post "`) {
		t.Errorf("error %q should say connection refused, once, without the transport's Post prefix", err)
	}
	if len(w.slept) != 2 {
		t.Errorf("waited %d times, want 2", len(w.slept))
	}
	noKey(t, err)
}

func TestCompleteContext(t *testing.T) {
	t.Run("canceled before the call", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Rule{Reply: llmtest.Text("x")})
		c := newClient(t, srv.URL(), &waits{}, nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := c.Complete(ctx, request("hello"))
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("got %v, want context.Canceled", err)
		}
		var le *llm.Error
		if errors.As(err, &le) && le.Temporary {
			t.Error("a canceled call is not temporary")
		}
	})
	t.Run("canceled while waiting to retry", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Rule{Reply: func(llmtest.Req) llmtest.Reply { return llmtest.Reply{Status: 503} }})
		ctx, cancel := context.WithCancel(context.Background())
		c := newClient(t, srv.URL(), nil, func(cfg *llm.Config) {
			cfg.MaxRetries = 5
			cfg.Sleep = func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }
		})
		_, err := c.Complete(ctx, request("hello"))
		if !errors.Is(err, context.Canceled) || srv.Count() != 1 {
			t.Fatalf("got %v after %d requests, want context.Canceled after 1", err, srv.Count())
		}
		if !strings.Contains(err.Error(), "HTTP 503") {
			t.Errorf("error %q should keep the failure that caused the retry", err)
		}
	})
	t.Run("deadline shorter than Retry-After", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Rule{Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Status: 429, Headers: map[string]string{"Retry-After": "30"}}
		}})
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		w := &waits{}
		c := newClient(t, srv.URL(), w, nil)
		start := time.Now()
		_, err := c.Complete(ctx, request("hello"))
		if !errors.Is(err, context.DeadlineExceeded) || len(w.slept) != 0 || time.Since(start) > time.Second {
			t.Fatalf("got %v after %d waits; want to give up at once", err, len(w.slept))
		}
	})
}

func TestCompleteRequestMapping(t *testing.T) {
	tests := []struct {
		name     string
		req      llm.Request
		wantBody map[string]any // keys that must be present with these values
		absent   []string
	}{
		{"zero temperature sent as 0", llm.Request{Model: "gpt-4o-mini", Temperature: 0, MaxTokens: 50},
			map[string]any{"temperature": 0.0, "max_tokens": 50.0}, []string{"max_completion_tokens"}},
		{"temperature sent", llm.Request{Model: "llama3.1:8b", Temperature: 0.5},
			map[string]any{"temperature": 0.5}, []string{"max_tokens"}},
		{"reasoning model: no temperature, max_completion_tokens", llm.Request{Model: "o3-mini", Temperature: 0, MaxTokens: 200},
			map[string]any{"max_completion_tokens": 200.0}, []string{"temperature", "max_tokens"}},
		{"gpt-5: no temperature", llm.Request{Model: "gpt-5-mini", Temperature: 0.2, MaxTokens: 10},
			map[string]any{"max_completion_tokens": 10.0}, []string{"temperature", "max_tokens"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Rule{Reply: llmtest.Text("ok")})
			c := newClient(t, srv.URL(), &waits{}, nil)
			tt.req.Messages = []llm.Message{{Role: "user", Content: "hi"}}
			if _, err := c.Complete(context.Background(), tt.req); err != nil {
				t.Fatal(err)
			}
			var body map[string]any
			if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.wantBody {
				if got, ok := body[k]; !ok || fmt.Sprint(got) != fmt.Sprint(v) {
					t.Errorf("body[%q] = %v (present %v), want %v; body %s", k, got, ok, v, srv.Requests()[0].Body)
				}
			}
			for _, k := range tt.absent {
				if _, ok := body[k]; ok {
					t.Errorf("body has %q; body %s", k, srv.Requests()[0].Body)
				}
			}
		})
	}
}

func TestCompleteInvalidRequest(t *testing.T) {
	srv := llmtest.New(t)
	c := newClient(t, srv.URL(), nil, nil)
	for _, r := range []llm.Request{
		{Messages: []llm.Message{{Role: "user", Content: "x"}}},
		{Model: "gpt-4o"},
	} {
		if _, err := c.Complete(context.Background(), r); err == nil {
			t.Errorf("Complete(%+v) = nil error", r)
		}
	}
	if srv.Count() != 0 {
		t.Errorf("invalid requests reached the server")
	}
}

func TestNewOpenAIConfig(t *testing.T) {
	tests := []struct {
		name    string
		cfg     llm.Config
		wantErr string // "" for success
	}{
		{"local endpoint without key", llm.Config{BaseURL: "http://127.0.0.1:11434/v1"}, ""},
		{"trailing slash", llm.Config{BaseURL: "http://localhost:8000/v1/", APIKey: testKey}, ""},
		{"default base URL needs a key", llm.Config{}, "needs an API key"},
		{"not http", llm.Config{BaseURL: "ftp://example.com/v1", APIKey: testKey}, "not an http(s) URL"},
		{"no host", llm.Config{BaseURL: "localhost:8080", APIKey: testKey}, "not an http(s) URL"},
		{"query", llm.Config{BaseURL: "http://h/v1?api-key=" + testKey, APIKey: testKey}, "must not have a query"},
		{"negative retries", llm.Config{BaseURL: "http://h/v1", MaxRetries: -1}, "MaxRetries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := llm.NewOpenAI(tt.cfg)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatal(err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("got %v, want an error containing %q", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), testKey) {
				t.Errorf("error contains the key: %v", err)
			}
		})
	}
}

func TestWrongBasePathHint(t *testing.T) {
	srv := llmtest.New(t)
	base := strings.TrimSuffix(srv.URL(), "/v1") + "/api"
	c := newClient(t, base, nil, nil)
	_, err := c.Complete(context.Background(), request("hello"))
	if err == nil || !strings.Contains(err.Error(), "HTTP 404") || !strings.Contains(err.Error(), "usually end in /v1") {
		t.Fatalf("got %v, want a 404 with a hint about /v1", err)
	}
	if srv.Count() != 1 {
		t.Errorf("404 retried: %d requests", srv.Count())
	}
}

func TestCustomHTTPClient(t *testing.T) {
	srv := llmtest.New(t, llmtest.Rule{Reply: llmtest.Text("via custom client")})
	var used bool
	var mu sync.Mutex
	hc := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		used = true
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})}
	c := newClient(t, srv.URL(), nil, func(cfg *llm.Config) { cfg.HTTPClient = hc })
	res, err := c.Complete(context.Background(), request("hello"))
	if err != nil || res.Text != "via custom client" || !used {
		t.Fatalf("got %+v, %v; custom client used: %v", res, err, used)
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestConcurrentCompletes runs many calls on one client and one server at
// once, some of them retried; run with -race.
func TestConcurrentCompletes(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Rule{Name: "flaky", Match: llmtest.Contains("flaky"), Reply: func(llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Status: 429, Times: 10}
		}},
		llmtest.Rule{Name: "echo", Reply: func(r llmtest.Req) llmtest.Reply {
			return llmtest.Reply{Text: "answer to " + r.LastUser()}
		}},
	)
	c := newClient(t, srv.URL(), &waits{}, func(cfg *llm.Config) { cfg.MaxRetries = 20 })
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan error, n)
	stop := make(chan struct{})
	go func() { // read the record while it is written
		for {
			select {
			case <-stop:
				return
			default:
				_ = srv.Requests()
				_ = srv.Count()
			}
		}
	}()
	for i := range n {
		wg.Go(func() {
			prompt := fmt.Sprintf("question %d", i)
			if i%4 == 0 {
				prompt += " flaky"
			}
			res, err := c.Complete(context.Background(), request(prompt))
			if err != nil {
				errs <- err
				return
			}
			if res.Text != "answer to "+prompt {
				errs <- fmt.Errorf("call %d got %q", i, res.Text)
			}
		})
	}
	wg.Wait()
	close(stop)
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got, want := srv.Count(), n+10; got != want {
		t.Errorf("server saw %d requests, want %d (one per call plus 10 scripted 429s)", got, want)
	}
	seen := map[int]bool{}
	for _, r := range srv.Requests() {
		if seen[r.Seq] {
			t.Errorf("sequence number %d repeated", r.Seq)
		}
		seen[r.Seq] = true
	}
}

func TestDefaultBackoff(t *testing.T) {
	for attempt, want := range map[int][2]time.Duration{
		1:  {250 * time.Millisecond, 500 * time.Millisecond},
		2:  {500 * time.Millisecond, time.Second},
		3:  {time.Second, 2 * time.Second},
		8:  {10 * time.Second, 20 * time.Second}, // capped
		50: {10 * time.Second, 20 * time.Second},
	} {
		seen := map[time.Duration]bool{}
		for range 50 {
			d := llm.DefaultBackoff(attempt)
			if d < want[0] || d > want[1] {
				t.Fatalf("DefaultBackoff(%d) = %s, want within [%s, %s]", attempt, d, want[0], want[1])
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("DefaultBackoff(%d) has no jitter", attempt)
		}
	}
}
