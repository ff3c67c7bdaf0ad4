package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

const srcLogin = `task login "Log in" {
  driver browser
  input user: text = "ann"
  input password: secret
  op1 = type(textbox(name: "User"), user)
  op2 = type(textbox(name: "Password"), password)
  op3 = click(button(name: "Log in"))
}
`

// writeRun journals a run of srcLogin through the journal's own writer,
// with the password as the run's secret: op1 and op2 ran, op3 failed.
func writeRun(t *testing.T, root, task, src string) string {
	t.Helper()
	sum := sha256.Sum256([]byte(src))
	w, err := journal.Open(root, journal.RunMeta{Workflow: "login.cog", Task: task, Driver: "browser", Row: -1,
		Inputs: map[string]string{"user": "ann", "password": "hunter2"}, Secrets: redact.New("hunter2"),
		WorkflowSHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		t.Fatal(err)
	}
	steps := []journal.StepEvent{
		{Step: "op1", Line: 5, Op: "type", Value: "ann", Duration: journal.Duration(12 * time.Millisecond),
			Args: []journal.Arg{{Name: "text", Value: "ann", Source: journal.SourceInput}}},
		{Step: "op2", Line: 6, Op: "type", Value: "hunter2", Duration: journal.Duration(15 * time.Millisecond),
			Args: []journal.Arg{{Name: "text", Value: "hunter2", Source: journal.SourceInput}}},
		{Step: "op3", Line: 7, Op: "click", Outcome: journal.Failed, Error: `no button named "Log in" (hunter2)`},
	}
	for _, ev := range steps {
		ev.Task = task
		if err := w.Step(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(journal.Failed, errors.New("step op3 failed")); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// TestGraphHTMLArgs: the page's flags, the run it shows (refused when it
// is of another task, shown with a warning when the file changed since),
// and a secret that stays "[secret]" as the journal wrote it.
func TestGraphHTMLArgs(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, ".cogflow")
	cog := writeFile(t, dir, "login.cog", srcLogin)
	changed := writeFile(t, dir, "changed.cog", strings.Replace(srcLogin, "Log in\"))", "Sign in\"))", 1))
	other := writeFile(t, dir, "other.cog", strings.Replace(srcLogin, "task login", "task other", 1))
	id := writeRun(t, root, "login", srcLogin)
	out := filepath.Join(dir, "page.html")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string // in standard output, or in -o's file when args name it
		absent   []string
		stderr   string
		wantFile bool
	}{
		{name: "html on stdout", args: []string{cog, "--format", "html"},
			stdout: []string{"<!DOCTYPE html>", "default-src 'none'", `data-node="op3"`}, absent: []string{`id="run"`}},
		{name: "html with a run", args: []string{cog, "--format", "html", "--run", id, "--dir", root, "-o", out}, wantFile: true,
			stdout: []string{`run <b>` + id + `</b>: failed`, `class="node n-step st-failed" data-node="op3"`,
				`class="node n-step st-ok" data-node="op2"`, `"value":"[secret]"`, `no button named \"Log in\" ([secret])`, `"source":"input"`, `"given":"[secret]"`, `"given":"ann"`},
			absent: []string{"hunter2", `id="run-warning"`}},
		{name: "the file changed since the run", args: []string{changed, "--format", "html", "--run", id, "--dir", root},
			stdout: []string{`id="run-warning"`, "the workflow file changed since run " + id}, stderr: "warning: the workflow file changed since run"},
		{name: "a run of another task", args: []string{other, "--format", "html", "--run", id, "--dir", root}, code: exitUsage,
			stderr: `run ` + id + ` is of task "login", not "other"`},
		{name: "no such run", args: []string{cog, "--format", "html", "--run", "20260101T000000.000Z-0000", "--dir", root}, code: exitUsage,
			stderr: "no run 20260101T000000.000Z-0000"},
		{name: "not a run id", args: []string{cog, "--format", "html", "--run", "../x", "--dir", root}, code: exitUsage, stderr: "not a run id"},
		{name: "--run needs html", args: []string{cog, "--run", id, "--dir", root}, code: exitUsage, stderr: "--run needs --format html"},
		{name: "dot to a file", args: []string{cog, "-o", out}, wantFile: true, stdout: []string{`digraph "login" {`}},
		{name: "-o in a missing folder", args: []string{cog, "-o", filepath.Join(dir, "no", "page.html")}, code: exitUsage, stderr: "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(out)
			r := runCLI(t, "", append([]string{"graph"}, tc.args...)...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, tc.code, r.stderr)
			}
			got := r.stdout
			if tc.wantFile {
				if r.stdout != "" {
					t.Errorf("with -o, stdout is %q", r.stdout)
				}
				got = readFile(t, out)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(got, s) {
					t.Errorf("output lacks %s", s)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(got, s) {
					t.Errorf("output holds %s", s)
				}
			}
			if !strings.Contains(r.stderr, tc.stderr) || tc.stderr == "" && r.stderr != "" {
				t.Errorf("stderr %q, want %q", r.stderr, tc.stderr)
			}
		})
	}
}
