package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
	"github.com/cogflow/cogflow/stdlib"
)

// The knowledge base learns from a person's edit: the scripts below stand
// in for the model at each of the three requests of TestReflectLearns.
const (
	// firstExtractorReply compiles keyword.trace.json; op7 gets the wrong
	// kind of dependency, a summary.
	firstExtractorReply = "op2 = input\n" +
		"op4 = match_element<\"the search result whose title is the searched keyword\">(op2)\n" +
		"op5 = extract_information<\"the introduction paragraph of the article\">(op4)\n" +
		"op7 = summarize<\"the US state the mountain is in, in one word\">(op5)\n" +
		"goal: Look up a mountain on the wiki and note the state it is in\nparams: mountain\n"
	compiledDep = `summarize<"the US state the mountain is in, in one word">(op5)`
	// editedDep is what the person wrote instead: a subcategory the
	// knowledge base does not have yet, qualified with its main category.
	editedDep = `information_comprehension.locate<"the US state the mountain is in">(op5)`

	locateDefinition = "Name the place, such as a state, a country or a city, that a text or a value says something is in or comes from."
	locateExample1   = `locate<"the US state the mountain is in">(op5)`
	locateExample2   = `information_comprehension.locate<"the country a phone number's calling code belongs to">(op3)`
	reflectionReply  = "REASON: The extractor chose summarize because the typed note was short, but the note names the state the\n" +
		"paragraph places the mountain in: it answers where, which no subcategory of the knowledge base describes.\n" +
		"UPDATES:\n" +
		"ADD_SUBCATEGORY information_comprehension.locate: " + locateDefinition + " | " + locateExample1 + " | " + locateExample2 + "\n"

	// secondExtractorReply compiles devtools_form.trace.json, a different
	// task, with the learned subcategory.
	secondDep            = `locate<"the country the phone number belongs to">(op7)`
	secondExtractorReply = "op4 = input\nop7 = input\nop8 = " + secondDep + "\n" +
		"goal: Fill in the order form for a customer\nparams: name, phone\n"
)

