package main

import (
	"strings"
	"testing"
)

// TestClassifySource classifies the steps of small workflows: each step
// counts as its most expensive part, anchors count where they are used,
// and a loop over a UI list makes its steps at least structural.
func TestClassifySource(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		want  map[string]answer
		count [4]int // fixed, structure, synthesis, model
	}{
		{
			name: "fixed: literals, inputs, element descriptions",
			body: `input tt: text = "IU"
  op1 = open("http://127.0.0.1/x.html")
  op2 = type(textbox(id: "tt"), tt)
  op3 = click(button(name: "Submit"))`,
			want:  map[string]answer{"op1": byFixed, "op2": byFixed, "op3": byFixed},
			count: [4]int{3, 0, 0, 0},
		},
		{
			name: "structure: helpers, methods, earlier steps, anchors",
			body: `anchor box = textbox(id: "to-copy")
  anchor first = rows(table(id: "t"))[0]
  op1 = copy(box)
  op2 = paste(textbox(id: "answer"), op1)
  op3 = click(next(op2))
  op4 = click(first.cell("Name"))
  op5 = click(with_text(items(list(id: "l")), "Apple")[0])`,
			want:  map[string]answer{"op1": byFixed, "op2": byStructure, "op3": byStructure, "op4": byStructure, "op5": byStructure},
			count: [4]int{1, 4, 0, 0},
		},
		{
			name: "synthesis: text reads and functions over them",
			body: `anchor query = text(id: "query")
  op1 = type(textbox(id: "tt"), nth(words(query.text), 3))
  op2 = type(textbox(id: "n"), upper("x"))
  op3 = click(with_text(items(list(id: "l")), split_list(query.text)[0])[0])
  op4 = type(textbox(id: "v"), text(id: "query").value)`,
			want:  map[string]answer{"op1": bySynthesis, "op2": bySynthesis, "op3": bySynthesis, "op4": bySynthesis},
			count: [4]int{0, 0, 4, 0},
		},
		{
			name: "model: a dependency anywhere in the step",
			body: `op1 = click(button(name: "Go"))
  op2 = click(match_element<"the result about the keyword">(op1, within: list(id: "r")))
  op3 = type(textbox(id: "s"), upper(summarize<"one sentence">(op1)))`,
			want:  map[string]answer{"op1": byFixed, "op2": byModel, "op3": byModel},
			count: [4]int{1, 0, 0, 2},
		},
		{
			name: "loops: over a UI list, over values read from the screen",
			body: `for item in items(list(id: "cards")) {
    op1 = click(item)
  }
  for name in split_list(text(id: "query").text) {
    op2 = click(checkbox(label: name))
  }
  op3 = click(button(name: "Submit"))`,
			want:  map[string]answer{"op1": byStructure, "op2": bySynthesis, "op3": byFixed},
			count: [4]int{1, 1, 1, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "task t \"x\" {\n  driver browser\n  " + tc.body + "\n}\n"
			c, err := classifySource("t.cog", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			for step, want := range tc.want {
				if got := c.kindOf(step); got != want {
					t.Errorf("%s: %s, want %s", step, got, want)
				}
			}
			got := [4]int{c.Fixed, c.Structure, c.Synthesis, c.Model}
			if got != tc.count || c.Steps != len(tc.want) {
				t.Errorf("counts %v of %d steps, want %v of %d", got, c.Steps, tc.count, len(tc.want))
			}
		})
	}
}

// TestClassifySkillAndErrors: a skill's steps count where the skill is
// written, a call of it costs nothing more; a source that does not parse
// is an error with its position.
func TestClassifySkillAndErrors(t *testing.T) {
	src := `skill fill(v: text) {
  s1 = type(textbox(id: "a"), lower(v))
}
task t "x" {
  driver browser
  op1 = fill("A")
}
`
	c, err := classifySource("s.cog", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if c.kindOf("s1") != bySynthesis || c.kindOf("op1") != byFixed || c.Steps != 2 {
		t.Errorf("skill: s1 %s, op1 %s, %d steps", c.kindOf("s1"), c.kindOf("op1"), c.Steps)
	}
	_, err = classifySource("bad.cog", []byte("task t \"x\" {\n  op1 = click(\n}\n"))
	if err == nil || !strings.Contains(err.Error(), "bad.cog:") {
		t.Errorf("a bad source: %v", err)
	}
}
