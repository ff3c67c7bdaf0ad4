// Package llmtest is an OpenAI-compatible chat completions server for tests,
// scripted by rules on the request.
//
//	srv := llmtest.New(t,
//		llmtest.Rule{Name: "summary", Match: llmtest.LastUserContains("Kilimanjaro"), Reply: llmtest.Text("A mountain.")},
//	)
//	client, _ := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "sk-test"})
//
// The first rule whose Match accepts a request answers it; a request no rule
// matches gets a 500 and fails the test, naming the request, so a missing
// script is obvious. The server checks requests the way the real API does
// (method, JSON, model, messages and roles, and the bearer key when one was
// required with RequireKey) and records each one, so tests can assert what
// was sent. It is safe for concurrent use.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cogflow/cogflow/runtime/llm"
)

// Req is one request as the server received it.
type Req struct {
	Seq    int    // 1 for the first request the server received
	Method string // always POST for an accepted request
	Path   string // "/v1/chat/completions" or "/chat/completions"
	Model  string
	// Messages are the chat messages; a content given as an array of parts
	// is joined into one string.
	Messages []llm.Message
	// Temperature is nil when the request did not set one.
	Temperature *float32
	// MaxTokens is max_tokens, or max_completion_tokens when that is set.
	MaxTokens int
	Body      []byte      // the raw body
	Header    http.Header // the request headers without Authorization
	// Status is what the server answered; Rejected says why it refused the
	// request ("" for a valid one, including one a rule answered with an
	// error status).
	Status   int
	Rejected string
}

// LastUser is the content of the last user message ("" if there is none).
func (r Req) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Prompt is every message's content, one per line: what Contains searches.
func (r Req) Prompt() string {
	var b strings.Builder
	for _, m := range r.Messages {
		b.WriteString(m.Content)
		b.WriteByte('\n')
	}
	return b.String()
}

// Reply is how a rule answers.
type Reply struct {
	// Text is the assistant's answer; for an error Status it is the error
	// message (empty: the status text).
	Text string
	// Status is the HTTP status; 0 means 200. Any other status answers with
	// OpenAI's error JSON, e.g. 429 or 500 to exercise retries.
	Status int
	// Headers are added to the response, e.g. {"Retry-After": "2"}.
	Headers map[string]string
	// Delay holds the answer back (a client that gives up first makes the
	// server drop it), e.g. to exercise timeouts.
	Delay time.Duration
	// Times, when positive, applies this reply only that many times; after
	// that the rule falls through to later rules.
	Times int
	// Usage overrides the token counts reported; nil reports counts
	// estimated with llm.EstimateMessages and llm.EstimateTokens.
	Usage *Usage
	// NoUsage leaves usage out of the response, as some local servers do.
	NoUsage bool
	// FinishReason defaults to "stop".
	FinishReason string
	// Raw, when set, is sent as the response body verbatim (with Status),
	// e.g. to test a malformed response.
	Raw string
}

// Usage is the token usage a reply reports.
type Usage struct {
	PromptTokens, CompletionTokens int
}

// Rule scripts the answer to the requests it matches.
type Rule struct {
	Name  string         // names the rule in failures
	Match func(Req) bool // nil matches every request
	Reply func(Req) Reply
}

// Text replies with s.
func Text(s string) func(Req) Reply {
	return func(Req) Reply { return Reply{Text: s} }
}

// ModelIs matches requests for model.
func ModelIs(model string) func(Req) bool {
	return func(r Req) bool { return r.Model == model }
}

// Contains matches requests with substr in any message.
func Contains(substr string) func(Req) bool {
	return func(r Req) bool {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, substr) {
				return true
			}
		}
		return false
	}
}

// LastUserContains matches requests whose last user message contains substr.
func LastUserContains(substr string) func(Req) bool {
	return func(r Req) bool { return strings.Contains(r.LastUser(), substr) }
}

// Server is a running test server; it stops when the test ends.
type Server struct {
	t  testing.TB
	ts *httptest.Server

	mu    sync.Mutex
	rules []Rule
	used  []int // times each rule answered
	key   string
	seq   int
	reqs  []Req
}

