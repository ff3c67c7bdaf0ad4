package check_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// testLibrary is a small library of two drivers, independent of what the
// shipped ones hold.
func testLibrary(t *testing.T) *skills.Library {
	t.Helper()
	var l skills.Library
	for _, f := range []struct{ driver, src string }{
		{"browser", `
# Open a page with one query parameter.
# example: open_query("http://127.0.0.1:8088/wiki", "q", "Kilimanjaro")
skill open_query(page: url, name: text, value: text) {
  o = open(page + "?" + name + "=" + value)
}
# Sign in with a secret.
skill lib_sign_in(user: text, password: secret) {
  u = type(textbox(name: "User"), user)
  p = type(textbox(name: "Password"), password)
  s = lib_press("Sign in")
}
skill lib_press(name: text) {
  c = click(button(name: name))
}
skill lib_loop_a(x: text) {
  a = lib_loop_b(x)
}
skill lib_loop_b(x: text) {
  b = lib_loop_a(x)
}
`},
		{"android", `
# Dial a number.
skill dial_number(number: text) {
  d = launch("com.android.dialer")
  t = type(textbox(name: "Number"), number)
}
`},
	} {
		if ds := l.Add(f.driver, "lib/"+f.driver+".cog", []byte(f.src), false); ds.HasErrors() {
			t.Fatalf("library %s: %v", f.driver, ds)
		}
	}
	return &l
}

// TestLibrarySkills checks calls of library skills: resolved by the
// task's driver, hidden by the file's own skills, refused for a skill
// only another driver has, and typed like the file's own.
func TestLibrarySkills(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		wantErr   string   // "" means no error
		wantLib   []string // Info.LibrarySkills' names
	}{
		{"browser task calls its library", `task t "T" {
  driver browser
  input kw: text
  o = open_query("http://127.0.0.1:8088/wiki", "q", kw)
}`, "", []string{"open_query"}},
		{"library skill calls library skill", `task t "T" {
  driver browser
  input pw: secret
  s = lib_sign_in("ann", pw)
}`, "", []string{"lib_press", "lib_sign_in"}},
		{"other driver's skill", `task t "T" {
  driver browser
  d = dial_number("123")
}`, "skill dial_number is in the android skill library; the browser driver lacks it", nil},
		{"android task cannot call browser skill", `task t "T" {
  driver android
  o = open_query("http://x", "q", "v")
}`, "skill open_query is in the browser skill library; the android driver lacks it", nil},
		{"file skill hides library skill", `skill open_query(n: number) {
  w = wait(n)
}
task t "T" {
  driver browser
  o = open_query(3)
}`, "", nil},
		{"file skill calls library skill under the file's driver", `skill look(kw: text) {
  o = open_query("http://127.0.0.1:8088/wiki", "q", kw)
}
task t "T" {
  driver browser
  l = look("Kenya")
}`, "", []string{"open_query"}},
		{"file skill calling a library skill, from another driver's task", `skill look(kw: text) {
  o = open_query("http://127.0.0.1:8088/wiki", "q", kw)
}
task web "W" {
  driver browser
  l = look("Kenya")
}
task phone "P" {
  driver android
  l = look("Kenya")
}`, "t.cog:10:7: error: skill look calls library skill open_query of the browser driver", nil},
		{"file skill calling a library skill through a file skill, from another driver's task", `task web "W" {
  driver browser
  l = look("Kenya")
}
task phone "P" {
  driver android
  l = outer("Kenya")
}
skill outer(kw: text) {
  i = look(kw)
}
skill look(kw: text) {
  o = lib_press(kw)
}`, "t.cog:7:7: error: skill outer calls library skill lib_press of the browser driver", nil},
		{"file skill hides a skill a library skill calls", `skill lib_press(name: text) {
  w = wait(2)
}
task t "T" {
  driver browser
  input pw: secret
  s = lib_sign_in("ann", pw)
}`, "t.cog:1:7: error: skill lib_press hides the browser library's skill lib_press, which library skill lib_sign_in calls", nil},
		{"file skill with a library skill's name, no library skill calls it", `skill lib_press(name: text) {
  w = wait(2)
}
task t "T" {
  driver browser
  s = lib_press("x")
}`, "", nil},
		{"wrong argument type", `task t "T" {
  driver browser
  o = open_query("http://x", "q", 3, 4)
}`, "open_query", nil},
		{"secret into a text parameter", `task t "T" {
  driver browser
  input pw: secret
  o = open_query("http://x", "q", pw)
}`, "secret", nil},
		{"recursion inside the library", `task t "T" {
  driver browser
  a = lib_loop_a("x")
}`, "cannot recurse", nil},
		{"skill called in an expression", `task t "T" {
  driver browser
  o = wait(open_query("http://x", "q", "v"))
}`, "runs as a step of its own", nil},
		{"misspelt library skill", `task t "T" {
  driver browser
  o = open_qery("http://x", "q", "v")
}`, "did you mean open_query", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, ds := syntax.Parse("t.cog", []byte(tc.src))
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			env := kb.CheckEnv(nil)
			env.Skills = testLibrary(t)
			info, ds := check.Check(f, env)
			var msgs []string
			for _, d := range ds {
				if d.Severity.String() == "error" {
					msgs = append(msgs, d.String()+" "+d.Suggestion)
				}
			}
			all := strings.Join(msgs, "\n")
			if tc.wantErr == "" && all != "" {
				t.Fatalf("unexpected errors:\n%s", all)
			}
			if tc.wantErr != "" && !strings.Contains(all, tc.wantErr) {
				t.Fatalf("errors %q lack %q", all, tc.wantErr)
			}
			if tc.wantErr != "" {
				return
			}
			var got []string
			for n := range info.LibrarySkills {
				got = append(got, n)
			}
			if strings.Join(sorted(got), ",") != strings.Join(tc.wantLib, ",") {
				t.Errorf("LibrarySkills = %v, want %v", sorted(got), tc.wantLib)
			}
			for _, s := range info.LibrarySkills {
				for _, st := range s.Body.Stmts {
					if _, ok := info.StepTypes[stepOf(st)]; !ok && stepOf(st) != nil {
						t.Errorf("library step %s has no type: the interpreter needs one", stepOf(st).Name.Name)
					}
				}
			}
		})
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	slices.Sort(out)
	return out
}

func stepOf(s ast.Stmt) *ast.Step {
	st, _ := s.(*ast.Step)
	return st
}
