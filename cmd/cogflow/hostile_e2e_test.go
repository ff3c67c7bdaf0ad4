package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// A model that a page talked into it answers with a URL, and the workflow
// opens it. A URL nobody wrote may only be http(s) on an origin the
// workflow names or cogflow.hcl allows; anything else fails the step
// before the browser goes there, so no local file's text reaches the
// model with the next screen.

// followWorkflow opens the wiki, opens the address the model gives, and
// reads the screen there: the third step's prompt carries what the page
// the second step opened shows.
func followWorkflow(t *testing.T, base, second string) string {
	return writeWorkflow(t, "follow.cog", `task follow "Follow the link the article names" {
  driver browser
  op1 = open("`+base+`/wiki")
  op2 = open(`+second+`)
  op3 = type(textbox(id: "q"), extract_information<"the first sentence on the page">("sentence"))
}
`)
}

func TestE2EHostileURLs(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	// Another site: an off-origin http: address.
	var visited atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		visited.Add(1)
		w.Write([]byte(`<title>Elsewhere</title><p>Elsewhere is fine.</p><input id="q">`))
	}))
	defer other.Close()
	// A local file whose text must never reach the model.
	const marker = "local-file-text-5c1d"
	dir := t.TempDir()
	local := filepath.Join(dir, "private.html")
	if err := os.WriteFile(local, []byte(`<title>private</title><p>`+marker+`</p><input id="q">`), 0o600); err != nil {
		t.Fatal(err)
	}
	fromModel := `extract_information<"the address of the article to read next">("next")`
	for _, tc := range []struct {
		name, answer, second string
		allow                string // cogflow.hcl's urls block, "" for none
		refused              string // in stderr; "" when the page opens
	}{
		{name: "javascript", answer: "javascript:document.title='pwned'", refused: "its scheme is javascript:"},
		{name: "file", answer: "file://" + local, refused: "its scheme is file:"},
		{name: "data", answer: "data:text/html,<p>" + marker + "</p>", refused: "its scheme is data:"},
		{name: "off origin", answer: other.URL + "/x", refused: "is not one the workflow visits or names"},
		{name: "same origin", answer: base + "/wiki/Kilimanjaro"},
		{name: "allowed in cogflow.hcl", answer: other.URL + "/x", allow: other.URL},
		// The control: a URL the person wrote is opened as written, and
		// the test sees the file's text reach the model.
		{name: "control: a literal file URL", second: `"file://` + local + `"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project := t.TempDir()
			t.Chdir(project)
			if tc.allow != "" {
				writeFile(t, project, "cogflow.hcl", "urls {\n  allow = [\""+tc.allow+"\"]\n}\n")
			}
			srv := model(t,
				llmtest.Rule{Name: "link", Match: llmtest.LastUserContains("the address of the article to read next"), Reply: llmtest.Text(tc.answer)},
				llmtest.Rule{Name: "read", Match: llmtest.LastUserContains("the first sentence on the page"), Reply: llmtest.Text("A sentence.")},
			)
			second := tc.second
			if second == "" {
				second = fromModel
			}
			before := visited.Load()
			r := runWith(context.Background(), "", "run", followWorkflow(t, base, second), "--dir", project)
			reqs := srv.Requests()
			for _, q := range reqs {
				if strings.Contains(q.Prompt(), marker) != strings.HasPrefix(tc.name, "control") {
					t.Errorf("request %d carries the local file's text: %v (control: it must)", q.Seq, strings.Contains(q.Prompt(), marker))
				}
			}
			if tc.refused == "" {
				if r.code != exitOK || len(reqs) != map[bool]int{true: 1, false: 2}[tc.second != ""] {
					t.Fatalf("exit %d, %d requests\n%s", r.code, len(reqs), r.stderr)
				}
				return
			}
			if r.code != exitStepFailed || !strings.Contains(r.stderr, "refused to open") || !strings.Contains(r.stderr, tc.refused) ||
				!strings.Contains(r.stderr, "came from a model's answer") {
				t.Fatalf("exit %d, want %d and a refusal saying %q\n%s", r.code, exitStepFailed, tc.refused, r.stderr)
			}
			t.Logf("refused: %s", r.stderr)
			if len(reqs) != 1 {
				t.Errorf("%d model requests, want 1: the run stops at the refused step", len(reqs))
			}
			if visited.Load() != before {
				t.Error("the browser went to the off-origin site")
			}
			if tc.name == "off origin" && !strings.Contains(r.stderr, "urls { allow = [") {
				t.Errorf("the refusal does not say how to allow the origin:\n%s", r.stderr)
			}
		})
	}
}

// TestE2EHugeAnswer: a 50 MB answer fails the step with a short, clear
// error after one request: it is neither read whole nor sent back.
func TestE2EHugeAnswer(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	huge := strings.Repeat("x", 50<<20)
	srv := model(t, llmtest.Rule{Name: "huge", Match: llmtest.LastUserContains("the address of the article to read next"), Reply: llmtest.Text(huge)})
	wf := followWorkflow(t, base, `extract_information<"the address of the article to read next">("next")`)
	r := runWith(context.Background(), "", "run", wf, "--dir", t.TempDir())
	if r.code != exitStepFailed || !strings.Contains(r.stderr, "the response is larger than 1048576 bytes, so it was not read") {
		t.Fatalf("exit %d\n%.2000s", r.code, r.stderr)
	}
	if len(r.stderr) > 4000 || len(r.stdout) > 4000 {
		t.Errorf("the output has %d+%d bytes: it must not carry the answer", len(r.stdout), len(r.stderr))
	}
	if n := srv.Count(); n != 1 {
		t.Errorf("%d model requests, want 1 (neither retried nor repaired)", n)
	}
}

// TestE2EInvalidAnswerEchoedShort: an invalid answer under the size cap is
// repeated in the repair request cut to a few kilobytes.
func TestE2EInvalidAnswerEchoedShort(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	long := "Number " + strings.Repeat("seven ", 100000) // 600 KB, not an index
	srv := model(t, llmtest.Rule{Name: "rambling", Match: llmtest.Contains("the link about the mountain"), Reply: llmtest.Text(long)})
	wf := writeWorkflow(t, "pick.cog", `task pick "Pick a link" {
  driver browser
  op1 = open("`+base+`/wiki/Kilimanjaro")
  op2 = click(match_element<"the link about the mountain">("mountain"))
}
`)
	r := runWith(context.Background(), "", "run", wf, "--dir", t.TempDir())
	if r.code != exitStepFailed || len(r.stderr) > 4000 {
		t.Fatalf("exit %d, %d bytes of stderr\n%.2000s", r.code, len(r.stderr), r.stderr)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want the question and one repair", len(reqs))
	}
	repair := reqs[1].Body
	if len(repair) > 64<<10 || !strings.Contains(string(repair), "[cut by cogflow: the answer had 600007 bytes]") {
		t.Errorf("the repair request has %d bytes", len(repair))
	}
}
