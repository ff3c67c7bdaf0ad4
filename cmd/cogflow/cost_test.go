package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm"
)

// costRows returns the table rows of cost's output that describe
// dependencies, their cells split on runs of two or more spaces.
func costRows(out string) [][]string {
	var rows [][]string
	split := regexp.MustCompile(`\s{2,}`)
	for _, line := range strings.Split(out, "\n") {
		if len(line) > 0 && line[0] >= '0' && line[0] <= '9' {
			rows = append(rows, split.Split(strings.TrimSpace(line), -1))
		}
	}
	return rows
}

func TestCostKeywordIntro(t *testing.T) {
	isolateConfig(t)
	r := runCLI(t, "", "cost", examplePath("keyword_intro.cog"))
	if r.code != exitOK || r.stderr != "" {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "task keyword_intro: 3 cognitive dependencies\n") {
		t.Errorf("heading:\n%s", r.stdout)
	}
	// Three dependencies; the search result may be picked by an exact
	// match of the keyword.
	want := [][]string{
		{"24", "op4", "run", `match_element<"the search result most related to the keyword">`, "contextual_selection", "gpt-4o-mini", "1 (maybe 0)", "~2500 in, ~10 out"},
		{"25", "op5", "run", `extract_information<"the introductory paragraph about the keyword">`, "information_recall", "gpt-4o-mini", "1", "~1500 in, ~150 out"},
		{"27", "op7", "run", `summarize<"summarize in one sentence">`, "information_comprehension", "gpt-4o-mini", "1", "~1200 in, ~120 out"},
	}
	if got := costRows(r.stdout); !equalRows(got, want) {
		t.Errorf("rows:\n%q\nwant:\n%q\noutput:\n%s", got, want, r.stdout)
	}
	for _, line := range []string{
		"Total: 3 LLM calls\n",
		"  at least 2 when an exact text match answers op4 without an LLM\n",
		"Tokens: ~5200 in / ~280 out (a rough figure per main category; cache hits cost nothing)\n",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("output lacks %q:\n%s", line, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "\nCost: ~$") {
		t.Errorf("no cost:\n%s", r.stdout)
	}
}

// TestCostPrice prices with a fixed table, so the figures do not move
// with runtime/llm's list prices.
func TestCostPrice(t *testing.T) {
	isolateConfig(t)
	saved := costPrice
	t.Cleanup(func() { costPrice = saved })
	costPrice = func(model string, in, out int) (float64, bool) {
		if model != "priced" {
			return 0, false
		}
		return float64(in)*1e-6 + float64(out)*10e-6, true // $1 and $10 per million
	}
	t.Setenv("COGFLOW_TEXT_MODEL", "priced")
	r := runCLI(t, "", "cost", examplePath("keyword_intro.cog"))
	// 5200 in, 280 out: $0.0052 + $0.0028.
	if !strings.Contains(r.stdout, "\nCost: ~$0.0080 at list prices of "+llm.PricesAsOf+"\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
	r = runCLI(t, "", "cost", examplePath("reading_list_abstracts.cog"), "--iterations", "10")
	// Per iteration 4000 in and 160 out: $0.0056, × 10.
	if !strings.Contains(r.stdout, "\nCost: ~$0 + ~$0.0056 per iteration of `for paper` × 10 = ~$0.0560 at list prices of") {
		t.Errorf("output:\n%s", r.stdout)
	}
	t.Setenv("COGFLOW_ELEMENT_MODEL", "local")
	r = runCLI(t, "", "cost", examplePath("keyword_intro.cog"))
	if !strings.Contains(r.stdout, "; calls to local not counted (no list price)\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
	t.Setenv("COGFLOW_TEXT_MODEL", "local")
	r = runCLI(t, "", "cost", examplePath("keyword_intro.cog"))
	if !strings.Contains(r.stdout, "\nCost: unknown: no list price for local (local or unlisted model)\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
}

func TestCostReadingListPerIteration(t *testing.T) {
	isolateConfig(t)
	t.Setenv("COGFLOW_TEXT_MODEL", "text-m")
	t.Setenv("COGFLOW_ELEMENT_MODEL", "element-m")
	path := examplePath("reading_list_abstracts.cog")
	r := runCLI(t, "", "cost", path)
	if r.code != exitOK {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	if !strings.HasPrefix(r.stdout, "task reading_list_abstracts: 2 cognitive dependencies, 2 inside loops\n") {
		t.Errorf("heading:\n%s", r.stdout)
	}
	want := [][]string{
		{"25", "op7", "iteration of `for paper`", `match_element<"the search result whose title matches the paper">`, "contextual_selection", "element-m", "1 (maybe 0)", "~2500 in, ~10 out"},
		{"26", "op8", "iteration of `for paper`", `extract_information<"the abstract of the paper">`, "information_recall", "text-m", "1", "~1500 in, ~150 out"},
	}
	if got := costRows(r.stdout); !equalRows(got, want) {
		t.Errorf("rows:\n%q\nwant:\n%q", got, want)
	}
	for _, line := range []string{
		"Total: 0 + 2 per iteration of `for paper` (× --iterations, default: unknown)\n",
		"  at least 0 + 1 per iteration of `for paper` when an exact text match answers op7 without an LLM\n",
		"Tokens: ~0 in / ~0 out + ~4000 in / ~160 out per iteration of `for paper` (",
	} {
		if !strings.Contains(r.stdout, line) {
			t.Errorf("output lacks %q:\n%s", line, r.stdout)
		}
	}

	for _, tc := range []struct {
		args  []string
		lines []string
	}{
		{[]string{"--iterations", "5"}, []string{
			"Total: 0 + 2 per iteration of `for paper` × 5 = 10 LLM calls\n",
			"  at least 0 + 1 per iteration of `for paper` × 5 = 5 when",
			"= ~20000 in / ~800 out",
		}},
		{[]string{"--iterations", "paper=3"}, []string{"× 3 = 6 LLM calls\n"}},
		{[]string{"--iterations", "0"}, []string{"× 0 = 0 LLM calls\n"}},
	} {
		r := runCLI(t, "", append([]string{"cost", path}, tc.args...)...)
		if r.code != exitOK {
			t.Fatalf("%v: code %d, stderr:\n%s", tc.args, r.code, r.stderr)
		}
		for _, line := range tc.lines {
			if !strings.Contains(r.stdout, line) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, line, r.stdout)
			}
		}
	}
}

// TestCostSkillsAndNestedLoops: dependencies in a called skill count at
// the call, and nested loops multiply.
func TestCostSkillsAndNestedLoops(t *testing.T) {
	isolateConfig(t)
	r := runCLI(t, "", "cost", examplePath("wiki_glossary.cog"))
	if r.code != exitOK {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	rows := costRows(r.stdout)
	if len(rows) != 3 || rows[0][1] != "op2 → define.s4" || rows[0][2] != "iteration of `for term`" || rows[2][0] != "19" {
		t.Errorf("rows: %q", rows)
	}
	if !strings.Contains(r.stdout, "Total: 0 + 3 per iteration of `for term` (× --iterations, default: unknown)\n") {
		t.Errorf("output:\n%s", r.stdout)
	}

	dir := t.TempDir()
	path := writeFile(t, dir, "nested.cog", `task nested "Nested loops" {
  driver browser
  input terms: list<text> = ["a", "b"]
  input langs: list<text> = ["fr", "de"]

  anchor notes = textbox(name: "Notes", id: "notes")

  op1 = open("http://127.0.0.1:8088/notes")
  op2 = type(notes, generate<"a title for the glossary">(terms))
  for term in terms {
    op3 = type(notes, summarize<"a definition of the term">(term))
    for lang in langs {
      op4 = type(notes, translate<"the term in the language">(term, lang))
      op5 = click(match_element<"the language tab">())
    }
  }
}
`)
	r = runCLI(t, "", "cost", path)
	if r.code != exitOK {
		t.Fatalf("code %d, stderr:\n%s", r.code, r.stderr)
	}
	rows = costRows(r.stdout)
	if len(rows) != 4 || rows[2][2] != "iteration of `for lang` in `for term`" || rows[3][6] != "1" /* no inputs: no exact match */ {
		t.Errorf("rows: %q", rows)
	}
	if !strings.Contains(r.stdout, "Total: 1 + 1 per iteration of `for term` + 2 per iteration of `for lang` in `for term` (× --iterations, default: unknown)\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "at least") {
		t.Errorf("a match without inputs reported as maybe free:\n%s", r.stdout)
	}
	r = runCLI(t, "", "cost", path, "--iterations", "2", "--iterations", "lang=3")
	if !strings.Contains(r.stdout, "+ 2 per iteration of `for lang` in `for term` × 6 (2 × 3) = 15 LLM calls\n") {
		t.Errorf("output:\n%s", r.stdout)
	}
}

func TestCostErrors(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no file", []string{"cost"}, exitUsage, "give exactly one workflow file"},
		{"missing file", []string{"cost", dir + "/none.cog"}, exitUsage, "none.cog"},
		{"bad workflow", []string{"cost", writeFile(t, dir, "bad.cog", srcOneError)}, exitBadInput, "bad.cog:3:15: error:"},
		{"unknown loop", []string{"cost", examplePath("reading_list_abstracts.cog"), "--iterations", "row=3"}, exitUsage, "no loop `for row` (loops: paper)"},
		{"bad count", []string{"cost", examplePath("reading_list_abstracts.cog"), "--iterations", "many"}, exitUsage, "want a count of iterations"},
		{"no task", []string{"cost", examplePath("keyword_intro.cog"), "--task", "nope"}, exitUsage, "has no task nope"},
	} {
		r := runCLI(t, "", tc.args...)
		if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
			t.Errorf("%s: code %d, stderr:\n%s", tc.name, r.code, r.stderr)
		}
	}

	// No dependencies at all.
	r := runCLI(t, "", "cost", writeFile(t, dir, "clean.cog", srcClean))
	if r.code != exitOK || !strings.Contains(r.stdout, "task t: 0 cognitive dependencies\nTotal: 0 LLM calls") {
		t.Errorf("code %d, stdout:\n%s", r.code, r.stdout)
	}

	// A bad configuration is reported, and the estimate still made.
	writeFile(t, dir, "cogflow.hcl", "llm {\n  temperature = 7\n}\n")
	r = runCLI(t, "", "cost", examplePath("keyword_intro.cog"), "--dir", dir)
	if r.code != exitOK || !strings.Contains(r.stderr, "cogflow.hcl:2:17: error: invalid value for temperature") || !strings.Contains(r.stdout, "Total: 3 LLM calls") {
		t.Errorf("code %d, stderr:\n%s\nstdout:\n%s", r.code, r.stderr, r.stdout)
	}
}

func equalRows(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "|") != strings.Join(b[i], "|") {
			return false
		}
	}
	return true
}
