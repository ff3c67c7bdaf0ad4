package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// Defaults for Config.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultTimeout bounds one request when Config.Timeout is zero.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxRetries is a sensible Config.MaxRetries for callers that
	// have no setting of their own (Config's zero value does not retry).
	DefaultMaxRetries = 2
	// MaxRetryAfter is the longest Retry-After the client will wait out;
	// an endpoint asking for longer ends the call with its error at once.
	MaxRetryAfter = time.Minute
	// DefaultMaxResponseBytes bounds a response body: an answer to one
	// question about a screen takes a few kilobytes, and a model (or an
	// endpoint) that sends megabytes must not fill the memory.
	DefaultMaxResponseBytes = 1 << 20
)

// Config configures the OpenAI-compatible client.
type Config struct {
	// BaseURL is the API root, e.g. "https://api.openai.com/v1" or
	// "http://127.0.0.1:11434/v1" (Ollama); "/chat/completions" is appended.
	// Empty means DefaultBaseURL.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>"; it may be empty for
	// local servers. It never appears in an error.
	APIKey string
	// Timeout bounds each request (each attempt); zero means
	// DefaultTimeout, negative means no timeout beyond the caller's context.
	Timeout time.Duration
	// MaxRetries is how many times a failed request is retried after the
	// first attempt; zero means none. Only 429, 5xx, timeouts and
	// connection errors are retried.
	MaxRetries int
	// HTTPClient sends the requests; nil means a new http.Client with the
	// default transport. Its own Timeout, if any, applies as well.
	HTTPClient *http.Client
	// Backoff is the wait before retry number attempt (1 for the first
	// retry); nil means DefaultBackoff. A Retry-After (or retry-after-ms)
	// header on the failed response overrides it.
	Backoff func(attempt int) time.Duration
	// Sleep waits d or until ctx is done (returning ctx.Err()); nil means
	// a timer. Tests inject one to run retries instantly and see the waits.
	Sleep func(ctx context.Context, d time.Duration) error
	// MaxResponseBytes bounds the body of one response; zero means
	// DefaultMaxResponseBytes. A longer body is not read further: the
	// request fails with ErrResponseTooLarge.
	MaxResponseBytes int64
}

// Error is a failed completion. Its message names the endpoint, the model,
// the HTTP status when there was one and the endpoint's own message, and
// says whether and how often the request was retried. It never contains the
// API key.
type Error struct {
	Endpoint   string // the URL posted to
	Model      string
	StatusCode int    // the last HTTP status; 0 when no response came (timeout, connection error)
	Message    string // the endpoint's message, or what went wrong on the way
	Attempts   int    // requests made, retries included
	// Temporary reports whether the last failure was of a retried kind
	// (429, 5xx, timeout, connection error), i.e. the retries ran out.
	Temporary bool
	// TimedOut reports whether the last attempt hit Config.Timeout.
	TimedOut bool
	cause    error
	noRetry  bool // Temporary, but Config.MaxRetries is 0
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "llm: POST %s (model %q): ", e.Endpoint, e.Model)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, "HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
		if e.Message != "" {
			b.WriteString(": ")
		}
	}
	b.WriteString(e.Message)
	switch {
	case e.Attempts > 1:
		fmt.Fprintf(&b, " (gave up after %d attempts)", e.Attempts)
	case !e.Temporary && e.StatusCode != 0:
		b.WriteString(" (not retried)")
	case e.noRetry:
		b.WriteString(" (retries disabled)")
	}
	return b.String()
}

// Unwrap gives the cause for errors.Is: context.Canceled or
// context.DeadlineExceeded when the caller's context ended or a request
// timed out, the transport's error for a connection failure; nil for an
// HTTP error status.
func (e *Error) Unwrap() error { return e.cause }

