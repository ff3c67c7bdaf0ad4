package main

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"
)

// uiaWorkflow is the uia driver's smoke workflow (Notepad), kept beside
// the driver's fixtures.
var uiaWorkflow = filepath.Join("..", "..", "runtime", "driver", "uia", "testdata", "notepad_note.cog")

// TestUiaWorkflowChecks checks that a `driver uia` workflow is clean on
// every platform — check, fmt and a dry run need no driver — and that
// running it off Windows stops with the driver-unavailable exit code and
// a message saying where the driver runs, before any step.
func TestUiaWorkflowChecks(t *testing.T) {
	if r := runCLI(t, "", "check", uiaWorkflow); r.code != exitOK || strings.TrimSpace(r.stdout+r.stderr) != "" {
		t.Errorf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "fmt", "-l", uiaWorkflow); r.code != exitOK || r.stdout != "" {
		t.Errorf("fmt -l: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r := runCLI(t, "", "run", uiaWorkflow, "--dry-run")
	if r.code != exitOK || !strings.Contains(r.stdout, "driver uia") || !strings.Contains(r.stdout, `op1 = open_window("notepad.exe")`) {
		t.Errorf("dry run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestUiaRunOffWindows(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the uia driver runs here")
	}
	r := runCLI(t, "", "run", uiaWorkflow, "--dir", t.TempDir())
	want := "the uia driver runs on Windows (this is " + goruntime.GOOS + ")"
	if exitNoDriver != 4 {
		t.Fatalf("the driver-unavailable exit code is %d, documented as 4", exitNoDriver)
	}
	if r.code != exitNoDriver || !strings.Contains(r.stderr, want) {
		t.Errorf("run: exit %d, stderr %q; want exit 4 and %q", r.code, r.stderr, want)
	}
	if strings.Contains(r.stdout, "op1") {
		t.Errorf("a step ran without a driver:\n%s", r.stdout)
	}
}

// TestUiaRecordOffWindows: the recorder says where it runs, with the
// driver-unavailable exit code, and writes no trace.
func TestUiaRecordOffWindows(t *testing.T) {
	if goruntime.GOOS == "windows" {
		t.Skip("the recorder runs here")
	}
	out := filepath.Join(t.TempDir(), "demo.trace.json")
	r := runCLI(t, "", "record", "--driver", "uia", "-o", out)
	if r.code != exitNoDriver || !strings.Contains(r.stderr, "the uia recorder runs on Windows") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a trace was written")
	}
	if r := runCLI(t, "", "record", "--driver", "ios"); r.code != exitUsage || !strings.Contains(r.stderr, "browser, android, uia") {
		t.Errorf("unknown driver: exit %d, %q", r.code, r.stderr)
	}
}
