package goal

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestTableSaysModelWhenEveryRowFailed: with a model configured and every
// inference failing, the table must not say the goals were inferred by
// rules only: no row was.
func TestTableSaysModelWhenEveryRowFailed(t *testing.T) {
	dir := writeDemos(t, demos[:2])
	srv := llmtest.New(t, llmtest.Rule{Name: "any", Reply: llmtest.Text("I cannot tell.")})
	client, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), dir, Options{LLM: client, Model: testModel})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTable(&b, rep, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "rules only") || !strings.Contains(out, "by the model") || !strings.Contains(out, "2 errors, of 2") {
		t.Errorf("the table claims what did not happen:\n%s", out)
	}
}

// TestModelRepliesNeverGuessed: a reply that states two answers, or
// echoes the template instead of a goal, is an error, not the first
// thing it says.
func TestModelRepliesNeverGuessed(t *testing.T) {
	for _, c := range []struct{ reply, want string }{
		{"answer: yes\nreason: same\nanswer: no", "two answers"},
		{"answer: not sure\nanswer: yes", "two answers"},
		{"answer: yes | partly | no\nreason: <one sentence>", `no "answer: yes|partly|no" line`},
		{"goal: <one sentence>\nparam: <name> = <value as the trajectory shows it>", `no "goal:" line`},
	} {
		srv := llmtest.New(t, llmtest.Rule{Name: "any", Reply: llmtest.Text(c.reply)})
		client, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{LLM: client, Model: testModel}
		tr := demos[0].build()
		if strings.HasPrefix(c.reply, "goal:") {
			_, err = Infer(context.Background(), tr, opts)
		} else {
			_, err = Judge(context.Background(), Described{"Click ok", tr}, Described{"Press ok", tr}, opts)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.reply, err, c.want)
		}
	}
}

// TestModelMarkdownReply: a reply in markdown ("**Goal:** …") gives the
// sentence without the emphasis marks.
func TestModelMarkdownReply(t *testing.T) {
	srv := llmtest.New(t, llmtest.Rule{Name: "any", Reply: llmtest.Text("**Goal:** Click the \"ok\" button\n**Param:** button = ok")})
	client, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Infer(context.Background(), demos[0].build(), Options{LLM: client, Model: testModel})
	if err != nil {
		t.Fatal(err)
	}
	if g.Sentence != `Click the "ok" button` || len(g.Params) != 1 || g.Params[0].Value != "ok" {
		t.Errorf("got %+v", g)
	}
}
