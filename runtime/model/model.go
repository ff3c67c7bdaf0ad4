// Package model answers cognitive dependencies with a language model: it
// is the cache and LLM stages of the interpreter's answerer cascade.
//
// For a dependency it picks the prompt of the main category (prompts/,
// embedded and versioned), fills in the subcategory's definition and
// examples from the knowledge base, the description, the task goal and the
// input values, and for a choice a numbered list of candidates scoped and
// pruned to a token budget. Page and input text is fenced as data under a
// random marker. Every answer is parsed strictly and validated — a text, a
// number for calculate, an index into the numbered candidates for
// match_element, a span that is on the screen for match_text — and an
// invalid answer gets one repair request before the answerer gives up with
// an error naming the step. Because an element answer is an index into the
// list the answerer built, no page text can make it choose outside that
// list. Answers are cached on disk by everything they depend on (Cache).
package model

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/redact"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// Defaults for Options.
const (
	// DefaultCandidateBudget bounds, in tokens as llm.EstimateTokens
	// counts them, the candidate list of an element or text choice: a page with
	// thousands of elements is cut to the most relevant that fit. The rest
	// of a choice prompt takes about 650 tokens, so a choice on a
	// 5,000-element page stays under 1,500 (TestElementPromptSize); the
	// ranking (scope.go) puts the candidates that share words with the
	// description and the inputs, and their list, first. cogflow.hcl's
	// llm.candidate_budget overrides it.
	DefaultCandidateBudget = 800
	// DefaultMaxCandidates caps the number of candidates offered.
	DefaultMaxCandidates = 200
)

// Errors wrapped by the answerer's errors.
var (
	// ErrInvalidAnswer: the model's answer was invalid, and so was its
	// answer to the repair request.
	ErrInvalidAnswer = errors.New("invalid answer")
	// ErrNoCandidates: a choice has nothing to choose from.
	ErrNoCandidates = errors.New("no candidates")
)

// Options configure the LLM answerer.
type Options struct {
	// TextModel answers text and number dependencies; ElementModel answers
	// match_element. Either defaults to the other.
	TextModel, ElementModel string
	Temperature             float32
	// KB gives the subcategories' definitions and examples; nil means the
	// default knowledge base.
	KB *kb.KB
	// Cache keeps answers between runs; nil caches nothing.
	Cache *Cache
	// CandidateBudget bounds the candidate list in estimated tokens
	// (DefaultCandidateBudget when zero); MaxCandidates caps its length
	// (DefaultMaxCandidates when zero).
	CandidateBudget, MaxCandidates int
	// Secrets are the run's secret values. A dependency whose inputs,
	// description or goal hold one is refused before anything is sent or
	// cached; a candidate holding one is never offered. The set grows
	// during a run: texts derived from a secret are added as computed.
	Secrets *redact.Set
}

// LLM answers dependencies with a language model. It is safe for
// concurrent use.
type LLM struct {
	client llm.Client
	opts   Options
}

// NewLLM returns the answerer. With a nil client it answers from the cache
// only, and leaves what the cache does not hold to the next answerer.
func NewLLM(client llm.Client, opts Options) *LLM {
	if opts.KB == nil {
		opts.KB = kb.Default()
	}
	if opts.CandidateBudget <= 0 {
		opts.CandidateBudget = DefaultCandidateBudget
	}
	if opts.MaxCandidates <= 0 {
		opts.MaxCandidates = DefaultMaxCandidates
	}
	if opts.ElementModel == "" {
		opts.ElementModel = opts.TextModel
	}
	if opts.TextModel == "" {
		opts.TextModel = opts.ElementModel
	}
	return &LLM{client: client, opts: opts}
}

// Name implements runtime.Answerer.
func (l *LLM) Name() string { return "llm" }

// Error is a dependency the answerer could not answer. Its message names
// the step and the dependency: step op4: match_element<"…">: reason.
type Error struct {
	Step       string
	Line       int
	Dependency string // sub<"description">
	Err        error
}

