package main

import (
	"bufio"
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime/journal"
)

// End-to-end tests: the command line runs the shipped examples in real
// headless Chromium against the demo site served on 127.0.0.1, and the
// tests read back what the site stored.

// needChromium fails under CI (make test installs Chromium) and skips on a
// developer machine without it.
func needChromium(t testing.TB) {
	t.Helper()
	for _, p := range []string{os.Getenv("COGFLOW_CHROME"), "/usr/bin/chromium"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return
			}
		}
	}
	if _, err := exec.LookPath("chromium"); err == nil {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Chromium is not installed; make test installs it (apt-get install chromium)")
	}
	t.Skip("Chromium is not installed (apt-get install chromium)")
}

// demo serves a fresh demo site and returns it with its base URL.
func demo(t *testing.T) (*site.Site, string) {
	t.Helper()
	isolateConfig(t) // no model from the developer's environment is ever asked
	s := site.New()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return s, srv.URL
}

// workflow copies an example into a temp folder with its demo-site
// address pointing at the test's server.
func workflow(t *testing.T, example, base string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("../../examples", example))
	if err != nil {
		t.Fatal(err)
	}
	return writeWorkflow(t, filepath.Base(example), strings.ReplaceAll(string(src), "http://127.0.0.1:8088", base))
}

