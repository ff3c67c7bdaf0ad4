package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver/android/adbtest"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/kb"
)

var exploreCandidate = regexp.MustCompile(`(?m)^(\d+)\. (.*)$`)

// exploreModel is the scripted model of `cogflow explore`: it ranks the
// menu's Settings first (a wrong branch), judges the goal reached when the
// list shows an imported contact, and checks every request.
func exploreModel(t *testing.T) *llmtest.Server {
	check := func(r llmtest.Req) {
		if !strings.Contains(r.Prompt(), "Goal: import contacts from a file") {
			t.Errorf("request %d lacks the goal:\n%s", r.Seq, r.Prompt())
		}
	}
	return llmtest.New(t,
		llmtest.Rule{Name: "rank", Match: llmtest.Contains("Candidates:"), Reply: func(r llmtest.Req) llmtest.Reply {
			check(r)
			var b strings.Builder
			for _, l := range exploreCandidate.FindAllStringSubmatch(r.LastUser(), -1) {
				score := 1
				switch {
				case strings.Contains(l[2], "More options"), strings.Contains(l[2], "Settings"):
					score = 5
				case strings.Contains(l[2], "Import"), strings.Contains(l[2], "contacts.vcf"):
					score = 4
				}
				fmt.Fprintf(&b, "%s: %d\n", l[1], score)
			}
			if b.Len() == 0 {
				t.Errorf("request %d lists no candidates", r.Seq)
			}
			return llmtest.Reply{Text: b.String()}
		}},
		llmtest.Rule{Name: "reached", Match: llmtest.Contains("Is the goal reached?"), Reply: func(r llmtest.Req) llmtest.Reply {
			check(r)
			if strings.Contains(r.LastUser(), `"Dana Whitfield"`) {
				return llmtest.Reply{Text: "yes: the list shows the contacts of the file"}
			}
			return llmtest.Reply{Text: "no: nothing was imported yet"}
		}},
		llmtest.Rule{Name: "lesson", Match: llmtest.Contains("What should a later exploration"), Reply: func(r llmtest.Req) llmtest.Reply {
			check(r)
			return llmtest.Reply{Text: "Settings holds no import."}
		}},
	)
}

// `cogflow explore` on the simulated phone writes the trace of the path it
// found; `cogflow compile` makes a workflow of it, which imports the
// contacts on a fresh phone.
func TestExploreE2EAndroidCompileRun(t *testing.T) {
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	model := exploreModel(t)
	t.Setenv("OPENAI_BASE_URL", model.URL())
	t.Setenv("OPENAI_API_KEY", "sk-test-explore")
	dir := t.TempDir()
	out := filepath.Join(dir, "import.trace.json")
	r := runWith(context.Background(), "", "explore", "import contacts from a file", "--driver", "android",
		"--adb", srv.Addr(), "--app", adbtest.ContactsPackage, "-o", out, "--dir", filepath.Join(dir, ".cogflow"))
	if r.code != exitOK {
		t.Fatalf("explore: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{`forward click listitem(name: "Settings")`, "back back", `forward click listitem(name: "contacts.vcf")`, "the path has 4 steps"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("explore's output lacks %q:\n%s", want, r.stderr)
		}
	}
	if !slices.ContainsFunc(srv.App().Contacts(), func(c adbtest.Contact) bool { return c.Name == "Dana Whitfield" }) {
		t.Errorf("exploring did not import: %v", srv.App().Contacts())
	}
	tr, err := trace.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 4 || tr.Start.App != adbtest.ContactsPackage || len(tr.Snapshots) != 4 {
		t.Errorf("trace: %d events, start %+v, %d snapshots", len(tr.Events), tr.Start, len(tr.Snapshots))
	}

	cog := filepath.Join(dir, "import.cog")
	r = runWith(context.Background(), "", "compile", out, "-o", cog, "--no-llm", "--dir", filepath.Join(dir, ".cogflow"))
	if r.code != exitOK {
		t.Fatalf("compile: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	src, err := os.ReadFile(cog)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the workflow:\n%s", src)
	if !strings.Contains(string(src), "contacts.vcf") || strings.Contains(string(src), "Settings") ||
		!strings.Contains(string(src), `"import contacts from a file"`) {
		t.Errorf("the workflow does not take the path found, without the detour:\n%s", src)
	}

	// Exploring again, on a fresh phone, replays the path knowledge kept.
	again, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := model.Count()
	r = runWith(context.Background(), "", "explore", "import contacts from a file", "--driver", "android",
		"--adb", again.Addr(), "--app", adbtest.ContactsPackage, "-o", filepath.Join(dir, "again.trace.json"), "--dir", filepath.Join(dir, ".cogflow"))
	if r.code != exitOK || !strings.Contains(r.stderr, "replayed from knowledge") || strings.Contains(r.stderr, "forward") {
		t.Errorf("explore again: exit %d\n%s", r.code, r.stderr)
	}
	// The model judges completion once (no --until); it ranks nothing.
	if n := model.Count() - before; n != 1 {
		t.Errorf("exploring again asked the model %d times, want 1 (is the goal reached?)", n)
	}

	fresh, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	r = runWith(context.Background(), "", "run", cog, "--adb", fresh.Addr(), "--dir", filepath.Join(dir, ".cogflow"))
	if r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s\n%s", r.code, r.stdout, r.stderr, src)
	}
	if !slices.ContainsFunc(fresh.App().Contacts(), func(c adbtest.Contact) bool { return c.Name == "Evan Okafor" }) {
		t.Errorf("the compiled workflow did not import on a fresh phone: %v\n%s", fresh.App().Contacts(), src)
	}
}

