package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
)

// Twins on a real page: the driver searches in place (Find), so the run
// reads what surrounds the tied buttons from a whole observation. Alike
// buttons are one control (the first is clicked, and the journal says a
// tie was settled); buttons told apart by the text before them, or whose
// action cannot be undone, stay an ambiguity.
func TestRunTwinsInBrowser(t *testing.T) {
	needChromium(t)
	s := newSite(t)
	cases := []struct {
		name, body, button string
		want               string // the clicked button's data-n, or a part of the error
	}{
		{"alike", `<h2>Pick one</h2><div><button onclick="document.title='1'">OK</button><button onclick="document.title='2'">OK</button></div>`, "OK", "1"},
		{"told apart", `<div><span>Invoice 1</span><button onclick="document.title='1'">Edit</button><span>Invoice 2</span><button onclick="document.title='2'">Edit</button></div>`, "Edit", "the text just before each differs"},
		{"irreversible", `<div><button onclick="document.title='1'">Delete</button><button onclick="document.title='2'">Delete</button></div>`, "Delete", "cannot be undone"},
	}
	d := sharedDriver(t)
	for k, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := s.page("/twins"+string(rune('a'+k)), "<!doctype html><title>0</title><body>"+tc.body+"</body>")
			src := "task t {\n  driver browser\n  op0 = open(\"" + url + "\")\n  op1 = click(button(name: \"" + tc.button + "\"))\n  op2 = wait(1)\n}\n"
			file, task, info := checkedTask(t, "twins.cog", []byte(src))
			root := t.TempDir()
			w, err := journal.Open(root, journal.RunMeta{Workflow: "twins.cog", Task: "t", Driver: "browser", Row: -1})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, runErr := runtime.New(file, task, info, d, runtime.Options{Observer: &runtime.JournalObserver{W: w, Task: "t"}}).Run(ctx)
			if err := w.Finish(journal.OK, runErr); err != nil {
				t.Fatal(err)
			}
			title := observe(t, d).Title
			if tc.want != "1" {
				if runErr == nil || !strings.Contains(runErr.Error(), tc.want) || title != "0" {
					t.Fatalf("err %v, title %q; want an ambiguity saying %q and nothing clicked", runErr, title, tc.want)
				}
				return
			}
			if runErr != nil || title != "1" {
				t.Fatalf("err %v, title %q; want the first button clicked", runErr, title)
			}
			run, err := journal.Load(root, w.ID())
			if err != nil {
				t.Fatal(err)
			}
			if len(run.Steps) < 2 || len(run.Steps[1].Ties) != 1 || !strings.HasPrefix(run.Steps[1].Ties[0], "twins: 2 tied") {
				t.Fatalf("journal steps %+v, want op1's tie", run.Steps)
			}
		})
	}
}
