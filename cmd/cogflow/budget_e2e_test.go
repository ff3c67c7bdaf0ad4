package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestE2ECandidateBudgetSetting: cogflow.hcl's candidate_budget reaches the
// answerer: on a page of 400 links, the choice prompt offers as many
// candidates as the budget holds, far fewer with a small budget than with
// the default, and the link the choice is about in both.
func TestE2ECandidateBudgetSetting(t *testing.T) {
	needChromium(t)
	var page strings.Builder
	page.WriteString("<!doctype html><title>Links</title><ul>")
	for i := range 400 {
		fmt.Fprintf(&page, "<li><a href=\"/item/%d\">Catalogue entry %d</a></li>", i, i)
	}
	page.WriteString("<li><a href=\"/item/kenya\">Mount Kenya, an extinct volcano</a></li></ul>")
	mux := http.NewServeMux()
	mux.HandleFunc("/links", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, page.String()) })
	mux.HandleFunc("/item/", func(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, "<title>%s</title>ok", r.URL.Path) })
	site := httptest.NewServer(mux)
	defer site.Close()
	shownRE := regexp.MustCompile(`numbered \[1\] to \[(\d+)\]; (\d+) of (\d+)`)
	tests := []struct {
		name     string
		setting  string // the llm block's body
		min, max int    // candidates shown
	}{
		{"default", "", 15, 40},
		{"small budget", "candidate_budget = 120", 2, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			demo(t) // isolates the configuration
			dir := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "cogflow")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "cogflow.hcl"), []byte("llm {\n  "+tt.setting+"\n}\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			kenya := regexp.MustCompile(`\[(\d+)\] link "Mount Kenya, an extinct volcano"`)
			srv := model(t, llmtest.Rule{Name: "pick", Match: llmtest.LastUserContains("the link about the keyword"),
				Reply: func(q llmtest.Req) llmtest.Reply {
					if m := kenya.FindStringSubmatch(q.LastUser()); m != nil {
						return llmtest.Reply{Text: `{"index": ` + m[1] + `}`}
					}
					return llmtest.Reply{Text: "(the link is not a candidate)"}
				}})
			wf := writeWorkflow(t, "pick.cog", `task pick "Open the link about the keyword" {
  driver browser
  input keyword: text = "Kenya"
  op1 = open("`+site.URL+`/links")
  op2 = click(match_element<"the link about the keyword">(keyword))
}
`)
			r := runWith(context.Background(), "", "run", wf, "--dir", t.TempDir())
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if srv.Count() != 1 {
				t.Fatalf("%d model requests, want 1", srv.Count())
			}
			m := shownRE.FindStringSubmatch(srv.Requests()[0].LastUser())
			if m == nil {
				t.Fatalf("the prompt does not say the list was cut:\n%s", srv.Requests()[0].LastUser())
			}
			var shown int
			fmt.Sscan(m[1], &shown)
			if shown < tt.min || shown > tt.max {
				t.Errorf("%s candidates shown of %s, want %d to %d", m[1], m[3], tt.min, tt.max)
			}
		})
	}
}
