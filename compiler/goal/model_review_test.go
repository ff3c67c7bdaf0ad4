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
