package cogflow_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/stdlib"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// TestRunConcurrently runs one loaded Workflow many times at once, each
// run on its own fake driver with its own inputs (run it with -race):
// runs share nothing mutable, so each types its own name and journals to
// its own run.
func TestRunConcurrently(t *testing.T) {
	w, diags := cogflow.Load("testdata/signup.cog", cogflow.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	dir := t.TempDir()
	const n = 8
	var wg sync.WaitGroup
	typed := make([]string, n)
	ids := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			site := signupSite()
			res, err := w.Run(context.Background(), cogflow.RunOptions{
				Driver: site, Inputs: map[string]string{"name": fmt.Sprintf("user%d", i)}, JournalDir: dir, Row: i + 1,
			})
			errs[i] = err
			if res != nil {
				ids[i] = res.RunID
			}
			typed[i] = site.Tree().Elements[0].Value
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		if want := fmt.Sprintf("user%d", i); typed[i] != want {
			t.Errorf("run %d typed %q, want %q", i, typed[i], want)
		}
		run, err := journal.Load(dir, ids[i])
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if run.Start.Inputs["name"] != fmt.Sprintf("user%d", i) || run.Start.Row != i || len(run.Steps) != 3 || seen[ids[i]] {
			t.Errorf("run %d's journal: %+v, %d steps", i, run.Start, len(run.Steps))
		}
		seen[ids[i]] = true
	}
}

func TestLoadErrors(t *testing.T) {
	w, diags := cogflow.Load(filepath.Join(t.TempDir(), "none.cog"), cogflow.Options{})
	if w != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, "none.cog") {
		t.Fatalf("unreadable file: %v, %v", w, diags)
	}
	w, diags = cogflow.LoadSource("bad.cog", []byte("task t {\n  driver browser\n  op1 = click(nope)\n}\n"), cogflow.Options{})
	if w == nil || !diags.HasErrors() {
		t.Fatalf("bad workflow: %v, %v", w, diags)
	}
	_, err := w.Run(context.Background(), cogflow.RunOptions{Driver: signupSite()})
	var le *cogflow.LoadError
	if !errors.As(err, &le) || !strings.Contains(err.Error(), "bad.cog:3:15") {
		t.Errorf("Run of a workflow with errors: %v", err)
	}
	if _, err := w.Cost("", cogflow.CostModels{}); !errors.As(err, &le) {
		t.Errorf("Cost of a workflow with errors: %v", err)
	}
	w, _ = cogflow.Load("testdata/signup.cog", cogflow.Options{})
	if _, err := w.Run(context.Background(), cogflow.RunOptions{Driver: signupSite(), Task: "other"}); err == nil || !strings.Contains(err.Error(), "has no task other (tasks: signup)") {
		t.Errorf("unknown task: %v", err)
	}
}

// TestProjectKnowledge: a broken knowledge.hcl in the project folder is
// reported with the workflow's diagnostics, and the default used.
func TestProjectKnowledge(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "knowledge.hcl"), "category {\n")
	w, diags := cogflow.Load("testdata/signup.cog", cogflow.Options{ProjectDir: dir})
	if !diags.HasErrors() || !strings.Contains(diags.Err().Error(), "knowledge.hcl") || w.Knowledge() == nil {
		t.Fatalf("diagnostics %v", diags)
	}
	k := kb.Default()
	w, diags = cogflow.Load("testdata/signup.cog", cogflow.Options{Knowledge: k, ProjectDir: dir})
	if diags.HasErrors() || w.Knowledge() != k {
		t.Fatalf("a given knowledge base wins over the project's: %v", diags)
	}
}

// TestObserverAndLogger: both see every step; the logger never sees a
// secret input's value.
func TestObserverAndLogger(t *testing.T) {
	w, diags := cogflow.LoadSource("login.cog", []byte(`task login "Log in" {
  driver browser
  input password: secret
  op1 = open("https://shop.example/signup")
  op2 = type(textbox(name: "Name"), password)
  op3 = click(button(name: "Nowhere"))
}
`), cogflow.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	var log bytes.Buffer
	obs := &steps{}
	_, err := w.Run(context.Background(), cogflow.RunOptions{Driver: signupSite(), Inputs: map[string]string{"password": "hunter2"},
		Observer: obs, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err == nil {
		t.Fatal("op3 found a button that is not there")
	}
	if got := strings.Join(obs.names, " "); got != "op1:ok op2:ok op3:failed" {
		t.Errorf("observed %s", got)
	}
	if strings.Count(log.String(), "msg=step") != 3 || !strings.Contains(log.String(), "outcome=failed") || strings.Contains(log.String(), "hunter2") {
		t.Errorf("log:\n%s", log.String())
	}
}

type steps struct{ names []string }

func (s *steps) Step(r cogflow.StepReport)       { s.names = append(s.names, r.Step+":"+r.Outcome) }
func (s *steps) IterationDone([]runtime.LoopPos) {}
func (s *steps) Interrupted(runtime.Position)    {}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestProjectIrreversibleWordsReachTheRun: a word the project's knowledge
// base marks irreversible keeps a run from settling a tie between two
// identical buttons that carry it (anchoring), the same list exploring
// reads (runtime.Options.IrreversibleWords).
func TestProjectIrreversibleWordsReachTheRun(t *testing.T) {
	dir := t.TempDir()
	hcl := strings.Replace(string(stdlib.KnowledgeHCL), "irreversible = [", "irreversible = [\n  \"archiver\",", 1)
	if hcl == string(stdlib.KnowledgeHCL) {
		t.Fatal("the default knowledge base has no irreversible list to extend")
	}
	writeFile(t, filepath.Join(dir, "knowledge.hcl"), hcl)
	src := []byte("task t {\n  driver browser\n  op1 = click(button(name: \"Archiver\"))\n}\n")
	for _, tc := range []struct {
		project string
		want    string // "" = the first twin is clicked
	}{{"", ""}, {dir, "its words say archiver"}} {
		w, diags := cogflow.LoadSource("t.cog", src, cogflow.Options{ProjectDir: tc.project})
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		twin := func(ref string) *driver.Element {
			return &driver.Element{Ref: ref, Role: "button", Name: "Archiver", Text: "Archiver", Path: "form/button[" + ref + "]",
				Visible: true, Enabled: true, Parent: 0}
		}
		f := drivertest.New(&driver.Tree{URL: "http://site/", Elements: []*driver.Element{
			{Ref: "form", Role: "generic", Path: "form", Visible: true, Parent: -1}, twin("1"), twin("2")}})
		clicked := ""
		f.OnClick["1"] = func(*drivertest.Fake, *driver.Element) { clicked = "1" }
		_, err := w.Run(context.Background(), cogflow.RunOptions{Driver: f})
		switch {
		case tc.want == "" && (err != nil || clicked != "1"):
			t.Errorf("default knowledge base: clicked %q, err %v; want the first twin", clicked, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || clicked != ""):
			t.Errorf("project knowledge base: clicked %q, err %v; want an ambiguity saying %q", clicked, err, tc.want)
		}
	}
}
