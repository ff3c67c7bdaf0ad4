package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

// TestE2ETryFallback runs examples/demo_try_fallback.cog in Chromium: with
// a file the list holds, the try's body renames it; with one it does not,
// the body's step fails, the fallback renames the first file instead, the
// run ends ok, and the journal says which arm ran and why.
func TestE2ETryFallback(t *testing.T) {
	needChromium(t)
	for _, c := range []struct {
		file, want, arm string
	}{
		{"notes.txt", "report.txt renamed.txt todo.txt budget.csv", "try"},
		{"missing.txt", "renamed.txt notes.txt todo.txt budget.csv", "fallback"},
	} {
		t.Run(c.file, func(t *testing.T) {
			s, base := demo(t)
			root := t.TempDir()
			r := runWith(context.Background(), "", "run", workflow(t, "demo_try_fallback.cog", base), "--dir", root, "--input", "file="+c.file)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if got := strings.Join(s.State().Files, " "); got != c.want {
				t.Errorf("files = %s, want %s", got, c.want)
			}
			runs, err := journal.List(root)
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs %v, %v", runs, err)
			}
			run, err := journal.Load(root, runs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			arms := map[string]string{}
			for _, st := range run.Steps {
				if len(st.Branches) == 1 {
					arms[st.Step] = strings.TrimPrefix(st.Branches[0], "line 23: ")
				}
			}
			switch c.arm {
			case "try":
				if arms["op2"] != "try" || arms["op3"] != "" || len(run.Fallbacks) != 0 {
					t.Errorf("arms %v, fallbacks %+v: want op2 in the try and no fallback", arms, run.Fallbacks)
				}
			case "fallback":
				if arms["op2"] != "try" || arms["op3"] != "fallback" || len(run.Fallbacks) != 1 || run.Fallbacks[0].Step != "op2" || run.Fallbacks[0].Line != 23 {
					t.Errorf("arms %v, fallbacks %+v: want op2 failed in the try, then op3 in the fallback", arms, run.Fallbacks)
				}
			}
		})
	}
}

// TestE2ETryResumeInFallback interrupts a run inside a try's fallback, as
// Ctrl-C does, and resumes it: the resumed run goes on in the fallback and
// never runs the try's body again.
func TestE2ETryResumeInFallback(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	path := writeWorkflow(t, "resume_try.cog", `task resume_try {
  driver browser
  anchor files    = list(name: "Files")
  anchor name_box = textbox(name: "Name", within: dialog(name: "Rename"))

  op1 = open("`+base+`/files")
  try {
    op2 = click(button(name: "Rename", within: first(with_text(items(files), "missing.txt"))))
  } fallback {
    op3 = wait(2)
    op4 = click(button(name: "Rename", within: first(items(files))))
    op5 = type(name_box, "renamed.txt")
    op6 = enter(name_box)
  }
}
`)
	root := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { // Ctrl-C once the fallback took over, during op3's wait
		for ctx.Err() == nil {
			if countEvents(root, journal.EventFallback) > 0 {
				time.Sleep(300 * time.Millisecond)
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
	if got := strings.Join(s.State().Files, " "); got != "report.txt notes.txt todo.txt budget.csv" {
		t.Fatalf("the interrupted run renamed a file already: %s", got)
	}
	r = runWith(context.Background(), "", "run", path, "--dir", root, "--resume")
	if r.code != exitOK {
		t.Fatalf("resume: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := strings.Join(s.State().Files, " "); got != "renamed.txt notes.txt todo.txt budget.csv" {
		t.Errorf("files after the resume = %s", got)
	}
	runs, _ := journal.List(root)
	second, err := journal.Load(root, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if second.Start.Resume == "" || !second.FellBack(7, nil) {
		t.Fatalf("runs[0] is not the resumed run carrying the fallback: %+v", second.Start)
	}
	var steps []string
	for _, st := range second.Steps {
		steps = append(steps, st.Step)
	}
	if got := strings.Join(steps, " "); got != "op1 op3 op4 op5 op6" {
		t.Errorf("the resumed run ran %s, want op1 then the fallback's op3…op6 and not the body's op2", got)
	}
}

// countEvents counts the journal lines of one event type under root.
func countEvents(root, event string) int {
	files, _ := filepath.Glob(filepath.Join(root, "runs", "*", journal.JournalFile))
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			n += strings.Count(string(b), `"type":"`+event+`"`)
		}
	}
	return n
}
