package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/internal/goldentest"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/patch"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/redact"
)

var updateHeal = flag.Bool("update", false, "rewrite the heal patch goldens")

// healCase is a golden's heals section: per healed step, its name, line
// and the path found.
type healCase struct {
	Before string       `json:"before"`
	Line   int          `json:"line"`
	Path   []patch.Step `json:"path"`
}

// TestHealPatchGolden checks the text of the patch a healed run shows:
// each archive has a heals section (JSON) and a workflow; the patch
// section is the diff printed for them.
func TestHealPatchGolden(t *testing.T) {
	var heals []healCase
	goldentest.Run(t, "testdata/heal/*.txtar", "patch", *updateHeal, func(t *testing.T, name string, data []byte) string {
		if name == "heals" {
			heals = nil
			if err := json.Unmarshal(data, &heals); err != nil {
				t.Fatalf("heals: %v", err)
			}
			return ""
		}
		var ins []patch.Insertion
		for _, h := range heals {
			ins = append(ins, patch.Insertion{Before: h.Before, Line: h.Line, Steps: h.Path, Note: healNote(h.Before, len(h.Path))})
		}
		_, diff, err := patchDiff(name, []byte(data), ins)
		if err != nil {
			return "error: " + err.Error() + "\n"
		}
		return string(diff)
	})
}

func TestHealNote(t *testing.T) {
	if got := healNote("op3", 2); !strings.Contains(got, "op3's target shows only after these steps") {
		t.Errorf("healNote = %q", got)
	}
}

// TestProposePatch: the patch is written on --yes or a yes at the
// terminal, left alone otherwise (saying how to apply it), never offered
// when it would show a secret, and never written over a file edited
// during the run.
func TestProposePatch(t *testing.T) {
	const src = "task t {\n  driver browser\n  input site: url = \"http://x\"\n  op1 = open(site)\n  op2 = click(button(name: \"Save\"))  # save\n}\n"
	for _, tc := range []struct {
		name    string
		yes     bool
		stdin   string
		target  string // the path's target
		edit    bool   // the file is edited during the run
		written bool
		out     string // in stdout (or stderr)
	}{
		{name: "--yes", yes: true, target: `button(name: "More")`, written: true, out: "Applied: wrote"},
		{name: "yes at the terminal", stdin: "y\n", target: `button(name: "More")`, written: true, out: "Applied: wrote"},
		{name: "no at the terminal", stdin: "n\n", target: `button(name: "More")`, out: "Not applied: "},
		{name: "nobody at the terminal", target: `button(name: "More")`, out: "apply it with: patch "},
		{name: "a secret", yes: true, target: `button(name: "hunter2")`, out: "shows a secret"},
		{name: "edited meanwhile", yes: true, target: `button(name: "More")`, edit: true, out: "changed during the run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, "t.cog", src)
			l, err := load(path)
			if err != nil || l.file == nil {
				t.Fatalf("load: %v", err)
			}
			step := l.file.Decls[0].(*ast.Task).Body.Stmts[3].(*ast.Step)
			heals := []runtime.Heal{{Step: step, Path: []knowledge.Step{{Op: "click", Target: tc.target}}}}
			if tc.edit {
				writeFile(t, dir, "t.cog", src+"\n")
			}
			var out, errb bytes.Buffer
			c := &cli{stdout: &out, stderr: &errb, stdin: strings.NewReader(tc.stdin)}
			root := filepath.Join(dir, ".cogflow")
			id := "20261125T072516.203Z-4c93"
			if err := os.MkdirAll(filepath.Join(root, "runs", id), 0o755); err != nil {
				t.Fatal(err)
			}
			cfg := runConfig{file: path, yes: tc.yes, root: root}
			c.proposePatch(cfg, l, heals, id, runtime.NewTermPrompter(c.stdin, &errb), redact.New("hunter2"))
			got, _ := os.ReadFile(path)
			if written := strings.Contains(string(got), "click_more = click("); written != tc.written {
				t.Errorf("written = %v, want %v:\n%s", written, tc.written, got)
			}
			if all := out.String() + errb.String(); !strings.Contains(all, tc.out) || strings.Contains(all, "hunter2") {
				t.Errorf("output lacks %q (or shows the secret):\n%s", tc.out, all)
			}
			if tc.written && !strings.Contains(string(got), "# save") {
				t.Errorf("a comment was lost:\n%s", got)
			}
		})
	}
}