func TestExploreUsage(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", "")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--driver", "android"}, "give the command to carry out"},
		{[]string{"do it", "--driver", "uia"}, "--driver must be browser or android"},
		{[]string{"do it", "--driver", "android"}, "no model is configured"},
	}
	for _, tc := range cases {
		r := runWith(context.Background(), "", append([]string{"explore"}, tc.args...)...)
		if r.code != exitUsage || !strings.Contains(r.stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want usage and %q", tc.args, r.code, r.stderr, tc.want)
		}
	}
}

// exploreSite is a small contacts site whose import is behind a menu,
// with Settings as a wrong branch that leaves the page.
func exploreSite(t *testing.T) string {
	pages := map[string]string{
		"/": `<h1>Contacts</h1>
<button id="more" aria-haspopup="menu" onclick="document.getElementById('menu').hidden = !document.getElementById('menu').hidden">More options</button>
<div id="menu" role="menu" hidden>
  <div role="menuitem" tabindex="0" onclick="location.href='/settings'">Settings</div>
  <div role="menuitem" tabindex="0" onclick="location.href='/import'">Import/export</div>
</div>
<ul><li>Alice Johnson</li><li>Bob Smith</li></ul>`,
		"/settings": `<h1>Settings</h1><label><input type="checkbox"> Dark theme</label>`,
		"/import":   `<h1>Import/export</h1><a href="/files">Import from .vcf file</a> <a href="/import?exported">Export to .vcf file</a>`,
		"/files":    `<h1>Choose a file</h1><ul><li><a href="/files?no">notes.txt</a></li><li><a href="/imported">contacts.vcf</a></li></ul>`,
		"/imported": `<h1>Contacts</h1><ul><li>Alice Johnson</li><li>Bob Smith</li><li>Dana Whitfield</li><li>Evan Okafor</li></ul>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		fmt.Fprintf(w, "<!doctype html><html><head><title>Contacts</title></head><body>%s</body></html>", body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// `cogflow explore --driver browser` in headless Chromium: the wrong
// branch leaves the page, history back returns with the menu closed, and
// the search opens it again.
func TestExploreE2EBrowser(t *testing.T) {
	needChromium(t)
	base := exploreSite(t)
	model := exploreModel(t)
	t.Setenv("OPENAI_BASE_URL", model.URL())
	t.Setenv("OPENAI_API_KEY", "sk-test-explore")
	dir := t.TempDir()
	out := filepath.Join(dir, "import.trace.json")
	r := runWith(context.Background(), "", "explore", "import contacts from a file", "--driver", "browser",
		"--url", base+"/", "--until", "Dana Whitfield", "-o", out, "--dir", filepath.Join(dir, ".cogflow"))
	if r.code != exitOK {
		t.Fatalf("explore: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("explore:\n%s", r.stderr)
	for _, want := range []string{`forward click menuitem(name: "Settings")`, "back back", `click link(name: "contacts.vcf")`, "the path has 4 steps"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("explore's output lacks %q:\n%s", want, r.stderr)
		}
	}
	if n := strings.Count(r.stderr, " back "); n != 1 {
		t.Errorf("%d back steps, want 1:\n%s", n, r.stderr)
	}
	tr, err := trace.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Events) != 4 || tr.Start.URL != base+"/" {
		t.Errorf("trace: %d events, start %+v", len(tr.Events), tr.Start)
	}
}

// The project's knowledge base marks "import from" irreversible: with no
// one to confirm, exploring never takes it and fails, saying so.
func TestExploreE2EKnowledgeBaseIrreversible(t *testing.T) {
	model := exploreModel(t)
	t.Setenv("OPENAI_BASE_URL", model.URL())
	t.Setenv("OPENAI_API_KEY", "sk-test-explore")
	srv, err := adbtest.NewServer(t, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), ".cogflow")
	k := kb.Default()
	k.Irreversible = append(k.Irreversible, "import from")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "knowledge.hcl"), k.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runWith(context.Background(), "", "explore", "import contacts from a file", "--driver", "android",
		"--adb", srv.Addr(), "--app", adbtest.ContactsPackage, "--until", "Dana Whitfield", "--budget", "12",
		"-o", filepath.Join(dir, "x.trace.json"), "--dir", dir)
	if r.code != exitStepFailed || !strings.Contains(r.stderr, `skip button(name: "Import from .vcf file") (irreversible, not confirmed: its words say import from)`) ||
		!strings.Contains(r.stderr, "Take it? [y/N]") || !strings.Contains(r.stderr, "budget of 12 steps is used up") {
		t.Errorf("exit %d, want %d and the skip:\n%s", r.code, exitStepFailed, r.stderr)
	}
	if len(srv.App().Contacts()) != len(adbtest.SeedContacts) {
		t.Errorf("contacts changed: %v", srv.App().Contacts())
	}
}
