package main

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

// TestE2EFindMail runs examples/demo_find_mail.cog in Chromium against the
// demo inbox, four messages a page. A subject on the first page needs no
// time through the until loop; one on the third page needs two ("Older"
// clicked twice), each journaled as an iteration of the variable until;
// either way the reply goes to that message. A subject on no page never
// ends ok: with fewer pages allowed than the inbox has, the loop reaches
// its max: and the run says so; with more, the missing "Older" link of the
// last page stops it. Nothing is sent then.
func TestE2EFindMail(t *testing.T) {
	needChromium(t)
	for _, c := range []struct {
		name, subject, pages string
		id, iterations       int    // the message replied to (0: none) and the loop's iterations
		err                  string // in the failed run's output
	}{
		{"first page", "Slides for Monday's reading group", "", 3, 0, ""},
		{"third page", "Frequency hopping patent draft", "", 11, 2, ""},
		{"nowhere, max reached", "Quarterly tax return", "2", 0, 2, "the until loop at line 28 ran its 2 iterations and its condition still says go on"},
		{"nowhere, no older page", "Quarterly tax return", "", 0, 2, `link(name: "Older")`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, base := demo(t)
			t.Setenv("FIND_MAIL_PIN", "4711")
			root := t.TempDir()
			args := []string{"run", workflow(t, "demo_find_mail.cog", base), "--dir", root, "--yes",
				"--input", "subject=" + c.subject, "--input-env", "pin=FIND_MAIL_PIN"}
			if c.pages != "" {
				args = append(args, "--input", "pages="+c.pages)
			}
			r := runWith(context.Background(), "", args...)
			out := r.stdout + r.stderr
			if c.err == "" && r.code != exitOK {
				t.Fatalf("exit %d\n%s", r.code, out)
			}
			if c.err != "" && (r.code != exitStepFailed || !strings.Contains(out, c.err)) {
				t.Fatalf("exit %d, want %d with %q\n%s", r.code, exitStepFailed, c.err, out)
			}
			replies := s.State().Replies
			switch {
			case c.id == 0 && len(replies) != 0:
				t.Errorf("a reply was sent for a subject on no page: %+v", replies)
			case c.id != 0 && (len(replies) != 1 || replies[0].MessageID != c.id || replies[0].Subject != "Re: "+c.subject || !replies[0].PINGiven):
				t.Errorf("replies %+v, want one to message %d, %q, with the PIN", replies, c.id, c.subject)
			}
			runs, err := journal.List(root)
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs %v, %v", runs, err)
			}
			run, err := journal.Load(root, runs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			var loops []int
			for _, it := range run.Iterations {
				if l := it.Loop[len(it.Loop)-1]; l.Var == "until" {
					loops = append(loops, l.Index)
				}
			}
			if len(loops) != c.iterations {
				t.Errorf("%d iterations of the until loop (%v), want %d", len(loops), loops, c.iterations)
			}
			clicks := 0
			for _, st := range run.Steps {
				if st.Step == "op2" && (st.Outcome == journal.OK || st.Outcome == "") {
					clicks++
				}
			}
			if clicks != c.iterations {
				t.Errorf("Older clicked %d times, want %d", clicks, c.iterations)
			}
		})
	}
}
