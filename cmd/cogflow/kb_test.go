package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/stdlib"
)

func TestKBCommands(t *testing.T) {
	isolateConfig(t)
	t.Chdir(t.TempDir())
	// Without a project file the default is listed, and said to be.
	if r := runCLI(t, "", "kb", "list"); r.code != exitOK || !strings.Contains(r.stdout, "# the default knowledge base (no .cogflow/knowledge.hcl") {
		t.Errorf("list without a project file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "kb", "validate"); r.code != exitUsage || !strings.Contains(r.stderr, "cogflow kb init creates it") {
		t.Errorf("validate without a project file: exit %d\n%s", r.code, r.stderr)
	}
	r := runCLI(t, "", "kb", "init")
	if r.code != exitOK || !strings.Contains(r.stdout, "wrote .cogflow/knowledge.hcl") {
		t.Fatalf("init: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got, _ := os.ReadFile(".cogflow/knowledge.hcl"); !bytes.Equal(got, stdlib.KnowledgeHCL) {
		t.Error("init did not copy the default knowledge base")
	}
	os.WriteFile(".cogflow/knowledge.hcl", append(stdlib.KnowledgeHCL, "\n# mine\n"...), 0o644)
	if r := runCLI(t, "", "kb", "init"); r.code != exitUsage || !strings.Contains(r.stderr, "exists") {
		t.Errorf("init over an existing file: exit %d\n%s", r.code, r.stderr)
	}
	if got, _ := os.ReadFile(".cogflow/knowledge.hcl"); !bytes.HasSuffix(got, []byte("# mine\n")) {
		t.Error("init replaced an existing file without --force")
	}
	if r := runCLI(t, "", "kb", "init", "--force"); r.code != exitOK {
		t.Errorf("init --force: exit %d\n%s", r.code, r.stderr)
	}

	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout for exitOK, else in stderr
	}{
		{[]string{"kb", "list"}, exitOK, "information_comprehension (text): Understand a text"},
		{[]string{"kb", "list"}, exitOK, "\n  summarize: Condense a text to its main points"},
		{[]string{"kb", "show", "contextual_selection"}, exitOK, "contextual_selection (main category, returns element)"},
		{[]string{"kb", "show", "summarize"}, exitOK, "information_comprehension.summarize (returns text)\n  Condense"},
		{[]string{"kb", "show", "logical_reasoning.calculate"}, exitOK, "(returns number)"},
		{[]string{"kb", "show", "13"}, exitOK, "rule 13: Use a subcategory of this knowledge base"},
		{[]string{"kb", "show", "sumarize"}, exitBadInput, `no main category, subcategory or rule "sumarize" (did you mean summarize?)`},
		{[]string{"kb", "show"}, exitUsage, "give one name"},
		{[]string{"kb", "validate"}, exitOK, ".cogflow/knowledge.hcl: ok: 5 main categories"},
		{[]string{"kb", "frobnicate"}, exitUsage, `unknown subcommand "frobnicate"`},
		{[]string{"kb"}, exitUsage, "Usage: cogflow kb"},
	} {
		r := runCLI(t, "", tc.args...)
		out := r.stdout
		if tc.code != exitOK {
			out = r.stderr
		}
		if r.code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q\n%s%s", tc.args, r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
	}
}

// TestProjectKBErrors: a broken project knowledge base is reported with
// its position by kb validate, check and compile.
func TestProjectKBErrors(t *testing.T) {
	isolateConfig(t)
	trace, _ := filepath.Abs("../../runtime/trace/testdata/keyword.trace.json")
	dir := t.TempDir()
	t.Chdir(dir)
	os.MkdirAll(".cogflow", 0o755)
	broken := strings.Replace(string(stdlib.KnowledgeHCL), `category "logical_reasoning" {`, `category "logical_reasonin" {`, 1)
	os.WriteFile(".cogflow/knowledge.hcl", []byte(broken), 0o644)
	line := strings.Count(broken[:strings.Index(broken, `category "logical_reasonin"`)], "\n") + 1
	pos := ".cogflow/knowledge.hcl:" + strconv.Itoa(line) + ":10: error: unknown main category"
	if r := runCLI(t, "", "kb", "validate"); r.code != exitBadInput || !strings.Contains(r.stderr, pos) || !strings.Contains(r.stderr, `= help: did you mean "logical_reasoning"?`) {
		t.Errorf("validate: exit %d\n%s", r.code, r.stderr)
	}
	wf := writeFile(t, dir, "ok.cog", "task ok \"x\" {\n  driver browser\n  op1 = open(\"http://127.0.0.1:8088/\")\n}\n")
	if r := runCLI(t, "", "check", wf); r.code != exitBadInput || !strings.Contains(r.stderr, pos) || !strings.Contains(r.stderr, `category "logical_reasonin" {`) {
		t.Errorf("check: exit %d\n%s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "compile", "--no-llm", trace); r.code != exitBadInput || !strings.Contains(r.stderr, pos) {
		t.Errorf("compile: exit %d\n%s", r.code, r.stderr)
	}
}
