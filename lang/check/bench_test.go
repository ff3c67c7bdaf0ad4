package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

// generated returns a workflow of n steps in the shapes compiled files
// have: type/click pairs on anchors, structural functions, dependencies, and
// a loop every 100 steps.
func generated(n int) []byte {
	var b strings.Builder
	b.WriteString("task big \"a generated workflow\" {\n  driver browser\n  input keyword: text = \"k\"\n")
	b.WriteString("  anchor box = textbox(name: \"Search\", id: \"q\")\n  anchor go = button(name: \"Go\")\n")
	b.WriteString("  op1 = open(\"http://127.0.0.1:8088/wiki\")\n")
	b.WriteString("  op2 = type(box, keyword)\n  op3 = click(go)\n  op4 = type(box, keyword)\n  op5 = type(box, keyword)\n")
	for i := 6; i <= n; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "  op%d = type(box, upper(keyword) + \"-%d\")\n", i, i)
		case 1:
			fmt.Fprintf(&b, "  op%d = click(go)\n", i)
		case 2:
			fmt.Fprintf(&b, "  op%d = click(match_element<\"the result most related to the keyword\">(op%d))\n", i, i-2)
		case 3:
			fmt.Fprintf(&b, "  op%d = type(textbox(name: \"Notes\", id: \"notes\"), summarize<\"summarize in one sentence\">(op%d))\n", i, i-3)
		case 4:
			fmt.Fprintf(&b, "  op%d = type(box, replace(op%d, \".txt\", \".md\"))  # synthesized\n", i, i-4)
		}
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

func TestGeneratedWorkflowIsClean(t *testing.T) {
	src := generated(200)
	f, diags := syntax.Parse("big.cog", src)
	if f == nil {
		t.Fatal(diags.Err())
	}
	if _, d := check.Check(f, testEnv()); len(d) != 0 {
		t.Fatalf("generated workflow has diagnostics: %v", d[0])
	}
	if string(printer.Format(f)) == "" {
		t.Fatal("empty print")
	}
}

// BenchmarkParseCheck10k parses and checks a 10,000-step workflow; the
// reported ns/step is the figure the language issue asks for.
func BenchmarkParseCheck10k(b *testing.B) {
	const steps = 10000
	src := generated(steps)
	env := testEnv()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		f, diags := syntax.Parse("big.cog", src)
		if f == nil {
			b.Fatal(diags.Err())
		}
		if _, d := check.Check(f, env); d.HasErrors() {
			b.Fatal(d.Err())
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/steps, "ns/step")
}

// BenchmarkParse10k and BenchmarkCheck10k split the cost between the stages.
func BenchmarkParse10k(b *testing.B) {
	src := generated(10000)
	for b.Loop() {
		if f, diags := syntax.Parse("big.cog", src); f == nil {
			b.Fatal(diags.Err())
		}
	}
}

func BenchmarkCheck10k(b *testing.B) {
	f, _ := syntax.Parse("big.cog", generated(10000))
	env := testEnv()
	for b.Loop() {
		check.Check(f, env)
	}
}
