package model

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/llm"
)

// BenchmarkElementPrompt5000 builds the element-choice prompt for a
// 5,000-element page: scoping, ranking, pruning to the budget and
// rendering. It reports the prompt's size in estimated tokens.
func BenchmarkElementPrompt5000(b *testing.B) {
	r := NewLLM(nil, Options{})
	req := elementReq("Kilimanjaro", bigPage(5000, "Kilimanjaro"))
	var msgs []llm.Message
	var shown int
	for b.Loop() {
		d := r.plan(req)
		d.cands, d.total = scope(d, r.opts.CandidateBudget, r.opts.MaxCandidates, r.opts.Secrets)
		p, err := buildPrompt(d)
		if err != nil {
			b.Fatal(err)
		}
		msgs, shown = p.messages(), len(d.cands)
	}
	b.ReportMetric(float64(llm.EstimateMessages(msgs)), "prompt-tokens")
	b.ReportMetric(float64(shown), "candidates")
}

// BenchmarkResolverOverhead is everything but the model: a client that
// answers at once, no cache.
func BenchmarkResolverOverhead(b *testing.B) {
	cases := []struct {
		name string
		req  *dependency.Request
	}{
		{"summarize", textReq("", "summarize", "in one sentence", types.TextT,
			"Kilimanjaro is a dormant volcano in Tanzania. It is the highest mountain in Africa.")},
		{"match_element-8", elementReq("Kilimanjaro", results(eightResults...))},
		{"match_element-5000", elementReq("Kilimanjaro", bigPage(5000, "Kilimanjaro"))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			r := NewLLM(script(`{"index": 1}`), Options{})
			if c.req.Result.Kind != types.Element {
				r = NewLLM(&fakeClient{reply: func(llm.Request) string { return "A summary." }}, Options{})
			}
			ctx := context.Background()
			for b.Loop() {
				if _, err := r.Answer(ctx, c.req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCacheHit is a dependency answered from the disk cache.
func BenchmarkCacheHit(b *testing.B) {
	r := NewLLM(script(`{"index": 2}`), Options{Cache: NewCache(b.TempDir())})
	req := elementReq("Kilimanjaro", results(eightResults...))
	ctx := context.Background()
	if _, err := r.Answer(ctx, req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if a, err := r.Answer(ctx, req); err != nil || !a.Cached {
			b.Fatal(a, err)
		}
	}
}

// TestElementPromptSize: with the default budget, the whole prompt of a
// choice on a 5,000-element page (system and user messages, as
// llm.EstimateMessages counts them) is at most 1,500 tokens, and the
// results the choice is about are still offered. A size assertion, not a
// timing one: BenchmarkElementPrompt5000 reports the same number.
func TestElementPromptSize(t *testing.T) {
	const limit = 1500
	tests := []struct{ keyword, want string }{
		{"Kilimanjaro", `"Kilimanjaro National Park"`},
		{"Serengeti", `"Serengeti National Park"`},
	}
	for _, tt := range tests {
		f := script("1")
		if _, err := NewLLM(f, Options{}).Answer(context.Background(), elementReq(tt.keyword, bigPage(5000, tt.keyword))); err != nil {
			t.Fatal(err)
		}
		msgs := f.reqs[0].Messages
		if n := llm.EstimateMessages(msgs); n > limit {
			t.Errorf("%s: the choice prompt takes %d tokens, over %d", tt.keyword, n, limit)
		}
		if user := msgs[1].Content; !strings.Contains(user, tt.want) || !strings.Contains(user, `"Mount Fuji"`) {
			t.Errorf("%s: the results were cut from the prompt:\n%s", tt.keyword, user)
		}
	}
}