func writeWorkflow(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// runWith runs cogflow in process with a context a test may cancel.
func runWith(ctx context.Context, stdin string, args ...string) result {
	var out, errb bytes.Buffer
	c := &cli{stdout: &out, stderr: &errb, stdin: strings.NewReader(stdin), ctx: ctx}
	code := c.main(args)
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

func TestE2ESumColumn(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	root := t.TempDir()
	r := runWith(context.Background(), "", "run", workflow(t, "sum_column.cog", base), "--dir", root)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := s.State().Total; got != "7986.45" {
		t.Errorf("Total = %q, want 7986.45\n%s", got, r.stderr)
	}
}

func TestE2EUppercaseTitles(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	before := s.State()
	r := runWith(context.Background(), "", "run", workflow(t, "demo_uppercase_titles.cog", base), "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	after := s.State()
	for i, p := range after.ReadingList {
		if want := strings.ToUpper(strings.TrimSpace(before.ReadingList[i].Title)); p.Title != want {
			t.Errorf("row %d title = %q, want %q", i, p.Title, want)
		}
	}
}

// TestE2EBatchRename: a loop over a plain list's items, each iteration
// opening a dialog that reloads the page.
func TestE2EBatchRename(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	r := runWith(context.Background(), "", "run", workflow(t, "batch_rename.cog", base), "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "report.md notes.md todo.md budget.csv"
	if got := strings.Join(s.State().Files, " "); got != want {
		t.Errorf("files = %s, want %s", got, want)
	}
}

func TestE2EFormFromTable(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	r := runWith(context.Background(), "", "run", workflow(t, "form_from_table.cog", base), "--yes", "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	st := s.State()
	if len(st.Submissions) != 5 { // one per row of the sheet's Orders table
		t.Fatalf("%d submissions, want 5: %+v", len(st.Submissions), st.Submissions)
	}
	for _, sub := range st.Submissions {
		if sub.Name == "" || sub.Email != strings.ToLower(sub.Email) || strings.ContainsAny(sub.Phone, " ()-.") {
			t.Errorf("submission not cleaned up: %+v", sub)
		}
	}
}

func TestE2EAnchorErrors(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	tests := []struct {
		name, step string
		want       []string
	}{
		{"ambiguous", `op2 = click(button(name: "Rename"))`, []string{`button(name: "Rename") is ambiguous`, "100%"}},
		{"missing", `op2 = click(button(name: "Delete"))`, []string{`no element matches button(name: "Delete")`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeWorkflow(t, "anchor.cog", "task files {\n  driver browser\n  op1 = open(\""+base+"/files\")\n  "+tt.step+"\n}\n")
			r := runWith(context.Background(), "", "run", path, "--dir", t.TempDir())
			if r.code != exitStepFailed {
				t.Fatalf("exit %d, want %d\n%s", r.code, exitStepFailed, r.stderr)
			}
			for _, w := range append(tt.want, "anchor.cog:4:3: error: step op2 failed", "    op2 = click(") {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
		})
	}
}

// TestE2EInterruptAndResume cancels an iterative run after its second
// iteration, as Ctrl-C does, then resumes it: the journal must say which
// items finished, and the resumed run must do only the rest.
func TestE2EInterruptAndResume(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	path := workflow(t, "demo_uppercase_titles.cog", base)
	root := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // Ctrl-C once two iterations are journaled
		for ctx.Err() == nil {
			if countIterations(root) >= 2 {
				cancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	r := runWith(ctx, "", "run", path, "--dir", root)
	if r.code != exitInterrupt {
		t.Fatalf("exit %d, want %d (interrupted)\n%s", r.code, exitInterrupt, r.stderr)
	}
	runs, err := journal.List(root)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v, %v", runs, err)
	}
	first, err := journal.Load(root, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if first.Interruption == nil || len(first.Completed()) < 2 {
		t.Fatalf("journal does not record the interruption and the finished items: %+v", first)
	}
	// By index: the loop rewrites each row's title, so a finished row's
	// text is not what it was when its item started.
	done := map[int]bool{}
	for _, it := range first.Iterations {
		done[it.Loop[0].Index] = true
	}

	r = runWith(context.Background(), "", "run", path, "--dir", root, "--resume")
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\n%s", r.code, r.stderr)
	}
	for i, p := range s.State().ReadingList {
		if p.Title != strings.ToUpper(p.Title) {
			t.Errorf("row %d not done after resume: %q", i, p.Title)
		}
	}
	runs, _ = journal.List(root)
	second, err := journal.Load(root, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if second.Start.Resume != first.ID {
		t.Errorf("resumed run names %q as its origin, want %q", second.Start.Resume, first.ID)
	}
	for _, st := range second.Steps {
		if len(st.Loop) > 0 && done[st.Loop[0].Index] {
			t.Errorf("the resumed run redid %q (step %s)", st.Loop[0].Key, st.Step)
		}
	}
}

func countIterations(root string) int {
	files, _ := filepath.Glob(filepath.Join(root, "runs", "*", journal.JournalFile))
	n := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"type":"`+journal.EventIterationDone+`"`) {
				n++
			}
		}
		fh.Close()
	}
	return n
}

// TestE2ESecretNeverRecorded runs the mail reply example with a PIN and
// screenshots on, answering its two judgement calls at the terminal
// (--ask), and then looks for the PIN everywhere the run wrote.
func TestE2ESecretNeverRecorded(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	const pin = "4713-secret"
	root := t.TempDir()
	answers := "Thanks, I will be there on Friday.\nThanks — I will be there on Friday.\n"
	r := runWith(context.Background(), answers, "run", workflow(t, "reply_from_subject.cog", base),
		"--input", "pin="+pin, "--ask", "--yes", "--screenshots", "--dir", root)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	st := s.State()
	if len(st.Replies) != 1 || !st.Replies[0].PINGiven || !strings.Contains(st.Replies[0].Body, "Friday") {
		t.Fatalf("reply not sent as expected: %+v", st.Replies)
	}
	if strings.Contains(r.stdout+r.stderr, pin) {
		t.Error("the PIN was printed")
	}
	shots := 0
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if strings.Contains(path, pin) {
			t.Errorf("file name holds the PIN: %s", path)
		}
		if strings.HasSuffix(path, ".png") {
			shots++
		}
		if !info.IsDir() {
			if data, _ := os.ReadFile(path); bytes.Contains(data, []byte(pin)) {
				t.Errorf("%s holds the PIN", path)
			}
		}
		return nil
	})
	if shots == 0 {
		t.Error("no screenshots were written")
	}
}
