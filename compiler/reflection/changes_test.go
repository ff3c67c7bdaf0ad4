package reflection

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
)

// compiled is a workflow as the compiler writes it; each test case edits
// it the way a person would.
const compiled = `task keyword_intro "Look up a keyword and note a summary" {
  driver browser
  input keyword: text = "Kilimanjaro"

  op1 = open("http://127.0.0.1:8088/wiki")
  op2 = type(textbox(name: "Search"), keyword)
  op4 = click(match_element<"the search result most related to the keyword">(op2))
  op5 = select_text(extract_information<"the introductory paragraph">(op2))
  op7 = type(textbox(name: "Notes"), summarize<"summarize in one sentence">(op5))
}
`

func parse(t *testing.T, name, src string) *ast.File {
	t.Helper()
	f, diags := syntax.Parse(name, []byte(src))
	if diags.HasErrors() {
		t.Fatalf("%s: %v", name, diags)
	}
	return f
}

func TestChanges(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string // replace old by new in compiled
		want     []string
	}{
		{"unchanged", "", "", nil},
		{"layout and comments only", "  op1 =", "  # opens the wiki\n  op1 =", nil},
		{"main category written out", "summarize<", "information_comprehension.summarize<", nil},
		{"description edited", `"summarize in one sentence"`, `"the state the mountain is in"`,
			[]string{`edited.cog:9:38: op7: description edited: summarize<"summarize in one sentence">(op5) → summarize<"the state the mountain is in">(op5)`}},
		{"inputs changed", `(op5))`, `(op5, keyword))`,
			[]string{`edited.cog:9:38: op7: inputs changed: summarize<"summarize in one sentence">(op5) → summarize<"summarize in one sentence">(op5, keyword)`}},
		{"category changed", `summarize<"summarize in one sentence">`, `answer_question<"summarize in one sentence">`,
			[]string{`edited.cog:9:38: op7: category changed: summarize<"summarize in one sentence">(op5) → answer_question<"summarize in one sentence">(op5)`}},
		{"main category changed", `summarize<`, `logical_reasoning.summarize<`, nil}, // one side bare: same subcategory
		{"several kinds at once", `summarize<"summarize in one sentence">(op5)`, `information_comprehension.answer_question<"the US state of the mountain">(op5, keyword)`,
			[]string{`edited.cog:9:38: op7: description edited, inputs changed, category changed: summarize<"summarize in one sentence">(op5) → information_comprehension.answer_question<"the US state of the mountain">(op5, keyword)`}},
		{"deleted by a structural function", `summarize<"summarize in one sentence">(op5)`, `same(op5)`,
			[]string{`compiled.cog:9:38: op7: deleted: summarize<"summarize in one sentence">(op5) → (none)`}},
		{"added", `type(textbox(name: "Notes"), summarize<"summarize in one sentence">(op5))`,
			`type(textbox(name: "Notes"), summarize<"summarize in one sentence">(op5))` + "\n  op8 = type(textbox(name: \"Tags\"), classify<\"the article's topic\">(op5))",
			[]string{`edited.cog:10:37: op8: added: (none) → classify<"the article's topic">(op5)`}},
		{"step deleted", "  op5 = select_text(extract_information<\"the introductory paragraph\">(op2))\n", "",
			[]string{`compiled.cog:8:21: op5: deleted: extract_information<"the introductory paragraph">(op2) → (none)`}},
		{"nested dependency added", `summarize<"summarize in one sentence">(op5)`, `summarize<"summarize in one sentence">(extract_information<"the first sentence">(op5))`,
			[]string{
				`edited.cog:9:38: op7: inputs changed: summarize<"summarize in one sentence">(op5) → summarize<"summarize in one sentence">(extract_information<"the first sentence">(op5))`,
				`edited.cog:9:77: op7: added: (none) → extract_information<"the first sentence">(op5)`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			edited := compiled
			if tc.old != "" {
				if !strings.Contains(compiled, tc.old) {
					t.Fatalf("%q not in the compiled workflow", tc.old)
				}
				edited = strings.Replace(compiled, tc.old, tc.new, 1)
			}
			cs := Changes(parse(t, "compiled.cog", compiled), parse(t, "edited.cog", edited))
			var got []string
			for _, c := range cs {
				got = append(got, c.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestChangesInLoopsAndRenamedTasks: steps inside loops are compared; a
// task that is only on one side contributes all its dependencies.
func TestChangesInLoopsAndRenamedTasks(t *testing.T) {
	orig := `task fill "Fill abstracts" {
  driver browser
  for row in rows(table(name: "Reading list"))[1:] {
    op6 = select_text(extract_information<"the abstract">(row))
  }
}
`
	edited := strings.Replace(orig, `"the abstract"`, `"the abstract of the paper"`, 1)
	cs := Changes(parse(t, "a.cog", orig), parse(t, "b.cog", edited))
	if len(cs) != 1 || cs[0].Kind != DescriptionEdited || cs[0].Task != "fill" || cs[0].Where() != "a.cog:4:23 → b.cog:4:23" {
		t.Errorf("loop: %v", cs)
	}
	renamed := strings.Replace(orig, "task fill", "task fill_abstracts", 1)
	cs = Changes(parse(t, "a.cog", orig), parse(t, "b.cog", renamed))
	if len(cs) != 2 || cs[0].Kind != Added || cs[0].Task != "fill_abstracts" || cs[1].Kind != Deleted || cs[1].Task != "fill" {
		t.Errorf("renamed task: %v", cs)
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[Kind]string{
		0:                                   "unchanged",
		Added:                               "added",
		DescriptionEdited | CategoryChanged: "description edited, category changed",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d) = %q, want %q", k, got, want)
		}
	}
}
