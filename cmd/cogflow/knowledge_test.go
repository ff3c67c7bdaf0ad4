package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/knowledge"
)

const (
	siteApp    = "http://127.0.0.1:8088"
	androidApp = "com.example.contacts"
)

// fillKnowledge stores what an exploration of two apps would have learned.
func fillKnowledge(t *testing.T, dir string) {
	t.Helper()
	s, err := knowledge.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := func(m int) time.Time { return time.Date(2026, 11, 25, 8, m, 0, 0, time.UTC) }
	menu := knowledge.Step{Op: "click", Target: `button(name: "More options")`}
	imp := knowledge.Step{Op: "click", Target: `menuitem(name: "Import")`}
	file := knowledge.Step{Op: "click", Target: `listitem(name: "{file}")`}
	for _, err := range []error{
		s.AddTransition(knowledge.Transition{App: androidApp, From: "android-app://com.example.contacts#aaa", Action: menu, To: "android-app://com.example.contacts#bbb", Undo: "back", Seen: at(1)}),
		s.AddTransition(knowledge.Transition{App: androidApp, From: "android-app://com.example.contacts#aaa", Action: menu, To: "android-app://com.example.contacts#bbb", Seen: at(2)}),
		s.SaveTask(knowledge.Task{App: androidApp, Command: "import contacts from a.vcf", Intent: "import contacts from {file}", Params: map[string]string{"file": "a.vcf"}, Saved: at(3)}),
		s.SavePath(knowledge.Path{App: androidApp, Command: "import contacts from {file}", Steps: []knowledge.Step{menu, imp, file}, Saved: at(4)}),
		s.AddLesson(knowledge.Lesson{App: androidApp, Command: "import contacts from {file}", Text: "Import is in the overflow menu, not in Settings", Saved: at(5)}),
		s.AddTransition(knowledge.Transition{App: siteApp, From: siteApp + "/#ccc", Action: knowledge.Step{Op: "click", Target: `link(name: "Wiki")`}, To: siteApp + "/wiki#ddd", Seen: at(6)}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func TestKnowledgeCommands(t *testing.T) {
	isolateConfig(t)
	t.Chdir(t.TempDir())
	// Before anything is learned: where the store would be, and what fills it.
	if r := runCLI(t, "", "knowledge", "list"); r.code != exitOK || !strings.Contains(r.stdout, "no knowledge yet: .cogflow/knowledge.db does not exist; cogflow explore") {
		t.Errorf("list without a store: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "knowledge", "list", "--json"); r.code != exitOK || r.stdout != "[]\n" {
		t.Errorf("list --json without a store: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := runCLI(t, "", "knowledge", "show", "env-1"); r.code != exitBadInput || !strings.Contains(r.stderr, "no knowledge yet") {
		t.Errorf("show without a store: exit %d\n%s", r.code, r.stderr)
	}
	fillKnowledge(t, ".cogflow")

	r := runCLI(t, "", "knowledge", "list")
	want := `# .cogflow/knowledge.db: 5 entries
ID                 KIND         APP                    SAVED             SUMMARY
env-531dcc864d     environment  com.example.contacts   2026-11-25 08:02  #aaa → click button(name: "More options") → #bbb (seen 2×)
env-e01ed142e8     environment  http://127.0.0.1:8088  2026-11-25 08:06  /#ccc → click link(name: "Wiki") → /wiki#ddd (seen 1×)
task-81cff6bf97    task         com.example.contacts   2026-11-25 08:03  "import contacts from a.vcf" as "import contacts from {file}"
exec-7bc66046f9    execution    com.example.contacts   2026-11-25 08:04  "import contacts from {file}" in 3 steps: click button(name: "More options"); click menuitem(name: …
lesson-6fad290556  lesson       com.example.contacts   2026-11-25 08:05  "import contacts from {file}": Import is in the overflow menu, not in Settings
`
	if r.code != exitOK || r.stdout != want {
		t.Errorf("list: exit %d\n%s\nwant\n%s%s", r.code, r.stdout, want, r.stderr)
	}
	ids := map[string]string{} // kind → id of an entry of it (the Android app's)
	for _, line := range strings.Split(r.stdout, "\n")[2:] {
		if f := strings.Fields(line); len(f) > 2 && f[2] == androidApp {
			ids[f[1]] = f[0]
		}
	}

	for _, tc := range []struct {
		args []string
		code int
		want string // in stdout for exitOK, else in stderr
	}{
		{[]string{"knowledge", "list", "--kind", "lesson"}, exitOK, "# .cogflow/knowledge.db: 1 entry\n"},
		{[]string{"knowledge", "list", "--app", siteApp}, exitOK, "# .cogflow/knowledge.db: 1 entry\n"},
		{[]string{"knowledge", "list", "--kind", "recipes"}, exitUsage, `unknown kind of knowledge "recipes" (environment, task, execution or lesson)`},
		{[]string{"knowledge", "show", ids["environment"]}, exitOK, ids["environment"] + " (environment)\napp:      com.example.contacts\nfrom:     android-app://com.example.contacts#aaa\naction:   click button(name: \"More options\")\nto:       android-app://com.example.contacts#bbb\nundo:     back\nseen:     2 times, last 2026-11-25 08:02:00 UTC\n"},
		{[]string{"knowledge", "show", ids["execution"]}, exitOK, "step 3:   click listitem(name: \"{file}\")\n"},
		{[]string{"knowledge", "show", ids["task"]}, exitOK, "param:    file = \"a.vcf\"\n"},
		{[]string{"knowledge", "show", "env-nope"}, exitBadInput, `no knowledge entry "env-nope" in .cogflow/knowledge.db (cogflow knowledge list shows the ids)`},
		{[]string{"knowledge", "show"}, exitUsage, "give one or more ids"},
		{[]string{"knowledge", "forget", ids["lesson"], "lesson-typo"}, exitBadInput, `no knowledge entry "lesson-typo"`},
		{[]string{"knowledge", "list", "--kind", "lesson"}, exitOK, "1 entry"}, // the typo forgot nothing
		{[]string{"knowledge", "forget"}, exitUsage, "give one or more ids, or --all --app A"},
		{[]string{"knowledge", "forget", "--all"}, exitUsage, "--all needs --app A"},
		{[]string{"knowledge", "forget", ids["lesson"]}, exitOK, "forgot " + ids["lesson"] + "\n"},
		{[]string{"knowledge", "list", "--kind", "lesson"}, exitOK, "# .cogflow/knowledge.db: 0 entries\n"},
		{[]string{"knowledge", "forget", "--all", "--app", androidApp}, exitOK, "forgot 3 entries about com.example.contacts\n"},
		{[]string{"knowledge", "list"}, exitOK, "# .cogflow/knowledge.db: 1 entry\n"},
		{[]string{"knowledge", "frobnicate"}, exitUsage, `unknown subcommand "frobnicate" (list, show, forget)`},
		{[]string{"knowledge"}, exitUsage, "Usage: cogflow knowledge"},
	} {
		r := runCLI(t, "", tc.args...)
		out := r.stdout
		if tc.code != exitOK {
			out = r.stderr
		}
		if r.code != tc.code || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, want %d and %q in\n%s%s", tc.args, r.code, tc.code, tc.want, r.stdout, r.stderr)
		}
	}

	// The replayed path went with --all: the next run explores afresh.
	s, err := knowledge.Open(".cogflow")
	if err != nil {
		t.Fatal(err)
	}
	_, ok, err := s.Path(androidApp, "import contacts from {file}")
	s.Close()
	if ok || err != nil {
		t.Errorf("forget --all kept the path (ok %v, err %v)", ok, err)
	}
}

func TestKnowledgeListJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj")
	fillKnowledge(t, dir)
	r := runCLI(t, "", "knowledge", "list", "--json", "--kind", "execution", "--dir", dir)
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK {
		t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	if len(got) != 1 || got[0]["kind"] != "execution" || got[0]["app"] != androidApp || got[0]["saved"] != "2026-11-25T08:04:00Z" ||
		!strings.HasPrefix(got[0]["id"].(string), "exec-") || !strings.Contains(got[0]["summary"].(string), "in 3 steps") {
		t.Errorf("list --json: %v", got)
	}
}

func TestKnowledgeDamagedStore(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, knowledge.FileName, strings.Repeat("garbage ", 1000))
	r := runCLI(t, "", "knowledge", "list", "--dir", dir)
	if r.code != exitUsage || !strings.Contains(r.stderr, "cogflow knowledge list: the knowledge store "+filepath.Join(dir, knowledge.FileName)+" cannot be opened: ") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
