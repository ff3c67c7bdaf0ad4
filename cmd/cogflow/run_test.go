package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

func TestRunDryRun(t *testing.T) {
	r := runCLI(t, "", "run", examplePath("reading_list_abstracts.cog"), "--dry-run", "--input", "skip=2")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"task reading_list_abstracts: Fill in each paper's abstract from the wiki",
		`input skip = "2" (given)`,
		"for paper in rows(reading_list)[skip:] (for each item found at run time):",
		`[judgement: match_element<"the search result whose title matches the paper">]`,
		"10. line 28   op10 = type(paper.cell(\"Abstract\"), op8)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, r.stdout)
		}
	}
	secret := runCLI(t, "", "run", examplePath("reply_from_subject.cog"), "--dry-run", "--input", "pin=98765")
	if strings.Contains(secret.stdout, "98765") || !strings.Contains(secret.stdout, "input pin = [secret]") {
		t.Errorf("dry run shows the secret or not its mask:\n%s", secret.stdout)
	}
}

func TestRunUsageErrors(t *testing.T) {
	dir := t.TempDir()
	csv := filepath.Join(dir, "empty.csv")
	os.WriteFile(csv, []byte("note\n"), 0o644)
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"run"}, exitUsage, "give exactly one workflow file"},
		{[]string{"run", examplePath("keyword_intro.cog"), "--task", "nope"}, exitUsage, "has no task nope"},
		{[]string{"run", examplePath("keyword_intro.cog"), "--input", "novalue"}, exitUsage, "want name=value"},
		{[]string{"run", examplePath("keyword_intro.cog"), "--inputs", csv}, exitUsage, "has a header but no rows"},
		{[]string{"run", examplePath("uia_translate_clipboard.cog")}, exitNoDriver, "Windows"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
}

// TestE2EInputsCSV runs a task once per CSV row and checks the per-row
// report, the site's state and the journal listing.
func TestE2EInputsCSV(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	dir := t.TempDir()
	wf := writeWorkflow(t, "note.cog", `task note "Write a note" {
  driver browser
  input text: text
  op1 = open("`+base+`/notes")
  op2 = type(textbox(name: "Notes"), text)
  op3 = click(button(name: "Save"))
}
`)
	csv := filepath.Join(dir, "rows.csv")
	os.WriteFile(csv, []byte("text\nfirst note\n\"second, with a comma\"\n"), 0o644)
	root := filepath.Join(dir, "runs")
	r := runWith(context.Background(), "", "run", wf, "--inputs", csv, "--dir", root)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "row 1: ok: 3 steps") || !strings.Contains(r.stdout, "row 2: ok: 3 steps") {
		t.Errorf("per-row report missing:\n%s", r.stdout)
	}
	if got := s.State().Notes; got != "second, with a comma" {
		t.Errorf("notes = %q", got)
	}
	runs, err := journal.List(root)
	if err != nil || len(runs) != 2 || runs[0].Row != 1 || runs[1].Row != 0 {
		t.Fatalf("runs = %+v, %v", runs, err)
	}
	// Both rows are rows of one batch, recorded as run one after another.
	bs, err := journal.ListBatches(root)
	if err != nil || len(bs) != 1 || bs[0].Rows != 2 || bs[0].InputsFile != csv || runs[0].Batch != bs[0].ID || runs[1].Batch != bs[0].ID {
		t.Errorf("batch: %+v, %v; runs name %q, %q", bs, err, runs[0].Batch, runs[1].Batch)
	}
	list := runWith(context.Background(), "", "runs", "--dir", root)
	show := runWith(context.Background(), "", "runs", "show", runs[0].ID, "--dir", root)
	if list.code != exitOK || !strings.Contains(list.stdout, runs[0].ID) || show.code != exitOK || !strings.Contains(show.stdout, "op3") {
		t.Errorf("runs list/show:\n%s\n%s%s", list.stdout, show.stdout, show.stderr)
	}
}
