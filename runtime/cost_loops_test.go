package runtime_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/stdlib/kb"
)

func costOf(t *testing.T, src string, iters runtime.Iterations) string {
	t.Helper()
	file, task, info := load(t, src)
	var b strings.Builder
	runtime.EstimateCost(file, info, task, kb.Default(), runtime.CostModels{Text: "gpt-4o-mini", Element: "gpt-4o-mini"}).Write(&b, iters)
	return b.String()
}

// TestCostCountsRepeatAndWhileBodies: a repeat with a literal count
// multiplies its body by the count, a while or until by its bound ("up
// to"); a repeat with a computed count is a per-iteration term.
func TestCostCountsRepeatAndWhileBodies(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"repeat literal", `repeat 3 {
    op1 = type(textbox(name: "Notes"), summarize<"one sentence">("x"))
  }`, []string{"iteration of `repeat 3`", "Total: 0 + 1 per iteration of `repeat 3` × 3 = 3 LLM calls"}},
		{"repeat computed", `repeat n {
    op1 = type(textbox(name: "Notes"), summarize<"one sentence">("x"))
  }`, []string{"Total: 0 + 1 per iteration of `repeat n` (× --iterations, default: unknown)"}},
		{"while default bound", `while !visible(button(name: "Done")) {
    op1 = type(textbox(name: "Notes"), summarize<"one sentence">("x"))
  }`, []string{"Total: 0 + 1 per iteration of `while` × up to 100 = up to 100 LLM calls"}},
		{"until max in repeat", `repeat 2 {
    until visible(button(name: "Done")), max: 5 {
      op1 = type(textbox(name: "Notes"), summarize<"one sentence">("x"))
    }
  }`, []string{"1 per iteration of `until` in `repeat 2` × up to 10 (2 × 5) = up to 10 LLM calls"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := costOf(t, "task t {\n  driver browser\n  input n: number = 2\n  "+c.body+"\n}\n", runtime.Iterations{})
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("cost lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