// New starts a server on 127.0.0.1 answering with rules, closed by t.Cleanup.
func New(t testing.TB, rules ...Rule) *Server {
	t.Helper()
	s := &Server{t: t}
	s.Add(rules...)
	s.ts = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.ts.Close)
	return s
}

// URL is the base URL to configure a client with; it ends in /v1.
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Add appends rules after the existing ones.
func (s *Server) Add(rules ...Rule) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, rules...)
	s.used = append(s.used, make([]int, len(rules))...)
}

// RequireKey makes the server answer 401, as OpenAI does, to a request
// without "Authorization: Bearer key". It returns s.
func (s *Server) RequireKey(key string) *Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
	return s
}

// Requests returns every request received so far, rejected ones included
// (see Req.Rejected), in the order they were checked.
func (s *Server) Requests() []Req {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Req, len(s.reqs))
	copy(out, s.reqs)
	return out
}

// Count is the number of requests received so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// wire types: OpenAI's chat completion JSON.
type (
	wireRequest struct {
		Model               string        `json:"model"`
		Messages            []wireMessage `json:"messages"`
		Temperature         *float32      `json:"temperature"`
		MaxTokens           int           `json:"max_tokens"`
		MaxCompletionTokens int           `json:"max_completion_tokens"`
		Stream              bool          `json:"stream"`
	}
	wireMessage struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	wirePart struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	wireResponse struct {
		ID      string       `json:"id"`
		Object  string       `json:"object"`
		Created int64        `json:"created"`
		Model   string       `json:"model"`
		Choices []wireChoice `json:"choices"`
		Usage   *wireUsage   `json:"usage,omitempty"`
	}
	wireChoice struct {
		Index        int        `json:"index"`
		Message      wireAnswer `json:"message"`
		FinishReason string     `json:"finish_reason"`
		Logprobs     any        `json:"logprobs"`
	}
	wireAnswer struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	wireUsage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	}
	wireError struct {
		Error wireErrorBody `json:"error"`
	}
	wireErrorBody struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	}
)

var knownRoles = map[string]bool{"system": true, "developer": true, "user": true, "assistant": true, "tool": true}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	req := Req{Method: hr.Method, Path: hr.URL.Path, Header: hr.Header.Clone()}
	req.Header.Del("Authorization")
	body, readErr := io.ReadAll(hr.Body)
	req.Body = body

	s.mu.Lock()
	s.seq++
	req.Seq = s.seq
	key := s.key
	s.mu.Unlock()

	status, reason := s.check(hr, key, body, readErr, &req)
	if reason != "" {
		req.Status, req.Rejected = status, reason
		s.record(req)
		writeError(w, status, reason)
		return
	}

	rule, reply, ok := s.pick(req)
	if !ok {
		msg := fmt.Sprintf("llmtest: no rule matches request #%d (model %q, last user message %q)", req.Seq, req.Model, clip(req.LastUser(), 200))
		s.t.Errorf("%s", msg)
		req.Status = http.StatusInternalServerError
		s.record(req)
		writeError(w, http.StatusInternalServerError, msg)
		return
	}
	req.Status = reply.Status
	if req.Status == 0 {
		req.Status = http.StatusOK
	}
	s.record(req)

	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-hr.Context().Done():
			return // the client gave up
		}
	}
	for k, v := range reply.Headers {
		w.Header().Set(k, v)
	}
	if reply.Raw != "" {
		w.WriteHeader(req.Status)
		_, _ = w.Write([]byte(reply.Raw))
		return
	}
	if req.Status != http.StatusOK {
		msg := reply.Text
		if msg == "" {
			msg = fmt.Sprintf("%s (scripted by rule %q)", http.StatusText(req.Status), rule.Name)
		}
		writeError(w, req.Status, msg)
		return
	}
	writeJSON(w, http.StatusOK, s.completion(req, reply))
}