// NewOpenAI returns a Client for any OpenAI-compatible chat completions
// endpoint (OpenAI, Ollama, vLLM, llama.cpp server, …), built on go-openai.
//
// Each Complete call retries 429, 5xx, timeouts and connection errors up to
// cfg.MaxRetries times, waiting cfg.Backoff (or what a Retry-After header
// asks) in between; any other 4xx fails at once with the endpoint's message.
// The Response carries the tokens the endpoint reported (estimated with
// EstimateMessages / EstimateTokens when it reports none), the latency of
// the whole call, retries and waits included, and the number of attempts.
//
// A zero Request.Temperature is sent as an explicit 0 (go-openai alone
// would omit it and leave the endpoint's default, often 0.7–1). Reasoning
// models (o1, o3, o4, gpt-5, gpt-6 …) take no temperature and get
// MaxTokens as max_completion_tokens.
func NewOpenAI(cfg Config) (Client, error) {
	base := strings.TrimSpace(cfg.BaseURL)
	if base == "" {
		base = DefaultBaseURL
	}
	base = strings.TrimRight(base, "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("llm: base URL %q is not an http(s) URL such as %q", redactKey(base, cfg.APIKey), "http://127.0.0.1:11434/v1")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("llm: base URL %q must not have a query or fragment", redactKey(u.Redacted(), cfg.APIKey))
	}
	if cfg.APIKey == "" && strings.EqualFold(u.Hostname(), "api.openai.com") {
		return nil, errors.New("llm: api.openai.com needs an API key (set OPENAI_API_KEY or llm.api_key)")
	}
	if cfg.MaxRetries < 0 {
		return nil, fmt.Errorf("llm: MaxRetries is %d; it must be 0 or more", cfg.MaxRetries)
	}
	limit := cfg.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{}
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = base
	oc.HTTPClient = doer{hc: hc, limit: limit}

	c := &openAIClient{
		api:        openai.NewClientWithConfig(oc),
		endpoint:   redactKey(u.Redacted(), cfg.APIKey) + "/chat/completions",
		basePath:   u.Path,
		key:        cfg.APIKey,
		timeout:    cfg.Timeout,
		maxRetries: cfg.MaxRetries,
		backoff:    cfg.Backoff,
		sleep:      cfg.Sleep,
		limit:      limit,
	}
	if c.timeout == 0 {
		c.timeout = DefaultTimeout
	}
	if c.backoff == nil {
		c.backoff = DefaultBackoff
	}
	if c.sleep == nil {
		c.sleep = sleep
	}
	return c, nil
}

// DefaultBackoff is exponential backoff with jitter: about 0.5s before the
// first retry, doubling each time, capped at 20s; the wait is drawn
// uniformly from the upper half of that so concurrent callers spread out.
func DefaultBackoff(attempt int) time.Duration {
	const (
		first = 500 * time.Millisecond
		limit = 20 * time.Second
	)
	if attempt < 1 {
		attempt = 1
	}
	d := limit
	if attempt <= 10 {
		d = min(first<<(attempt-1), limit)
	}
	return d/2 + rand.N(d/2+1)
}

type openAIClient struct {
	api        *openai.Client
	endpoint   string // for messages: base URL (password redacted) + /chat/completions
	basePath   string
	key        string
	timeout    time.Duration
	maxRetries int
	backoff    func(int) time.Duration
	sleep      func(context.Context, time.Duration) error
	limit      int64 // MaxResponseBytes
}