// TestReflectLearns is the acceptance test of reflection: compile a
// demonstration, edit one dependency as a person would, reflect --apply,
// then compile a different demonstration: its extractor prompt carries the
// learned subcategory and its examples, and the workflow that uses it
// checks clean.
func TestReflectLearns(t *testing.T) {
	isolateConfig(t)
	keywordTrace, _ := filepath.Abs("../../runtime/trace/testdata/keyword.trace.json")
	formTrace, _ := filepath.Abs("../../runtime/trace/testdata/devtools_form.trace.json")
	srv := model(t,
		llmtest.Rule{Name: "first extractor", Match: both(llmtest.Contains("dependency extractor of cogflow"), llmtest.Contains("Denali")), Reply: llmtest.Text(firstExtractorReply)},
		// The reflection rule answers only a request that shows both the
		// compiled and the corrected dependency; any other gets a 500 and
		// fails the test.
		llmtest.Rule{Name: "reflection", Match: both(llmtest.Contains("reflection module of cogflow"), both(llmtest.LastUserContains(compiledDep), llmtest.LastUserContains(editedDep))), Reply: llmtest.Text(reflectionReply)},
		llmtest.Rule{Name: "second extractor", Match: both(llmtest.Contains("dependency extractor of cogflow"), llmtest.Contains("Lovelace")), Reply: llmtest.Text(secondExtractorReply)},
	)
	t.Chdir(t.TempDir()) // a project folder: .cogflow/ is created here

	if r := runCLI(t, "", "compile", keywordTrace, "-o", "keyword.cog"); r.code != exitOK {
		t.Fatalf("compile: exit %d\n%s", r.code, r.stderr)
	}
	src, _ := os.ReadFile("keyword.cog")
	if !strings.Contains(string(src), compiledDep) {
		t.Fatalf("the compiled workflow lacks %s:\n%s", compiledDep, src)
	}
	// The person corrects op7 in their editor.
	os.WriteFile("keyword.cog", []byte(strings.Replace(string(src), compiledDep, editedDep, 1)), 0o644)

	r := runCLI(t, "", "reflect", "keyword.cog", "--apply")
	if r.code != exitOK {
		t.Fatalf("reflect: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("cogflow reflect keyword.cog --apply:\n%s", r.stdout)
	for _, want := range []string{
		"1 dependency change(s) in keyword.cog:",
		"\n  keyword.cog:12:51: op7",
		"op7: description edited, category changed",
		"was: " + compiledDep + "  (at .cogflow/compiled/keyword.cog:12:", "now: " + editedDep,
		"why: The extractor chose summarize",
		"update: ADD_SUBCATEGORY information_comprehension.locate: " + locateDefinition,
		"--- a/.cogflow/knowledge.hcl",
		"+  subcategory \"locate\" {",
		"Wrote .cogflow/knowledge.hcl",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("reflect's output lacks %q:\n%s", want, r.stdout)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests after reflect, want 2", len(reqs))
	}
	refl := reqs[1]
	for _, want := range []string{compiledDep, editedDep, "Goal: Look up a mountain on the wiki and note the state it is in", "UPDATES:"} {
		if !strings.Contains(refl.LastUser(), want) {
			t.Errorf("the reflection request lacks %q", want)
		}
	}
	if refl.Temperature == nil || *refl.Temperature != 0.2 {
		t.Errorf("reflection temperature %v, want 0.2", refl.Temperature)
	}
	learned, _ := os.ReadFile(".cogflow/knowledge.hcl")
	if !strings.Contains(string(learned), "  # Learned by cogflow reflect from keyword.cog on ") ||
		!strings.HasPrefix(string(learned), string(stdlib.KnowledgeHCL[:200])) {
		t.Errorf("the written knowledge base lacks the header or the learned comment:\n%s", learned)
	}
	if v := runCLI(t, "", "kb", "validate"); v.code != exitOK {
		t.Errorf("kb validate: exit %d\n%s", v.code, v.stderr)
	}
	if c := runCLI(t, "", "check", "keyword.cog"); c.code != exitOK || strings.Contains(c.stderr, "locate") {
		t.Errorf("the edited workflow does not check clean with the learned subcategory: exit %d\n%s", c.code, c.stderr)
	}

	// A different demonstration, compiled afterwards.
	if r := runCLI(t, "", "compile", formTrace, "-o", "form.cog"); r.code != exitOK {
		t.Fatalf("second compile: exit %d\n%s", r.code, r.stderr)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	prompt := reqs[2].LastUser()
	for _, want := range []string{"locate", locateDefinition, "example: " + locateExample1, "example: " + locateExample2} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the second extractor prompt lacks %q", want)
		}
	}
	form, _ := os.ReadFile("form.cog")
	if !strings.Contains(string(form), "op8  = type(element(name: \"Country\", id: \"country\", css: \"#country\"), "+secondDep+")") {
		t.Errorf("the second workflow does not use the learned subcategory:\n%s", form)
	}
	if c := runCLI(t, "", "check", "form.cog"); c.code != exitOK || strings.Contains(c.stderr, "warning") {
		t.Errorf("the second workflow does not check clean: exit %d\n%s", c.code, c.stderr)
	}
}

func both(a, b func(llmtest.Req) bool) func(llmtest.Req) bool {
	return func(r llmtest.Req) bool { return a(r) && b(r) }
}

// reflectProject writes a compiled original and its edited copy into a
// fresh project folder, which becomes the working directory. Call
// isolateConfig first.
func reflectProject(t *testing.T, compiled, edited string) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll(filepath.Join(".cogflow", "compiled"), 0o755)
	writeFile(t, filepath.Join(dir, ".cogflow", "compiled"), "notes.cog", compiled)
	writeFile(t, dir, "notes.cog", edited)
}

const notesCompiled = `task notes "Note a summary" {
  driver browser
  op1 = open("http://127.0.0.1:8088/wiki")
  op2 = select_text(text(id: "intro"))
  op3 = type(textbox(name: "Notes"), summarize<"summarize in one sentence">(op2))
}
`

// TestReflectRefusesBadReplies: a malformed reply, an update that would
// remove a main category and one that adds a main category all leave the
// knowledge base untouched, with a clear error.
func TestReflectRefusesBadReplies(t *testing.T) {
	edited := strings.Replace(notesCompiled, `"summarize in one sentence"`, `"in ten words"`, 1)
	for _, tc := range []struct {
		name, reply, want string
	}{
		{"malformed", "The summary should be shorter.\nADD_RULE: Keep notes short.", `reflection reply: no line "REASON: …"`},
		{"removes a main category", "REASON: recall is never used\nUPDATES:\nREMOVE_CATEGORY information_recall", "line 3: REMOVE_CATEGORY is refused: the five main categories are a closed set"},
		{"adds a main category", "REASON: x\nUPDATES:\nADD_SUBCATEGORY note_taking.shorten: Make a text shorter. | shorten<\"a\">(op1) | shorten<\"b\">(op2)", `"note_taking" is not a main category; the main categories are a closed set`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t)
			model(t, llmtest.Rule{Name: "reflection", Reply: llmtest.Text(tc.reply)})
			reflectProject(t, notesCompiled, edited)
			r := runCLI(t, "", "reflect", "notes.cog", "--apply")
			if r.code != exitBadInput || !strings.Contains(r.stderr, tc.want) || !strings.Contains(r.stderr, "the knowledge base is left unchanged") {
				t.Errorf("exit %d, want %d and %q:\n%s", r.code, exitBadInput, tc.want, r.stderr)
			}
			if _, err := os.Stat(".cogflow/knowledge.hcl"); err == nil {
				t.Error("a knowledge base was written")
			}
		})
	}
}

