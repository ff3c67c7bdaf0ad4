package cogflow_test

import (
	"bytes"
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestProjectSkillRuns: a skill in the project's skills folder is called
// by a task that does not declare it, runs like the file's own (its
// steps act on the page), and keeps a secret parameter secret. Without the
// project folder, the call does not check.
func TestProjectSkillRuns(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "skills", "browser"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "skills", "browser", "sign_in.cog"), `# Sign in to the site.
# example: sign_in_site("ann", "pw")
skill sign_in_site(user: text, password: secret) {
  u = type(textbox(name: "User"), user)
  p = type(textbox(name: "Password"), password)
  c = click(button(name: "Sign in"))
}
`)
	src := []byte("task t {\n  driver browser\n  input pw: secret\n  s = sign_in_site(\"ann\", pw)\n}\n")
	if _, diags := cogflow.LoadSource("t.cog", src, cogflow.Options{}); !strings.Contains(diags.Err().Error(), "unknown action or function sign_in_site") {
		t.Fatalf("without the project: %v", diags.Err())
	}
	w, diags := cogflow.LoadSource("t.cog", src, cogflow.Options{ProjectDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	f := drivertest.New(&driver.Tree{URL: "http://site/", Elements: []*driver.Element{
		{Ref: "form", Role: "generic", Path: "form", Visible: true, Parent: -1},
		{Ref: "u", Role: "textbox", Name: "User", Path: "form/input[1]", Visible: true, Enabled: true, Editable: true, Parent: 0},
		{Ref: "p", Role: "textbox", Name: "Password", Path: "form/input[2]", Visible: true, Enabled: true, Editable: true, Parent: 0},
		{Ref: "b", Role: "button", Name: "Sign in", Text: "Sign in", Path: "form/button", Visible: true, Enabled: true, Parent: 0},
	}})
	clicked := false
	f.OnClick["b"] = func(*drivertest.Fake, *driver.Element) { clicked = true }
	var log strings.Builder
	journalDir := t.TempDir()
	_, err := w.Run(context.Background(), cogflow.RunOptions{Driver: f, Inputs: map[string]string{"pw": "hunter2-secret"},
		Logger: slog.New(slog.NewTextHandler(&log, nil)), JournalDir: journalDir})
	if err != nil {
		t.Fatal(err)
	}
	if !clicked || len(f.Log) != 3 || f.Log[0].Text != "ann" || f.Log[1].Text != "hunter2-secret" || !f.Log[1].Secret {
		t.Fatalf("clicked %v, actions %+v", clicked, f.Log)
	}
	if strings.Contains(log.String(), "hunter2-secret") || !strings.Contains(log.String(), "sign_in_site") {
		t.Errorf("the log lacks the skill's steps or holds the secret parameter:\n%s", log.String())
	}
	assertNoFileHolds(t, journalDir, "hunter2-secret")
}

// assertNoFileHolds fails when a file under dir contains secret.
func assertNoFileHolds(t *testing.T, dir, secret string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("%s holds the secret", path)
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("walking %s: %v (%d files)", dir, err, n)
	}
}

// TestLibrarySkillOfTheTasksDriver: two project libraries both declare a
// skill greet; in a file whose two tasks run on different drivers, each
// task runs its own driver's greet, whichever task the checker met first.
func TestLibrarySkillOfTheTasksDriver(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []struct{ driver, button string }{{"browser", "Web"}, {"android", "Phone"}} {
		if err := os.MkdirAll(filepath.Join(dir, "skills", d.driver), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "skills", d.driver, "greet.cog"),
			"# Greet.\nskill greet() {\n  c = click(button(name: \""+d.button+"\"))\n}\n")
	}
	src := []byte("task web {\n  driver browser\n  g = greet()\n}\ntask phone {\n  driver android\n  g = greet()\n}\n")
	w, diags := cogflow.LoadSource("t.cog", src, cogflow.Options{ProjectDir: dir})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	for _, tc := range []struct{ task, want, other string }{{"phone", "Phone", "Web"}, {"web", "Web", "Phone"}} {
		f := drivertest.New(&driver.Tree{URL: "http://site/", Elements: []*driver.Element{
			{Ref: "w", Role: "button", Name: "Web", Path: "b[1]", Visible: true, Enabled: true, Parent: -1},
			{Ref: "p", Role: "button", Name: "Phone", Path: "b[2]", Visible: true, Enabled: true, Parent: -1},
		}})
		if _, err := w.Run(context.Background(), cogflow.RunOptions{Driver: f, Task: tc.task}); err != nil {
			t.Fatalf("%s: %v", tc.task, err)
		}
		if len(f.Log) != 1 || f.Log[0].Target == nil || f.Log[0].Target.Name != tc.want {
			t.Errorf("task %s clicked %+v, want the %s button (not %s's)", tc.task, f.Log, tc.want, tc.other)
		}
	}
}