// Complete implements Client.
func (c *openAIClient) Complete(ctx context.Context, r Request) (*Response, error) {
	if r.Model == "" {
		return nil, c.fail(r.Model, 0, "the request names no model", 0, nil)
	}
	if len(r.Messages) == 0 {
		return nil, c.fail(r.Model, 0, "the request has no messages", 0, nil)
	}
	req, zeroTemp := chatRequest(r)
	start := time.Now()
	for attempt := 1; ; attempt++ {
		info := &attemptInfo{zeroTemperature: zeroTemp}
		res, err := c.once(ctx, req, info)
		if err == nil {
			if len(res.Choices) == 0 {
				e := c.fail(r.Model, info.status, "the response has no choices", attempt, nil)
				return nil, e
			}
			text := res.Choices[0].Message.Content
			out := &Response{
				Text:      text,
				Model:     res.Model,
				TokensIn:  res.Usage.PromptTokens,
				TokensOut: res.Usage.CompletionTokens,
				Latency:   time.Since(start),
				Attempts:  attempt,
			}
			if out.Model == "" {
				out.Model = r.Model
			}
			if out.TokensIn == 0 {
				out.TokensIn = EstimateMessages(r.Messages)
			}
			if out.TokensOut == 0 && text != "" {
				out.TokensOut = EstimateTokens(text)
			}
			return out, nil
		}
		e := c.classify(ctx, r.Model, err, info, attempt)
		if !e.Temporary || attempt > c.maxRetries {
			e.noRetry = e.Temporary && c.maxRetries == 0
			return nil, e
		}
		wait := c.backoff(attempt)
		if ra, ok := retryAfter(info.header, time.Now()); ok {
			if ra > MaxRetryAfter {
				e.Message += fmt.Sprintf(" (the endpoint asks to retry after %s, longer than %s)", ra.Round(time.Second), MaxRetryAfter)
				return nil, e
			}
			wait = ra
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			e.Message += fmt.Sprintf(" (no time left to retry after %s before the deadline)", wait.Round(time.Millisecond))
			e.cause = context.DeadlineExceeded
			return nil, e
		}
		if err := c.sleep(ctx, wait); err != nil {
			e.Message += " (stopped while waiting to retry: " + err.Error() + ")"
			e.cause = err
			return nil, e
		}
	}
}

// once makes one request, bounded by the per-request timeout.
func (c *openAIClient) once(ctx context.Context, req openai.ChatCompletionRequest, info *attemptInfo) (openai.ChatCompletionResponse, error) {
	actx := ctx
	if c.timeout > 0 {
		var cancel context.CancelFunc
		actx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	res, err := c.api.CreateChatCompletion(context.WithValue(actx, attemptKey{}, info), req)
	if err != nil && actx.Err() == context.DeadlineExceeded && ctx.Err() == nil {
		info.timedOut = true
	}
	return res, err
}

// classify turns a failed attempt into an Error, deciding whether it is
// worth retrying.
func (c *openAIClient) classify(ctx context.Context, model string, err error, info *attemptInfo, attempt int) *Error {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var syntaxErr *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case ctx.Err() != nil: // the caller gave up: never retried
		return c.fail(model, 0, ctx.Err().Error(), attempt, ctx.Err())
	case info.timedOut || errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e := c.fail(model, 0, fmt.Sprintf("no response within %s", c.timeout), attempt, context.DeadlineExceeded)
		if !info.timedOut {
			e.Message = "timed out: " + transportMessage(err)
		}
		e.Temporary, e.TimedOut = true, true
		return e
	case errors.Is(err, ErrResponseTooLarge):
		// Not retried: a model that rambled on once will likely again,
		// and each attempt costs.
		return c.fail(model, info.status, fmt.Sprintf("the response is larger than %d bytes, so it was not read", c.limit), attempt, ErrResponseTooLarge)
	case errors.As(err, &apiErr):
		msg := apiErr.Message
		if code, ok := apiErr.Code.(string); ok && code != "" && !strings.Contains(msg, code) {
			msg += " [" + code + "]"
		}
		return c.statusError(model, apiErr.HTTPStatusCode, msg, attempt)
	case errors.As(err, &reqErr):
		msg := bodyMessage(reqErr.Body)
		return c.statusError(model, reqErr.HTTPStatusCode, msg, attempt)
	case errors.As(err, &syntaxErr), errors.As(err, &typeErr):
		return c.fail(model, info.status, "the response is not an OpenAI chat completion: "+err.Error(), attempt, nil)
	case !info.sent: // go-openai refused the request before sending it
		return c.fail(model, 0, "go-openai: "+err.Error(), attempt, err)
	default: // connection refused, reset, EOF mid-body …
		e := c.fail(model, 0, transportMessage(err), attempt, err)
		e.Temporary = true
		return e
	}
}

func (c *openAIClient) statusError(model string, status int, msg string, attempt int) *Error {
	if status == http.StatusNotFound && !strings.HasSuffix(c.basePath, "/v1") {
		msg += " (is the base URL right? OpenAI-compatible endpoints usually end in /v1)"
	}
	e := c.fail(model, status, msg, attempt, nil)
	e.Temporary = status == http.StatusTooManyRequests || status >= 500
	return e
}

