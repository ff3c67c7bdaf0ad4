package main

import (
	"os"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompile compiles the recorded traces: the result checks clean, the
// reading-list demonstration (one row) acts on that row, no loop, and
// the compiled original is kept for later diffs.
func TestCompile(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "reading.cog")
	r := runCLI(t, "", "compile", "../../runtime/trace/testdata/reading_list.trace.json", "-o", out, "--dir", filepath.Join(dir, ".cogflow"))
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(src), "# Compiled from reading_list.trace.json by cogflow compile") {
		t.Errorf("the header does not cite the trace:\n%s", src)
	}
	// One row done by hand is no evidence of iteration: no loop, and the
	// demonstrated row is the one acted on.
	if strings.Contains(string(src), "for row in") || !strings.Contains(string(src), `rows(table(path: "main/table"))[0].cell("Abstract")`) {
		t.Errorf("the one-row demonstration is not compiled as that row:\n%s", src)
	}
	if !strings.Contains(r.stderr, "warning: op7: click on a list item") {
		t.Errorf("the judgement call is not flagged:\n%s", r.stderr)
	}
	kept, err := os.ReadFile(filepath.Join(dir, ".cogflow", "compiled", "reading.cog"))
	if err != nil || string(kept) != string(src) {
		t.Errorf("compiled original not kept: %v", err)
	}
	if c := runCLI(t, "", "check", "-q", out); c.code != exitOK {
		t.Errorf("the compiled workflow does not check:\n%s", c.stderr)
	}
	if f := runCLI(t, "", "fmt", "-l", out); f.code != exitOK {
		t.Errorf("the compiled workflow is not in canonical layout")
	}

	bad := filepath.Join(dir, "bad.trace.json")
	os.WriteFile(bad, []byte(`{"format": "cogflow-trace", "version": 2}`), 0o644)
	if r := runCLI(t, "", "compile", bad); r.code != exitBadInput || !strings.Contains(r.stderr, "trace version 2 is not supported") {
		t.Errorf("version 2: exit %d, %s", r.code, r.stderr)
	}
}

// TestCompileWithModel: with a model configured, the extractor's answer
// replaces the rules' placeholders with described dependencies and a goal.
func TestCompileWithModel(t *testing.T) {
	isolateConfig(t)
	const reply = "op2 = input\n" +
		"op4 = match_element<\"the search result whose title is the searched keyword\">(op2)\n" +
		"op5 = extract_information<\"the introduction paragraph of the article\">(op4)\n" +
		"op7 = summarize<\"the US state the mountain is in, in one word\">(op5)\n" +
		"goal: Look up a mountain on the wiki and note the state it is in\nparams: mountain\n"
	srv := model(t, llmtest.Rule{Name: "extractor", Match: llmtest.Contains("dependency extractor of cogflow"), Reply: llmtest.Text(reply)})
	r := runCLI(t, "", "compile", "../../runtime/trace/testdata/keyword.trace.json", "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		`task recorded_task "Look up a mountain on the wiki and note the state it is in"`,
		`match_element<"the search result whose title is the searched keyword">(op2, within: list(name: "Search results"))`,
		`summarize<"the US state the mountain is in, in one word">(op5)`,
		`input mountain: text = "Denali"`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("compiled workflow lacks %s:\n%s\n%s", want, r.stdout, r.stderr)
		}
	}
	if srv.Count() != 1 {
		t.Errorf("%d model requests, want 1", srv.Count())
	}
}
