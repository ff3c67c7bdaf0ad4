package runtime_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestHealModelNeverSeesSecret: a screen that shows a secret input's value
// (here in its title) is described to the exploring model without it.
func TestHealModelNeverSeesSecret(t *testing.T) {
	const pin = "7391-xq"
	numbered := regexp.MustCompile(`(?m)^(\d+)\. `)
	srv := llmtest.New(t, llmtest.Rule{Name: "rank", Match: llmtest.Contains("Candidates:"), Reply: func(r llmtest.Req) llmtest.Reply {
		var b strings.Builder
		for _, m := range numbered.FindAllStringSubmatch(r.LastUser(), -1) {
			fmt.Fprintf(&b, "%s: 3\n", m[1])
		}
		return llmtest.Reply{Text: b.String()}
	}})
	model, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	f := menuPage("More", "Save")
	tree := f.Tree()
	f.SetTree(&driver.Tree{URL: tree.URL, Title: "Notes of " + pin, Elements: tree.Elements})
	src := strings.Replace(saveNotes, `  driver browser`, "  driver browser\n  input pin: secret", 1)
	src = strings.Replace(src, `"hello"`, "pin", 1)
	_, _, _, err = runHeal(t, src, f, runtime.Options{Heal: true, Inputs: map[string]string{"pin": pin},
		Explore: runtime.ExploreConfig{Model: model}})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Count() == 0 {
		t.Fatal("the model was never asked")
	}
	for _, r := range srv.Requests() {
		if strings.Contains(r.Prompt(), pin) {
			t.Errorf("request %d holds the secret:\n%s", r.Seq, r.Prompt())
		}
	}
}
