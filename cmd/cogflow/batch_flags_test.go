package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

// TestBatchRefusals: flags and resumes a batch cannot honour are refused
// with exit 2 and a message saying why, before any browser starts.
func TestBatchRefusals(t *testing.T) {
	isolateConfig(t)
	dir := t.TempDir()
	wf := filepath.Join(dir, "order.cog")
	if err := os.WriteFile(wf, []byte(strings.ReplaceAll(orderWorkflow, "BASE", "http://127.0.0.1:1")), 0o644); err != nil {
		t.Fatal(err)
	}
	csv := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(csv, []byte("name\na\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, ".cogflow")
	other, err := journal.NewBatch(root, journal.Batch{Workflow: wf, Task: "order", InputsFile: csv, Rows: 3, Engine: journal.EngineLocal})
	if err != nil {
		t.Fatal(err)
	}
	changed, err := journal.NewBatch(root, journal.Batch{Workflow: wf, WorkflowSHA256: "00ff", Task: "order", InputsFile: csv, Rows: 2, Engine: journal.EngineLocal})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"negative workers", []string{"--inputs", csv, "--parallel", "-1"}, "--parallel -1: want a number of workers"},
		{"workers without rows", []string{"--parallel", "2"}, "--parallel runs the rows of an --inputs file"},
		{"questions in parallel", []string{"--inputs", csv, "--parallel", "2", "--step"}, "do not go with --parallel"},
		{"unknown isolation", []string{"--inputs", csv, "--parallel", "2", "--isolate", "tab"}, "--isolate tab: want worker or row"},
		{"one run of a batch", []string{"--inputs", csv, "--resume-from", "20261123T011530.123Z-1f0c"}, "--resume-from resumes one run"},
		{"two resumes", []string{"--resume-batch", other.ID, "--resume"}, "give it without --resume"},
		{"not a batch id", []string{"--resume-batch", "20261123T011530.123Z-1f0c"}, "not a batch id"},
		{"no such batch", []string{"--resume-batch", "batch-20261123T011530.123Z-0000"}, "no batch batch-20261123T011530.123Z-0000"},
		{"other rows", []string{"--resume-batch", other.ID}, "had 3 rows, " + csv + " has 2 now"},
		{"changed workflow", []string{"--resume-batch", changed.ID}, "changed since batch " + changed.ID},
		{"nothing to resume", []string{"--inputs", csv, "--resume", "--dir", t.TempDir()}, "no unfinished batch of " + wf},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", wf, "--dir", root}, tc.args...)
			r := runCLI(t, "", args...)
			if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("exit %d, want %d with %q:\n%s", r.code, exitUsage, tc.want, r.stderr)
			}
		})
	}
}
