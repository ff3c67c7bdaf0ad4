package runtime_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestExploreDependencyModelJudged: when the model judges an explore<…>
// reached, the element is the one the goal means on the screen reached,
// chosen as match_element chooses, not the one explored last (which only
// led there: here the menu button, which a click would close again).
func TestExploreDependencyModelJudged(t *testing.T) {
	numbered := regexp.MustCompile(`(?m)^(\d+)\. `)
	srv := llmtest.New(t,
		llmtest.Rule{Name: "rank", Match: llmtest.Contains("Candidates:"), Reply: func(r llmtest.Req) llmtest.Reply {
			var b strings.Builder
			for _, m := range numbered.FindAllStringSubmatch(r.LastUser(), -1) {
				fmt.Fprintf(&b, "%s: 4\n", m[1])
			}
			return llmtest.Reply{Text: b.String()}
		}},
		llmtest.Rule{Name: "reached", Match: llmtest.Contains("Is the goal reached?"), Reply: func(r llmtest.Req) llmtest.Reply {
			_, screen, _ := strings.Cut(r.LastUser(), "What the screen shows:")
			if strings.Contains(screen, "Publish") {
				return llmtest.Reply{Text: "yes, the Publish button shows"}
			}
			return llmtest.Reply{Text: "no, no Publish button"}
		}},
	)
	model, err := llm.NewOpenAI(llm.Config{BaseURL: srv.URL(), APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	person := &answers{lines: []string{"2"}} // [1] More, [2] Publish
	f := menuPage("More", "Publish")
	_, _, _, err = runHeal(t, `task t {
  driver browser
  op1 = click(explore<"the Publish button">())
}`, f, runtime.Options{Explore: runtime.ExploreConfig{Model: model},
		Answerers: []dependency.Answerer{runtime.AskAnswerer{P: person}}})
	if err != nil {
		t.Fatalf("%v; asked %q", err, person.asked)
	}
	if got := clicked(f); got != "More,Publish" {
		t.Errorf("clicked %q, want More,Publish", got)
	}
	if len(person.asked) != 1 || !strings.Contains(person.asked[0], "Publish") {
		t.Errorf("asked %q, want one question listing Publish", person.asked)
	}
}
