package runtime_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
)

// keeper is a answerer that keeps answers: it answers every dependency
// with its script, and records what it is told to forget.
type keeper struct {
	cached    bool
	forgotten []string
}

func (k *keeper) Name() string { return "llm" }

func (k *keeper) Answer(_ context.Context, r *dependency.Request) (*dependency.Answer, error) {
	a := &dependency.Answer{Text: "answer to " + r.Description, CacheKey: "key of " + r.Description, Cached: k.cached}
	if k.cached {
		a.CachedAt = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	}
	return a, nil
}

func (k *keeper) Forget(a *dependency.Answer) error {
	k.forgotten = append(k.forgotten, a.CacheKey)
	return nil
}

// TestFailedStepForgetsItsAnswers: a step that fails makes the answerer
// forget the answers its arguments used (and only those), and its error
// says when one came from the cache and suggests --refresh.
func TestFailedStepForgetsItsAnswers(t *testing.T) {
	const note = "run with --refresh to ask again)"
	tests := []struct {
		name          string
		body          string
		cached        bool
		wantErr       bool
		wantForgotten []string
		wantNote      string // "" for none
	}{
		{"fresh answer, step fails", `op2 = type(textbox(id: "missing"), summarize<"a">(keyword))`, false, true,
			[]string{"key of a"}, ""},
		{"cached answer, step fails", `op2 = type(textbox(id: "missing"), summarize<"a">(keyword))`, true, true,
			[]string{"key of a"}, "(answer from the cache, cached at 2026-03-04 05:06:07 UTC; " + note},
		{"two cached answers, step fails", `op2 = type(textbox(id: "missing"), summarize<"a">(keyword) + summarize<"b">(keyword))`, true, true,
			[]string{"key of a", "key of b"}, `(answers from the cache, cached at 2026-03-04 05:06:07 UTC for summarize<"a">, 2026-03-04 05:06:07 UTC for summarize<"b">; ` + note},
		{"an earlier step's answer is kept", "op2 = type(textbox(id: \"q\"), summarize<\"a\">(keyword))\n  op3 = click(button(name: \"Missing\"))", true, true,
			nil, ""},
		{"a step that succeeds keeps its answer", `op2 = type(textbox(id: "q"), summarize<"a">(keyword))`, true, false,
			nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, task, info := load(t, `task t "Look up a keyword" {
  driver browser
  input keyword: text = "Kilimanjaro"
  op1 = open("http://wiki/")
  `+tt.body+`
}`)
			k := &keeper{cached: tt.cached}
			_, err := runtime.New(file, task, info, wikiSite(), runtime.Options{Answerers: []dependency.Answerer{k}}).Run(context.Background())
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want an error: %v", err, tt.wantErr)
			}
			if strings.Join(k.forgotten, "|") != strings.Join(tt.wantForgotten, "|") {
				t.Errorf("forgotten %q, want %q", k.forgotten, tt.wantForgotten)
			}
			if err == nil {
				return
			}
			if has := strings.Contains(err.Error(), "from the cache"); has != (tt.wantNote != "") {
				t.Errorf("error %q: mentions the cache %v, want %v", err, has, tt.wantNote != "")
			}
			if tt.wantNote != "" && !strings.HasSuffix(err.Error(), tt.wantNote) {
				t.Errorf("error %q\ndoes not end with %q", err, tt.wantNote)
			}
		})
	}
}
