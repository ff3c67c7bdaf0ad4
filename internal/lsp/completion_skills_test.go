package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCompletionOffersLibrarySkills: the project's skills of the file's
// driver are offered with their description, other drivers' are not, and
// a call of one checks (no diagnostic).
func TestCompletionOffersLibrarySkills(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []struct{ rel, src string }{
		{"browser/search_wiki.cog", "# Search the wiki for a keyword.\n# example: search_wiki(\"Kenya\")\nskill search_wiki(keyword: text) {\n  o = open(\"http://127.0.0.1:8088/wiki?q=\" + keyword)\n}\n"},
		{"android/call_home.cog", "# Call home.\nskill call_home() {\n  l = launch(\"com.android.dialer\")\n}\n"},
	} {
		p := filepath.Join(dir, ".cogflow", "skills", f.rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, dir, Options{})
	text, at := cursorDoc(t, "‸LINE‸", "  op3 = sea‸")
	uri := c.open("s.cog", text)
	var list CompletionList
	c.request("textDocument/completion", pos(uri, at.Line, at.Character), &list)
	i := slices.IndexFunc(list.Items, func(it CompletionItem) bool { return it.Label == "search_wiki" })
	if i < 0 {
		t.Fatalf("search_wiki not offered: %v", labels(list.Items))
	}
	if it := list.Items[i]; !strings.Contains(it.Detail, "browser skill") || !strings.Contains(docText(it), "Search the wiki") {
		t.Errorf("search_wiki item = %+v", it)
	}
	if slices.Contains(labels(list.Items), "call_home") {
		t.Errorf("an android skill is offered in a browser task")
	}
	// In a file's second task, run on android, its driver's skills.
	two := "task web {\n  driver browser\n  op1 = search_wiki(\"x\")\n}\ntask phone {\n  driver android\n  op1 = ca"
	uri3 := c.open("two.cog", two+"\n}\n")
	var list3 CompletionList
	c.request("textDocument/completion", pos(uri3, 6, uint32(len("  op1 = ca"))), &list3)
	if got := labels(list3.Items); !slices.Contains(got, "call_home") || slices.Contains(got, "search_wiki") {
		t.Errorf("in the android task: %v", got)
	}
	called := strings.Replace(text, "  op2 = click(button(name: \"Go\"))", "  op2 = search_wiki(\"Kenya\")", 1)
	uri2 := c.open("called.cog", called)
	for _, d := range c.diagnostics(uri2, 1) {
		if strings.Contains(d.Message, "search_wiki") {
			t.Errorf("a call of the project's skill is reported: %s", d.Message)
		}
	}
}

func docText(it CompletionItem) string {
	if it.Documentation == nil {
		return ""
	}
	return it.Documentation.Value
}

// TestHoverLibrarySkill: hovering a call of a project skill shows its
// signature, description and file.
func TestHoverLibrarySkill(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ".cogflow", "skills", "browser", "search_wiki.cog")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	src := "# Search the wiki for a keyword.\n# example: search_wiki(\"Kenya\")\nskill search_wiki(keyword: text) {\n  o = open(\"http://127.0.0.1:8088/wiki?q=\" + keyword)\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, dir, Options{})
	text := "task t \"é 中 😀\" {\n  driver browser\n  op1 = search_wiki(\"Kenya\")\n}\n"
	uri := c.open("h.cog", text)
	c.diagnostics(uri, 1)
	var h Hover
	c.request("textDocument/hover", pos(uri, 2, 10), &h)
	for _, want := range []string{"search_wiki(keyword: text)", "Search the wiki for a keyword.", "browser library skill, declared in " + p} {
		if !strings.Contains(strings.ReplaceAll(h.Contents.Value, `\_`, "_"), want) {
			t.Errorf("hover lacks %q:\n%s", want, h.Contents.Value)
		}
	}
}

// TestHoverLibrarySkillOfTheTasksDriver: two drivers' libraries declare
// greet; a hover in each task documents its own driver's.
func TestHoverLibrarySkillOfTheTasksDriver(t *testing.T) {
	dir := t.TempDir()
	for _, drv := range []string{"browser", "android"} {
		p := filepath.Join(dir, ".cogflow", "skills", drv, "greet.cog")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# Greet on "+drv+".\nskill greet() {\n  w = wait(1)\n}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := newTestClient(t, dir, Options{})
	text := "task web {\n  driver browser\n  op1 = greet()\n}\ntask phone {\n  driver android\n  op1 = greet()\n}\n"
	uri := c.open("two.cog", text)
	c.diagnostics(uri, 1)
	for _, tc := range []struct {
		line uint32
		want string
	}{{2, "Greet on browser."}, {6, "Greet on android."}} {
		var h Hover
		c.request("textDocument/hover", pos(uri, tc.line, 9), &h)
		if !strings.Contains(h.Contents.Value, tc.want) {
			t.Errorf("hover on line %d lacks %q:\n%s", tc.line+1, tc.want, h.Contents.Value)
		}
	}
}
