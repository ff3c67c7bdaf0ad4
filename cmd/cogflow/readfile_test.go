package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileSizeLimits gives every command that reads a file whole a file
// that never ends (/dev/zero) and a regular file past its limit: each
// must refuse it with the file's name and the limit, not read it whole.
func TestFileSizeLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.cog")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(maxWorkflowSize + 1) // sparse: costs no disk
	f.Close()
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", "/dev/zero"}, exitUsage, "/dev/zero: larger than 8 MiB, the limit for a workflow"},
		{[]string{"check", big}, exitUsage, big + ": larger than 8 MiB, the limit for a workflow"},
		{[]string{"fmt", "/dev/zero"}, exitUsage, "/dev/zero: larger than 8 MiB, the limit for a workflow"},
		{[]string{"graph", "/dev/zero"}, exitUsage, "/dev/zero: larger than 8 MiB"},
		{[]string{"run", "/dev/zero", "--dry-run"}, exitUsage, "/dev/zero: larger than 8 MiB"},
		{[]string{"compile", "/dev/zero"}, exitBadInput, "/dev/zero: error: larger than 128 MiB, the limit for a trace"},
		{[]string{"import", "/dev/zero"}, exitBadInput, "/dev/zero: error: larger than 16 MiB, the limit for a DevTools recording"},
	}
	for _, tt := range tests {
		r := runCLI(t, "", tt.args...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tt.args, r.code, r.stderr, tt.code, tt.want)
		}
	}
	r := runCLI(t, strings.Repeat("#", maxWorkflowSize+1), "fmt", "-")
	if r.code != exitUsage || !strings.Contains(r.stderr, "standard input: larger than 8 MiB, the limit for a workflow") {
		t.Errorf("fmt -: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestByteOrderMarks reads a workflow and a CSV that begin with a UTF-8
// byte-order mark, as Windows editors and spreadsheets write them.
func TestByteOrderMarks(t *testing.T) {
	dir := t.TempDir()
	// Positions, source lines and carets are those of the file without
	// its mark (parseDiags checks the carets against src).
	for _, tt := range []struct {
		src       string
		line, col int
		want      string
	}{
		{"task t \"x\" {\n  driver browser\n  op1 = open(\"http://x/\" + zz)\n}\n", 3, 28, "undefined name zz"},
		{"task t \"x\" {\n  driver browser\n", 1, 12, "is never closed"},
	} {
		wf := writeFile(t, dir, "bom.cog", "\ufeff"+tt.src)
		r := runCLI(t, "", "check", wf)
		ds := parseDiags(t, r.stderr, map[string]string{wf: tt.src})
		if r.code != exitBadInput || len(ds) != 1 || ds[0].line != tt.line || ds[0].col != tt.col || !strings.Contains(ds[0].message, tt.want) {
			t.Errorf("check: exit %d, diagnostics %+v, want %d:%d %q\n%s", r.code, ds, tt.line, tt.col, tt.want, r.stderr)
		}
	}
	ok := writeFile(t, dir, "ok.cog", "\ufefftask t \"x\" {\n  driver browser\n  input n: number\n  op1 = open(\"http://x/\")\n}\n")
	csv := writeFile(t, dir, "rows.csv", "\ufeffn\n7\n")
	r := runCLI(t, "", "run", ok, "--inputs", csv, "--dry-run")
	if r.code != exitOK || !strings.Contains(r.stdout, `input n = "7" (given)`) {
		t.Errorf("run --inputs with a byte-order mark: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
