package runtime_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// dep is a step with one text dependency (summarize, ~900 tokens a call).
func dep(name string) string {
	return name + ` = type(textbox(name: "Notes"), summarize<"one sentence">("x"))`
}

// TestCostCountsTheCostliestBranch: a run takes one branch of an if, so
// the totals count the costliest (nested ifs by their own costliest, a
// loop's body times its count) and list the others as not counted; both
// arms of a try count, since a failing body is followed by the fallback.
func TestCostCountsTheCostliestBranch(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"else costs more", `if n > 1 {
    ` + dep("op1") + `
  } else {
    ` + dep("op2") + `
    ` + dep("op3") + `
  }`, []string{"Total: 2 LLM calls", "1 in branches of an if that another branch outweighs", "op1   run       summarize<\"one sentence\">  information_comprehension  gpt-4o-mini  0 (a costlier branch is counted)"}},
		{"nested if", `if n > 1 {
    ` + dep("op1") + `
    if n > 2 {
      ` + dep("op2") + `
    } else if n > 3 {
      ` + dep("op3") + `
      ` + dep("op4") + `
    }
  } else {
    ` + dep("op5") + `
    ` + dep("op6") + `
  }`, []string{"Total: 3 LLM calls", "3 in branches of an if that another branch outweighs"}},
		{"a loop in a branch", `if n > 1 {
    repeat 5 {
      ` + dep("op1") + `
    }
  } else {
    ` + dep("op2") + `
    ` + dep("op3") + `
  }`, []string{"Total: 0 + 1 per iteration of `repeat 5` × 5 = 5 LLM calls"}},
		{"try counts both arms", `try {
    ` + dep("op1") + `
  } fallback {
    ` + dep("op2") + `
  }`, []string{"Total: 2 LLM calls"}},
		{"condition outside the branches", `if summarize<"yes or no">("x") == "yes" {
    ` + dep("op1") + `
  }`, []string{"Total: 2 LLM calls"}},
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

// TestIterationsOverrideLoopBounds: --iterations while=N (until=N,
// repeat=N for a computed count) replaces a loop's bound in the estimate;
// a name no loop answers to is refused, and a repeat's literal count is
// never overridden.
func TestIterationsOverrideLoopBounds(t *testing.T) {
	src := "task t {\n  driver browser\n  input n: number = 2\n  while !visible(button(name: \"Done\")), max: 50 {\n    " + dep("op1") + "\n  }\n  repeat 3 {\n    " + dep("op2") + "\n  }\n}\n"
	for _, c := range []struct {
		flag, want, err string
	}{
		{"", "× up to 50", ""},
		{"while=4", "1 per iteration of `while` × 4 + 1 per iteration of `repeat 3` × 3 = 7 LLM calls", ""},
		{"until=4", "", "--iterations until=…: no until loop whose count the file does not give (loops: while)"},
		{"repeat=4", "", "no repeat loop"},
		{"x=4", "", "no loop `for x` (loops: while)"},
	} {
		t.Run(c.flag, func(t *testing.T) {
			var iters runtime.Iterations
			if c.flag != "" {
				if err := iters.Set(c.flag); err != nil {
					t.Fatal(err)
				}
			}
			file, task, info := load(t, src)
			est := runtime.EstimateCost(file, info, task, kb.Default(), runtime.CostModels{Text: "gpt-4o-mini", Element: "gpt-4o-mini"})
			err := est.Check(iters)
			switch {
			case c.err != "":
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("err = %v, want %q", err, c.err)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			var b strings.Builder
			est.Write(&b, iters)
			if !strings.Contains(b.String(), c.want) {
				t.Errorf("cost lacks %q:\n%s", c.want, b.String())
			}
		})
	}
}

// TestCostBoundsExploring: an explore block may ask the model once per
// exploration step of its budget, an explore<…> twice per step of the
// default budget; both are reported apart from the totals.
func TestCostBoundsExploring(t *testing.T) {
	out := costOf(t, `task t {
  driver browser
  input n: number = 2
  explore "the Import screen", budget: 30 {
    op1 = click(button(name: "Import"))
  }
  for x in ["a", "b"] {
    op2 = click(explore<"the file named x">(x))
  }
}
`, runtime.Iterations{})
	for _, want := range []string{
		"task t: 0 cognitive dependencies and 2 explorations (explore blocks and explore<…>, below)\nTotal: 0 LLM calls besides exploring",
		`Exploring, not in the totals: up to 30 for explore "the Import screen", budget: 30 (line 4) per run; ` +
			"up to 40 for op2: explore<\"the file named x\"> (line 8, 20 when an input describes the element) per iteration of `for x`; " +
			"none when the knowledge store replays the path or no model is configured",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("cost lacks %q:\n%s", want, out)
		}
	}
}
