package main

import (
	"testing"

	"github.com/cogflow/cogflow/lang/syntax"
)

// TestConstructsOf lists the control flow of workflows, nested or not.
func TestConstructsOf(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`op1 = click(button(name: "Go"))`, "-"},
		{"for item in items(list(id: \"l\")) {\n    if visible(button(name: \"Odd\", within: item)) {\n      op1 = click(button(name: \"Odd\", within: item))\n    }\n  }", "for,if"},
		{"until text(id: \"v\").text == \"3\", max: 200 {\n    op1 = key(\"ArrowRight\")\n  }\n  while exists(button(name: \"More\")) {\n    repeat 2 {\n      op2 = click(button(name: \"More\"))\n    }\n  }", "repeat,while,until"},
		{"try {\n    op1 = click(button(name: \"Go\"))\n  } fallback {\n    explore \"the Go button\" {\n      op2 = click(button(name: \"Go\"))\n    }\n  }", "try,explore"},
		{"if visible(explore<\"the More link\">(\"More\")) {\n    op1 = click(button(name: \"More\"))\n  }", "if,explore"},
	} {
		src := "task t \"x\" {\n  driver browser\n  " + tc.body + "\n}\n"
		f, ds := syntax.Parse("t.cog", []byte(src))
		if ds.HasErrors() {
			t.Fatalf("%s: %v", tc.body, ds.Err())
		}
		if got := constructsOf(f); got != tc.want {
			t.Errorf("constructsOf(%q) = %q, want %q", tc.body, got, tc.want)
		}
	}
}

// TestFailureReasons sums up why runs failed, most frequent first.
func TestFailureReasons(t *testing.T) {
	model, _ := classifySource("t.cog", []byte("task t \"x\" {\n  driver browser\n  op3 = click(match_element<\"TODO\">(\"x\"))\n}\n"))
	fail := func(step, msg string) outcome { return outcome{step: step, message: msg, log: runLog{failed: "op3"}} }
	v := variantEval{w: workflow{src: "task"}, runs: append(runs(3, 1, "silent"),
		fail("op3:7 click", "no answer"),
		outcome{step: "shows_value:9 assert", message: "pressing did not bring …", log: runLog{failed: "shows_value"}},
		outcome{step: "op4:5 key", message: "the until loop at line 5 ran its 100 iterations and its condition still says go on"},
		outcome{step: "op2:3 click", message: "no element matches button(name: \"7\")"},
		outcome{step: "op2:3 click", message: "the element is covered by span \"Tu\""},
	)}
	if got, want := failureReasons(v, model), "silent 2, assert 1, covered 1, loop bound 1, no match 1, no model 1"; got != want {
		t.Errorf("failureReasons = %q, want %q", got, want)
	}
	if got := failureReasons(variantEval{w: workflow{err: "x"}}, model); got != "compile" {
		t.Errorf("a workflow that did not compile: %q", got)
	}
	if got := failureReasons(variantEval{w: workflow{src: "task"}, runs: runs(2, 2, "")}, model); got != "" {
		t.Errorf("every run solved: %q", got)
	}
}