// fail builds an Error with every secret removed from its text and cause.
func (c *openAIClient) fail(model string, status int, msg string, attempts int, cause error) *Error {
	if cause != nil && c.hasKey(cause.Error()) {
		cause = errors.New(c.redact(cause.Error()))
	}
	return &Error{
		Endpoint:   c.endpoint,
		Model:      model,
		StatusCode: status,
		Message:    c.redact(msg),
		Attempts:   attempts,
		cause:      cause,
	}
}

// minKeyLen is the shortest key that is redacted from messages: replacing a
// one- or two-letter "key" everywhere would only garble them.
const minKeyLen = 3

func (c *openAIClient) hasKey(s string) bool {
	return len(c.key) >= minKeyLen && strings.Contains(s, c.key)
}

func (c *openAIClient) redact(s string) string { return redactKey(s, c.key) }

func redactKey(s, key string) string {
	if len(key) < minKeyLen {
		return s
	}
	return strings.ReplaceAll(s, key, "[REDACTED]")
}

// chatRequest maps a Request to go-openai's, reporting whether the
// temperature must be forced to an explicit 0 on the wire.
func chatRequest(r Request) (openai.ChatCompletionRequest, bool) {
	req := openai.ChatCompletionRequest{Model: r.Model}
	for _, m := range r.Messages {
		req.Messages = append(req.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	if isReasoningModel(r.Model) {
		req.MaxCompletionTokens = r.MaxTokens
		return req, false
	}
	req.MaxTokens = r.MaxTokens
	if r.Temperature != 0 {
		req.Temperature = r.Temperature
		return req, false
	}
	// go-openai drops a zero temperature (omitempty); send a placeholder
	// that doer rewrites to 0.
	req.Temperature = math.SmallestNonzeroFloat32
	return req, true
}

// isReasoningModel matches the models go-openai validates as reasoning
// models: they reject temperature and max_tokens.
func isReasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// attemptInfo travels in the request context to doer, which fills in what
// go-openai does not expose on errors: the status and headers.
type attemptInfo struct {
	zeroTemperature bool
	sent            bool
	status          int
	header          http.Header
	timedOut        bool
}

type attemptKey struct{}

// doer is the go-openai HTTPDoer: it records the response status and
// headers (for Retry-After) and writes a zero temperature explicitly.
type doer struct {
	hc    *http.Client
	limit int64 // MaxResponseBytes
}

func (d doer) Do(req *http.Request) (*http.Response, error) {
	info, _ := req.Context().Value(attemptKey{}).(*attemptInfo)
	if info != nil && info.zeroTemperature && req.Body != nil {
		if err := setZeroTemperature(req); err != nil {
			return nil, err
		}
	}
	if info != nil {
		info.sent = true
	}
	resp, err := d.hc.Do(req)
	if info != nil && resp != nil {
		info.status = resp.StatusCode
		info.header = resp.Header.Clone()
	}
	if resp != nil && resp.Body != nil {
		resp.Body = &cappedBody{ReadCloser: resp.Body, left: d.limit}
	}
	return resp, err
}

func setZeroTemperature(req *http.Request) error {
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil {
		return fmt.Errorf("llm: encoding the request: %w", err)
	}
	fields["temperature"] = json.RawMessage("0")
	if body, err = json.Marshal(fields); err != nil {
		return fmt.Errorf("llm: encoding the request: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return nil
}

// retryAfter reads how long the endpoint asked to wait: OpenAI's
// retry-after-ms, or the standard Retry-After in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && !math.IsInf(ms, 0) {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 && !math.IsInf(s, 0) {
		if s > 1e6 {
			s = 1e6
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// transportMessage is a transport error without the "Post URL:" prefix
// (the Error names the endpoint already).
func transportMessage(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// bodyMessage is a short, one-line excerpt of an error body that was not
// OpenAI's error JSON (a proxy's HTML page, plain text).
func bodyMessage(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	const limit = 300
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}