// Error names the dependency; the step and its position are the
// interpreter's to add (it reports every step failure with its source line).
func (e *Error) Error() string {
	return fmt.Sprintf("%s: %v", e.Dependency, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// dep is a request with what the answerer worked out about it.
type dep struct {
	req       *dependency.Request
	kind      kind
	main, sub string
	cat       *kb.Category
	subc      *kb.Subcategory
	model     string
	cands     []candidate // offered, in page order
	total     int         // eligible candidates before the cut
}

func (d *dep) fail(err error) error {
	return &Error{Step: d.req.Step, Line: d.req.Line, Dependency: fmt.Sprintf("%s<%q>", d.req.Sub, d.req.Description), Err: err}
}

// plan works out the dependency's answer kind, category, knowledge base
// entry and model.
func (l *LLM) plan(r *dependency.Request) *dep {
	d := &dep{req: r, main: r.Main, sub: r.Sub}
	if i := strings.LastIndexByte(d.sub, '.'); i >= 0 {
		d.main, d.sub = d.sub[:i], d.sub[i+1:]
	}
	switch {
	case r.Result.Kind == types.Element:
		d.kind = kindElement
	case d.sub == "match_text":
		d.kind = kindSpan
	case r.Result.Kind == types.Number || d.sub == "calculate":
		d.kind = kindNumber
	}
	if c, s, ok := l.opts.KB.Lookup(d.sub); ok && (d.main == "" || d.main == c.Name) {
		d.main, d.cat, d.subc = c.Name, c, s
	}
	if _, ok := prompts[d.main]; !ok || d.main == "system" {
		d.main = map[kind]string{kindText: "information_comprehension", kindNumber: "logical_reasoning",
			kindElement: "contextual_selection", kindSpan: "contextual_selection"}[d.kind]
	}
	if d.cat == nil {
		d.cat = l.opts.KB.Main(d.main)
	}
	d.model = l.opts.TextModel
	if d.kind == kindElement {
		d.model = l.opts.ElementModel
	}
	return d
}

// Answer implements runtime.Answerer.
func (l *LLM) Answer(ctx context.Context, r *dependency.Request) (*dependency.Answer, error) {
	d := l.plan(r)
	if err := l.guard(d); err != nil {
		return nil, d.fail(err)
	}
	if d.kind == kindElement || d.kind == kindSpan {
		d.cands, d.total = scope(d, l.opts.CandidateBudget, l.opts.MaxCandidates, l.opts.Secrets)
		if len(d.cands) == 0 {
			return nil, d.fail(fmt.Errorf("%w: no visible element on the screen to choose from", ErrNoCandidates))
		}
	}
	key := l.key(d)
	if a := l.cached(d, key); a != nil {
		a.CacheKey = key.Hash()
		return a, nil
	}
	if l.client == nil {
		return nil, nil
	}
	p, err := buildPrompt(d)
	if err != nil {
		return nil, d.fail(err)
	}
	a, v, err := l.ask(ctx, d, p)
	if err != nil {
		return nil, d.fail(err)
	}
	if l.store(d, key, a, v) {
		a.CacheKey = key.Hash()
	}
	return a, nil
}

// Forget implements dependency.Forgetter: the answer's cache entry is evicted,
// so the next run asks the model again. The interpreter calls it for the
// answers a failed step used.
func (l *LLM) Forget(a *dependency.Answer) error {
	if a == nil || a.CacheKey == "" {
		return nil
	}
	return l.opts.Cache.Evict(a.CacheKey)
}

// guard refuses a dependency whose own texts hold a secret.
func (l *LLM) guard(d *dep) error {
	refuse := func(what string) error {
		return fmt.Errorf("its %s holds a %w; it is never sent to a language model or cached", what, ErrSecret)
	}
	switch {
	case holdsSecret(d.req.Description, l.opts.Secrets):
		return refuse("description")
	case holdsSecret(d.req.Goal, l.opts.Secrets):
		return refuse("task goal")
	}
	for i, in := range d.req.Inputs {
		if holdsSecret(in, l.opts.Secrets) {
			return refuse(fmt.Sprintf("input %d", i+1))
		}
	}
	return nil
}

// value is a validated answer.
type value struct {
	text   string
	number float64
	index  int // 0-based, into d.cands
}

// ask sends the prompt and validates the answer; an invalid answer gets
// one repair request. Tokens and calls add up over both.
func (l *LLM) ask(ctx context.Context, d *dep, p *prompt) (*dependency.Answer, value, error) {
	msgs := p.messages()
	a := &dependency.Answer{Model: d.model}
	var first *invalid
	for {
		for _, m := range msgs {
			if holdsSecret(m.Content, l.opts.Secrets) {
				return nil, value{}, fmt.Errorf("refusing to send a request that holds a %w", ErrSecret)
			}
		}
		resp, err := l.client.Complete(ctx, llm.Request{Model: d.model, Messages: msgs, Temperature: l.opts.Temperature})
		if err != nil {
			return nil, value{}, fmt.Errorf("the language model request failed: %w", err)
		}
		account(a, resp, msgs)
		v, bad := validate(d, p, resp.Text)
		if bad == nil {
			fill(d, a, v)
			return a, v, nil
		}
		if first != nil {
			return nil, value{}, fmt.Errorf("%w: %v; asked to repair it, %s", ErrInvalidAnswer, first,
				strings.TrimPrefix(bad.Error(), "the model "))
		}
		first = bad
		msgs = append(msgs, llm.Message{Role: "assistant", Content: echo(resp.Text)},
			llm.Message{Role: "user", Content: repairMessage(p, bad)})
	}
}

// account adds a response's cost to the answer. Token counts the endpoint
// does not report are estimated.
func account(a *dependency.Answer, resp *llm.Response, msgs []llm.Message) {
	if resp.Model != "" {
		a.Model = resp.Model
	}
	in, out := resp.TokensIn, resp.TokensOut
	if in == 0 && out == 0 {
		in, out = llm.EstimateMessages(msgs), llm.EstimateTokens(resp.Text)
	}
	a.TokensIn += in
	a.TokensOut += out
	a.Calls += max(resp.Attempts, 1)
	a.Latency += resp.Latency
	usd, _ := llm.Cost(a.Model, in, out)
	a.CostUSD += usd
}

// validate parses a raw answer in the format of the dependency's kind.
func validate(d *dep, p *prompt, raw string) (value, *invalid) {
	bad := func(reason string) (value, *invalid) { return value{}, &invalid{answer: raw, reason: reason} }
	switch d.kind {
	case kindElement:
		n, ok := parseIndex(raw)
		switch {
		case !ok:
			return bad(fmt.Sprintf(`the answer must be {"index": N} with N from 1 to %d`, len(d.cands)))
		case n < 1 || n > len(d.cands):
			return bad(fmt.Sprintf("%d is not a candidate's number: the candidates are numbered 1 to %d", n, len(d.cands)))
		}
		return value{index: n - 1}, nil
	case kindNumber:
		f, ok := parseNumber(raw)
		if !ok {
			return bad("calculate must answer a number")
		}
		return value{number: f}, nil
	}
	s := cleanText(raw)
	switch {
	case s == "":
		return bad("the answer is empty")
	case strings.Contains(s, p.nonce) || strings.Contains(s, "<<<DATA"):
		return bad("the answer repeats the data fences")
	case d.kind == kindSpan:
		span, ok := findSpan(screenTexts(d.req.Tree, d.req.Candidates), s)
		if !ok {
			return bad("that text is not on the screen")
		}
		s = span
	}
	return value{text: s}, nil
}

// fill puts a validated value into the answer.
func fill(d *dep, a *dependency.Answer, v value) {
	switch d.kind {
	case kindElement:
		a.Element = d.cands[v.index].el
		a.Text = elementText(a.Element)
	case kindNumber:
		a.Number = v.number
	default:
		a.Text = v.text
	}
}

func elementText(el *driver.Element) string {
	if el.Text != "" {
		return el.Text
	}
	return el.Name
}

// key is what the dependency's answer depends on: the model and prompt,
// the dependency and its inputs, and what the prompt shows of the screen
// (the candidates of a choice, the screen text of a dependency that reads
// it), so that an answer is served again only for the same question about
// the same screen.
func (l *LLM) key(d *dep) Key {
	k := Key{Model: d.model, Prompt: promptVersion(d.main), Main: d.main, Sub: d.sub,
		Description: d.req.Description, Goal: d.req.Goal, Inputs: d.req.Inputs,
		Screen: TextFingerprint(screenFor(d))}
	if len(d.cands) > 0 {
		els := make([]*driver.Element, len(d.cands))
		for i, c := range d.cands {
			els[i] = c.el
		}
		k.Candidates = SetFingerprint(els)
	}
	return k
}

// cached answers from the cache: an element is found again among the live
// candidates by its fingerprint, a span must still be on the screen;
// otherwise it is a miss.
func (l *LLM) cached(d *dep, k Key) *dependency.Answer {
	e, ok := l.opts.Cache.Get(k)
	if !ok || e.Kind != d.kind.String() {
		return nil
	}
	a := &dependency.Answer{Model: e.Model, Cached: true, CachedAt: e.Created}
	v := value{text: e.Text, number: e.Number, index: -1}
	switch d.kind {
	case kindElement:
		for i, c := range d.cands {
			if Fingerprint(c.el) == e.Fingerprint && (v.index < 0 || i == e.Index) {
				v.index = i
			}
		}
		if v.index < 0 {
			return nil
		}
	case kindSpan:
		span, ok := findSpan(screenTexts(d.req.Tree, d.req.Candidates), e.Text)
		if !ok {
			return nil
		}
		v.text = span
	}
	fill(d, a, v)
	return a
}

// store caches an answer and reports whether it did. A write that fails
// costs only a later model call, so its error is dropped.
func (l *LLM) store(d *dep, k Key, a *dependency.Answer, v value) bool {
	if l.opts.Cache == nil || l.opts.Cache.NoCache || holdsSecret(v.text, l.opts.Secrets) {
		return false
	}
	e := Entry{Kind: d.kind.String(), Text: v.text, Number: v.number, Model: a.Model}
	if d.kind == kindElement {
		e.Index, e.Fingerprint, e.Text = v.index, Fingerprint(d.cands[v.index].el), ""
	}
	return l.opts.Cache.Put(k, e) == nil
}
