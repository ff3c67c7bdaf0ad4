package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

func TestReportFormat(t *testing.T) {
	tests := []struct {
		flag, file, want, wantErr string
	}{
		{"", "", "junit", ""},
		{"", "out.xml", "junit", ""},
		{"", "OUT.HTML", "html", ""},
		{"", "r.htm", "html", ""},
		{"html", "r.xml", "html", ""}, // the flag wins
		{"", "r.json", "", "cannot tell the format"},
		{"pdf", "", "", "--format=pdf: want one of junit, html"},
	}
	for _, tt := range tests {
		got, err := reportFormat(tt.flag, tt.file)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("reportFormat(%q, %q) error %v, want %q", tt.flag, tt.file, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("reportFormat(%q, %q) = %q, %v; want %q", tt.flag, tt.file, got, err, tt.want)
		}
	}
}

func TestReportUsageErrors(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"report", "--dir", root}, "name at least one run or batch"},
		{[]string{"report", "20261125T101335.337Z-ffff", "--dir", root}, "20261125T101335.337Z-ffff"},
		{[]string{"report", "batch-20261125T101335.337Z-ffff", "--dir", root}, "no batch batch-20261125T101335.337Z-ffff"},
		{[]string{"report", "x", "--format", "pdf", "--dir", root}, "--format=pdf"},
		{[]string{"run", "nothing.cog", "--report", "r.pdf"}, "--report: r.pdf: cannot tell the format"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, exitUsage, tt.want)
		}
	}
}

// TestRunReportBatchWithNothingToRun: run --report of a batch that ran no
// row in this command (a resume of a batch already done) still writes the
// batch's report, and the command succeeds.
func TestRunReportBatchWithNothingToRun(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, ".cogflow")
	wf := writeFile(t, dir, "t.cog", "task t \"g\" {\n  driver browser\n  input name: text\n  op1 = open(\"http://127.0.0.1:1/\")\n}\n")
	csv := writeFile(t, dir, "rows.csv", "name\na\nb\n")
	l, err := load(wf)
	if err != nil {
		t.Fatal(err)
	}
	b, err := journal.NewBatch(root, journal.Batch{Workflow: wf, WorkflowSHA256: l.w.SHA256(), Task: "t", InputsFile: csv, Rows: 2, Engine: journal.EngineLocal})
	if err != nil {
		t.Fatal(err)
	}
	for row := range 2 {
		w, err := journal.Open(root, journal.RunMeta{Workflow: wf, Task: "t", Row: row, Batch: b.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Step(journal.StepEvent{Step: "op1", Line: 4, Op: "open"}); err != nil {
			t.Fatal(err)
		}
		if err := w.Finish(journal.OK, nil); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "r.xml")
	r := runCLI(t, "", "run", wf, "--resume-batch", b.ID, "--dir", root, "--report", out)
	if r.code != exitOK {
		t.Fatalf("exit %d, want %d\n%s%s", r.code, exitOK, r.stdout, r.stderr)
	}
	x, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := `tests="2" failures="0" errors="0" skipped="0"`; !strings.Contains(string(x), want) || !strings.Contains(string(x), b.ID) {
		t.Errorf("report lacks batch %s with %s:\n%s", b.ID, want, x)
	}
}

// TestRunReportKeepsExitCode: when no run was journaled because the
// workflow has errors, run --report says so and keeps the exit code that
// tells why (1), not a usage error.
func TestRunReportKeepsExitCode(t *testing.T) {
	dir := t.TempDir()
	bad := writeFile(t, dir, "bad.cog", "task t \"g\" {\n  driver browser\n  op1 = clik(button(name: \"Go\"))\n}\n")
	r := runCLI(t, "", "run", bad, "--dir", filepath.Join(dir, ".cogflow"), "--report", filepath.Join(dir, "r.xml"))
	if r.code != exitBadInput || !strings.Contains(r.stderr, "nothing to report") {
		t.Errorf("exit %d, want %d\n%s", r.code, exitBadInput, r.stderr)
	}
}
