package main

import (
	"context"
	"strings"
	"testing"

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
