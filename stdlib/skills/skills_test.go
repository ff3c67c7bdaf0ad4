package skills_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

func errorsOf(ds diag.List) string {
	var b strings.Builder
	for _, d := range ds {
		if d.Severity == diag.Error {
			b.WriteString(d.String() + "\n")
		}
	}
	return b.String()
}

// TestStdlibDocumentedAndChecks: every shipped skill has a description and
// an example, and its example, as the step of a task run by the skill's
// driver, checks. Checking the example checks the skill's body too, in
// its library.
func TestStdlibDocumentedAndChecks(t *testing.T) {
	if ds := skills.StdlibDiagnostics(); len(ds) > 0 {
		t.Fatalf("the shipped libraries do not parse:\n%s", ds)
	}
	for _, s := range skills.Stdlib().All("") {
		t.Run(s.Driver+"/"+s.Name(), func(t *testing.T) {
			if d := s.Description(); d == "" || strings.Contains(d, "skill library") {
				t.Errorf("%s has no description comment of its own: %q", s.Name(), d)
			}
			ex := s.Example()
			if !strings.HasPrefix(ex, s.Name()+"(") {
				t.Fatalf("example %q does not call %s", ex, s.Name())
			}
			src := "task t \"T\" {\n  driver " + s.Driver + "\n  x = " + ex + "\n}\n"
			f, ds := syntax.Parse("example.cog", []byte(src))
			if ds.HasErrors() {
				t.Fatalf("example %q: %s", ex, errorsOf(ds))
			}
			info, ds := check.Check(f, kb.CheckEnv(nil))
			if e := errorsOf(ds); e != "" {
				t.Fatalf("example %q does not check:\n%s", ex, e)
			}
			if info.LibrarySkills[s.Name()] != s.Decl {
				t.Errorf("the example's call did not resolve to the library skill")
			}
		})
	}
}

// TestStdlibFilesHoldSkillsOnly checks each library file as a workflow of
// its own (with a task naming the driver), so that a skill no example
// reaches is checked too.
func TestStdlibFilesHoldSkillsOnly(t *testing.T) {
	for _, driver := range skills.Drivers {
		src, err := skills.StdlibSource(driver)
		if err != nil {
			t.Fatal(err)
		}
		whole := string(src) + "\ntask t \"T\" {\n  driver " + driver + "\n}\n"
		f, ds := syntax.Parse(driver+".cog", []byte(whole))
		if ds.HasErrors() {
			t.Fatalf("%s: %s", driver, errorsOf(ds))
		}
		if _, ds := check.Check(f, kb.CheckEnv(nil)); errorsOf(ds) != "" {
			t.Errorf("%s.cog does not check:\n%s", driver, errorsOf(ds))
		}
	}
}

// TestProjectSkills reads a project's skills folder: skills per driver,
// a project skill hiding a shipped one, errors with positions.
func TestProjectSkills(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("browser/search_wiki.cog", "# Project skills of the wiki.\n# Not a description.\n\n# Search the wiki.\n# example: search_wiki(\"Kenya\")\nskill search_wiki(kw: text) {\n  o = open(\"http://127.0.0.1:8088/wiki?q=\" + kw)\n}\n")
	write("android/broken.cog", "skill broken( {\n}\n")
	write("uia/task.cog", "task t \"T\" {\n  driver uia\n}\n")
	write("notes.txt", "not a skill")
	write("uia/huge.cog", "# Huge.\n"+strings.Repeat("#", 8<<20))
	write("browser/zz_again.cog", "# Again.\nskill search_wiki(kw: text) {\n  w = wait(1)\n}\n# An action's name.\nskill click(kw: text) {\n  w = wait(1)\n}\n")
	lib, ds := skills.WithProject(dir)
	s := lib.Lookup("browser", "search_wiki")
	if s == nil || !s.Project || s.Description() != "Search the wiki." || s.Example() != `search_wiki("Kenya")` {
		t.Fatalf("search_wiki = %+v", s)
	}
	if lib.Lookup("android", "search_wiki") != nil {
		t.Errorf("a browser skill is callable from android")
	}
	msgs := errorsOf(ds)
	for _, want := range []string{
		filepath.Join(dir, "android", "broken.cog") + ":1:",
		filepath.Join(dir, "uia", "task.cog") + ":1:6: error: a skill library holds skills only; task t belongs in a workflow file",
		filepath.Join(dir, "browser", "zz_again.cog") + ":2:7: error: skill search_wiki is already declared at " + filepath.Join(dir, "browser", "search_wiki.cog") + ":6:7",
		filepath.Join(dir, "browser", "zz_again.cog") + ":6:7: error: skill click has the name of an action",
		filepath.Join(dir, "uia", "huge.cog") + ": error: cannot read the skill file: " + filepath.Join(dir, "uia", "huge.cog") + ": larger than 8 MiB",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, msgs)
		}
	}
	// The shipped library is not changed by a project's.
	if skills.Stdlib().Lookup("browser", "search_wiki") != nil {
		t.Errorf("WithProject changed the shipped library")
	}
	// A project skill of a shipped skill's name hides it.
	for _, shipped := range skills.Stdlib().All("") {
		write(shipped.Driver+"/mine.cog", "# Mine.\nskill "+shipped.Name()+"() {\n  w = wait(1)\n}\n")
		lib, _ := skills.WithProject(dir)
		if got := lib.Lookup(shipped.Driver, shipped.Name()); got == nil || !got.Project {
			t.Errorf("the project's %s does not hide the shipped one", shipped.Name())
		}
		break
	}
}
