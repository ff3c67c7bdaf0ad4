package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

// clicks serves testdata/anchor and records the ids of the buttons the
// page reports pressed.
type clicks struct {
	mu  sync.Mutex
	ids []string
}

func (c *clicks) get() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ids...)
}

func anchorPage(t *testing.T) (*clicks, string) {
	t.Helper()
	isolateConfig(t)
	page, err := os.ReadFile("testdata/anchor/save.html")
	if err != nil {
		t.Fatal(err)
	}
	c := &clicks{}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	})
	mux.HandleFunc("POST /clicked", func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.ids = append(c.ids, r.URL.Query().Get("id"))
		c.mu.Unlock()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return c, srv.URL
}

// TestE2ENeverSilentlyWrong runs steps whose descriptions name an element
// the page does not have, next to look-alikes, in real Chromium: the run
// stops with exit 3 and a "no element matches" error that lists the
// look-alikes and what each fails, nothing is pressed, and the journal
// records the step and the run as failed. The last case shows that the
// page does answer a description that names a button.
func TestE2ENeverSilentlyWrong(t *testing.T) {
	needChromium(t)
	tests := []struct {
		name, step string
		want       []string // in stderr; nil for a run that must succeed
		pressed    []string
	}{
		{"id not on the page", `op2 = click(button(name: "Save", id: "save-now"))`,
			[]string{`no element matches button(id: "save-now", name: "Save")`, `button(name: "Save", id: "save", path: "main/section/button[1]") — id is "save"`}, nil},
		{"name not on the page", `op2 = click(button(name: "Publish"))`,
			[]string{`no element matches button(name: "Publish")`, `70%  button(name: "Publish later", id: "publish-later", path: "main/section/button[3]") — name is "Publish later"`}, nil},
		{"id of another role", `op2 = click(button(id: "title"))`,
			[]string{`no element matches button(id: "title")`, `it is a textbox, not a button`}, nil},
		{"scope not on the page", `op2 = click(button(name: "Save", within: region(name: "Drafts")))`,
			[]string{`no element matches region(name: "Drafts")`, `name is "Actions"`}, nil},
		{"ambiguous", `op2 = click(button())`,
			[]string{`button() is ambiguous`, `100%  button(name: "Save draft"`}, nil},
		{"words of a text", `op2 = click(button(text: "later"))`, nil, []string{"publish-later"}},
		{"named exactly", `op2 = click(button(name: "save DRAFT"))`, nil, []string{"save-draft"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, base := anchorPage(t)
			root := t.TempDir()
			path := writeWorkflow(t, "strict.cog", "task strict {\n  driver browser\n  op1 = open(\""+base+"/\")\n  "+tt.step+"\n}\n")
			r := runWith(context.Background(), "", "run", path, "--dir", root)
			if tt.want == nil {
				if r.code != exitOK {
					t.Fatalf("exit %d\n%s", r.code, r.stderr)
				}
			} else if r.code != exitStepFailed {
				t.Fatalf("exit %d, want %d\n%s", r.code, exitStepFailed, r.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
				}
			}
			// A press is reported by a request the page sends; give it
			// the time to arrive before saying none came.
			time.Sleep(200 * time.Millisecond)
			if got := c.get(); !slices.Equal(got, tt.pressed) {
				t.Errorf("pressed %q, want %q", got, tt.pressed)
			}
			runs, err := journal.List(root)
			if err != nil || len(runs) != 1 {
				t.Fatalf("runs: %v, %v", runs, err)
			}
			run, err := journal.Load(root, runs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			wantRun, wantStep := journal.Failed, journal.Failed
			if tt.want == nil {
				wantRun, wantStep = journal.OK, journal.OK
			}
			if run.Finish == nil || run.Finish.Outcome != wantRun {
				t.Errorf("run finished as %+v, want %s", run.Finish, wantRun)
			}
			var op2 *journal.StepEvent
			for i := range run.Steps {
				if run.Steps[i].Step == "op2" {
					op2 = &run.Steps[i]
				}
			}
			if op2 == nil || op2.Outcome != wantStep {
				t.Errorf("op2 journaled as %+v, want %s", op2, wantStep)
			}
		})
	}
}