// TestReflectWithoutModel lists the changes and says no model is
// configured.
func TestReflectWithoutModel(t *testing.T) {
	isolateConfig(t)
	reflectProject(t, notesCompiled, strings.Replace(notesCompiled, "(op2))", "(op2, op1))", 1))
	r := runCLI(t, "", "reflect", "notes.cog")
	if r.code != exitUsage || !strings.Contains(r.stdout, "op3: inputs changed") || !strings.Contains(r.stderr, "no model is configured") {
		t.Errorf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestReflectDryRunAndNone: the default is a dry run that writes nothing;
// NONE proposes no change; an unchanged file needs no model at all.
func TestReflectDryRunAndNone(t *testing.T) {
	isolateConfig(t)
	edited := strings.Replace(notesCompiled, `"summarize in one sentence"`, `"in ten words"`, 1)
	model(t,
		llmtest.Rule{Name: "none", Match: llmtest.Contains("NONE_PLEASE"), Reply: llmtest.Text("REASON: fine\nUPDATES:\nNONE")},
		llmtest.Rule{Name: "rule", Reply: llmtest.Text("REASON: notes must be short\nUPDATES:\nADD_RULE: A note typed by the user is at most ten words.")},
	)
	reflectProject(t, notesCompiled, edited)
	r := runCLI(t, "", "reflect", "notes.cog")
	if r.code != exitOK || !strings.Contains(r.stdout, "+rule \"15\" {") || !strings.Contains(r.stdout, "Dry run: .cogflow/knowledge.hcl is unchanged") {
		t.Errorf("dry run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(".cogflow/knowledge.hcl"); err == nil {
		t.Error("a dry run wrote the knowledge base")
	}
	os.WriteFile("notes.cog", []byte(strings.Replace(edited, `"in ten words"`, `"in ten words NONE_PLEASE"`, 1)), 0o644)
	if r := runCLI(t, "", "reflect", "notes.cog", "--apply"); r.code != exitOK || !strings.Contains(r.stdout, "needs no update") {
		t.Errorf("NONE: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	os.WriteFile("notes.cog", []byte(notesCompiled), 0o644)
	if r := runCLI(t, "", "reflect", "notes.cog"); r.code != exitOK || !strings.Contains(r.stdout, "no dependency of notes.cog changed") {
		t.Errorf("unchanged: exit %d\n%s", r.code, r.stdout)
	}
}

func TestReflectUsage(t *testing.T) {
	isolateConfig(t)
	reflectProject(t, notesCompiled, notesCompiled)
	os.Remove(".cogflow/compiled/notes.cog")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"reflect"}, "give exactly one workflow file"},
		{[]string{"reflect", "notes.cog", "--apply", "--dry-run"}, "exclude each other"},
		{[]string{"reflect", "notes.cog"}, "no compiled original .cogflow/compiled/notes.cog"},
		{[]string{"reflect", "notes.cog", "--against", "HEAD"}, "git show HEAD:notes.cog"},
	} {
		if r := runCLI(t, "", tc.args...); r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s", tc.args, r.code, exitUsage, tc.want, r.stderr)
		}
	}
}

// TestReflectAgainstGit compares with the file as committed instead of
// the compiled original.
func TestReflectAgainstGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	isolateConfig(t)
	reflectProject(t, notesCompiled, notesCompiled)
	os.Remove(".cogflow/compiled/notes.cog")
	for _, args := range [][]string{{"init", "-q"}, {"add", "notes.cog"}, {"-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "compiled"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile("notes.cog", []byte(strings.Replace(notesCompiled, `summarize<"summarize in one sentence">(op2)`, `same(op2)`, 1)), 0o644)
	r := runCLI(t, "", "reflect", "notes.cog", "--against", "HEAD")
	if r.code != exitUsage || !strings.Contains(r.stdout, "HEAD:notes.cog:5:38 (compiled): op3: deleted") || !strings.Contains(r.stderr, "no model is configured") {
		t.Errorf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
