package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestE2EFailedAnswerNotServedAgain: a step that fails with a model's
// answer evicts it from the answer cache, so the next run asks the model
// again, whether the answer was fresh (a wrong answer) or served from the
// cache (an answer the page has since outdated); the error of the latter
// says the answer came from the cache and suggests --refresh. The
// dependency works on its input alone, so the page is not part of its
// cache key: only eviction keeps the outdated answer from being served
// forever.
func TestE2EFailedAnswerNotServedAgain(t *testing.T) {
	needChromium(t)
	demo(t) // isolates the configuration
	var capital, reply atomic.Value
	mux := http.NewServeMux()
	mux.HandleFunc("/country", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "<!doctype html><title>France</title><p>The capital of France is %s.</p>", capital.Load())
	})
	page := httptest.NewServer(mux)
	defer page.Close()
	srv := model(t, llmtest.Rule{Name: "capital", Match: llmtest.LastUserContains("the capital of the country"),
		Reply: func(llmtest.Req) llmtest.Reply { return llmtest.Reply{Text: reply.Load().(string)} }})
	wf := writeWorkflow(t, "capital.cog", `task capital "Select the capital of the country" {
  driver browser
  input country: text = "France"
  op1 = open("`+page.URL+`/country")
  op2 = select_text(answer_question<"the capital of the country">(country))
}
`)
	root := t.TempDir()
	const cacheNote = "(answer from the cache, cached at "
	const refresh = "run with --refresh to ask again)"
	steps := []struct {
		name          string
		onPage, model string
		wantCode      int
		wantRequests  int  // the server's total after the run
		wantCacheNote bool // the error says the answer came from the cache
	}{
		{"a wrong answer fails the step", "Paris", "Lyon", exitStepFailed, 1, false},
		{"the next run asks again", "Paris", "Paris", exitOK, 2, false},
		{"the page changed: the cached answer fails the step", "Lyon", "Lyon", exitStepFailed, 2, true},
		{"the next run asks again, not the cache", "Lyon", "Lyon", exitOK, 3, false},
		{"and the new answer is cached", "Lyon", "Marseille", exitOK, 3, false},
	}
	for _, s := range steps {
		capital.Store(s.onPage)
		reply.Store(s.model)
		r := runWith(context.Background(), "", "run", wf, "--dir", root)
		if r.code != s.wantCode {
			t.Fatalf("%s: exit %d, want %d\n%s%s", s.name, r.code, s.wantCode, r.stdout, r.stderr)
		}
		if got := srv.Count(); got != s.wantRequests {
			t.Fatalf("%s: the model received %d requests in all, want %d", s.name, got, s.wantRequests)
		}
		if has := strings.Contains(r.stderr, cacheNote) && strings.Contains(r.stderr, refresh); has != s.wantCacheNote {
			t.Errorf("%s: the error names the cache and --refresh: %v, want %v\n%s", s.name, has, s.wantCacheNote, r.stderr)
		}
	}
	for _, q := range srv.Requests() {
		if u := q.LastUser(); !strings.Contains(u, "\nFrance\n") || strings.Contains(u, "The capital of France is") {
			t.Errorf("request %d: want the input and no page text:\n%s", q.Seq, u)
		}
	}
}