// check validates a request as the OpenAI API would, filling in req.
func (s *Server) check(hr *http.Request, key string, body []byte, readErr error, req *Req) (int, string) {
	if hr.URL.Path != "/v1/chat/completions" && hr.URL.Path != "/chat/completions" {
		return http.StatusNotFound, fmt.Sprintf("llmtest: no endpoint %s %s (serving POST /v1/chat/completions)", hr.Method, hr.URL.Path)
	}
	if hr.Method != http.MethodPost {
		return http.StatusMethodNotAllowed, fmt.Sprintf("llmtest: method %s not allowed; use POST", hr.Method)
	}
	if key != "" && hr.Header.Get("Authorization") != "Bearer "+key {
		if hr.Header.Get("Authorization") == "" {
			return http.StatusUnauthorized, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
		}
		return http.StatusUnauthorized, "Incorrect API key provided."
	}
	if readErr != nil {
		return http.StatusBadRequest, "llmtest: reading the body: " + readErr.Error()
	}
	var wr wireRequest
	if err := json.Unmarshal(body, &wr); err != nil {
		return http.StatusBadRequest, "We could not parse the JSON body of your request: " + err.Error()
	}
	req.Model = wr.Model
	req.Temperature = wr.Temperature
	req.MaxTokens = wr.MaxTokens
	if wr.MaxCompletionTokens != 0 {
		req.MaxTokens = wr.MaxCompletionTokens
	}
	for i, m := range wr.Messages {
		content, err := messageText(m.Content)
		if err != nil {
			return http.StatusBadRequest, fmt.Sprintf("messages[%d].content: %v", i, err)
		}
		req.Messages = append(req.Messages, llm.Message{Role: m.Role, Content: content})
	}
	if wr.Model == "" {
		return http.StatusBadRequest, "you must provide a model parameter"
	}
	if len(wr.Messages) == 0 {
		return http.StatusBadRequest, "messages: [] is too short - 'messages' must be non-empty"
	}
	for i, m := range wr.Messages {
		if !knownRoles[m.Role] {
			return http.StatusBadRequest, fmt.Sprintf("messages[%d].role: %q is not one of system, developer, user, assistant, tool", i, m.Role)
		}
	}
	if wr.Stream {
		return http.StatusBadRequest, "llmtest: streaming is not supported"
	}
	return 0, ""
}

// pick finds the first rule that matches and has not used up its Times.
// Match and Reply run without the lock, so they may call the Server.
func (s *Server) pick(req Req) (Rule, Reply, bool) {
	s.mu.Lock()
	rules := slices.Clone(s.rules)
	s.mu.Unlock()
	for i, r := range rules {
		if r.Match != nil && !r.Match(req) {
			continue
		}
		var reply Reply
		if r.Reply != nil {
			reply = r.Reply(req)
		}
		s.mu.Lock()
		ok := reply.Times <= 0 || s.used[i] < reply.Times
		if ok {
			s.used[i]++
		}
		s.mu.Unlock()
		if ok {
			return r, reply, true
		}
	}
	return Rule{}, Reply{}, false
}

func (s *Server) record(req Req) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, req)
}

func (s *Server) completion(req Req, reply Reply) wireResponse {
	finish := reply.FinishReason
	if finish == "" {
		finish = "stop"
	}
	res := wireResponse{
		ID:      fmt.Sprintf("chatcmpl-llmtest-%d", req.Seq),
		Object:  "chat.completion",
		Created: time.Now().Unix(),
		Model:   req.Model,
		Choices: []wireChoice{{Message: wireAnswer{Role: "assistant", Content: reply.Text}, FinishReason: finish}},
	}
	if !reply.NoUsage {
		u := wireUsage{PromptTokens: llm.EstimateMessages(req.Messages), CompletionTokens: llm.EstimateTokens(reply.Text)}
		if reply.Usage != nil {
			u = wireUsage{PromptTokens: reply.Usage.PromptTokens, CompletionTokens: reply.Usage.CompletionTokens}
		}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens
		res.Usage = &u
	}
	return res
}

// messageText reads a content that is a string, null, or an array of parts.
func messageText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []wirePart
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("must be a string or an array of content parts")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

func writeError(w http.ResponseWriter, status int, msg string) {
	body := wireError{Error: wireErrorBody{Message: msg, Type: errorType(status)}}
	if status == http.StatusUnauthorized {
		code := "invalid_api_key"
		body.Error.Code = &code
	}
	writeJSON(w, status, body)
}

func errorType(status int) string {
	switch {
	case status == http.StatusTooManyRequests:
		return "rate_limit_exceeded"
	case status >= 500:
		return "server_error"
	default:
		return "invalid_request_error"
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
