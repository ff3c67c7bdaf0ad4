package runtime_test

import (
	"context"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// A library file whose steps sit on lines 3 and 4, the lines of the
// workflow's own steps op2 and op3 below.
const lineLib = `# Press two buttons.
skill press_two() {
  s1 = click(button(name: "Lib A"))
  s2 = click(button(name: "Lib B"))
}
`

const lineFlow = `task t {
  driver browser
  op2 = click(button(name: "Own"))
  op3 = press_two()
}
`

// TestLibrarySkillStepLines: a library skill's steps are another file's
// lines, so a run reports them at the workflow line that called the
// skill, and a resume settling a step of the workflow by its line leaves
// a library step of the same line alone (and the other way round).
func TestLibrarySkillStepLines(t *testing.T) {
	var lib skills.Library
	if ds := lib.Add("browser", "lib/browser.cog", []byte(lineLib), false); ds.HasErrors() {
		t.Fatal(ds)
	}
	f, ds := syntax.Parse("t.cog", []byte(lineFlow))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	env := kb.CheckEnv(nil)
	env.Skills = &lib
	info, ds := check.Check(f, env)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	task := f.Decls[0].(*ast.Task)
	for _, tc := range []struct {
		name    string
		settle  *runtime.Settle
		clicked string
		lines   map[string]int // step → reported line
	}{
		{"no resume", nil, "Own,Lib A,Lib B", map[string]int{"op2": 3, "s1": 4, "s2": 4, "op3": 4}},
		{"skip the workflow's line 3", &runtime.Settle{Line: 3, Policy: "skip"}, "Lib A,Lib B", nil},
		{"skip the call's line 4", &runtime.Settle{Line: 4, Policy: "skip"}, "Own", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := controlPage("Own", "Lib A", "Lib B")
			rec := &recorder{}
			if _, err := runtime.New(f, task, info, fake, runtime.Options{Observer: rec, Settle: tc.settle}).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := clicked(fake); got != tc.clicked {
				t.Errorf("clicked %q, want %q", got, tc.clicked)
			}
			for _, s := range rec.steps {
				if want, ok := tc.lines[s.Step]; ok && s.Line != want {
					t.Errorf("step %s reported at line %d, want %d", s.Step, s.Line, want)
				}
			}
		})
	}
}

// TestLibrarySkillTryLine: a resume told that the workflow's try of line
// 3 fell back does not send a library skill's try, on its own file's line
// 3, to its fallback too.
func TestLibrarySkillTryLine(t *testing.T) {
	var lib skills.Library
	src := "# Try.\nskill lib_try() {\n  try {\n    s1 = click(button(name: \"Lib A\"))\n  } fallback {\n    s2 = click(button(name: \"Lib B\"))\n  }\n}\n"
	if ds := lib.Add("browser", "lib/browser.cog", []byte(src), false); ds.HasErrors() {
		t.Fatal(ds)
	}
	f, ds := syntax.Parse("t.cog", []byte("task t {\n  driver browser\n  try {\n    op1 = click(button(name: \"Own\"))\n  } fallback {\n    op2 = click(button(name: \"Own fb\"))\n  }\n  op3 = lib_try()\n}\n"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	env := kb.CheckEnv(nil)
	env.Skills = &lib
	info, ds := check.Check(f, env)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	fake := controlPage("Own", "Own fb", "Lib A", "Lib B")
	fellBack := func(line int, _ []runtime.LoopPos) bool { return line == 3 }
	if _, err := runtime.New(f, f.Decls[0].(*ast.Task), info, fake, runtime.Options{FellBack: fellBack}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := clicked(fake); got != "Own fb,Lib A" {
		t.Errorf("clicked %q, want %q", got, "Own fb,Lib A")
	}
}

// TestLibrarySkillHealNotPatched: --heal finds the path to a library
// skill's target and the run goes on, but keeps no heal for a patch of
// the workflow: the step is in the library's file.
func TestLibrarySkillHealNotPatched(t *testing.T) {
	var lib skills.Library
	if ds := lib.Add("browser", "lib/browser.cog", []byte("# Save.\nskill save_it() {\n  s1 = click(button(name: \"Save\"))\n}\n"), false); ds.HasErrors() {
		t.Fatal(ds)
	}
	f, ds := syntax.Parse("t.cog", []byte("task t {\n  driver browser\n  s1 = save_it()\n}\n"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	env := kb.CheckEnv(nil)
	env.Skills = &lib
	info, ds := check.Check(f, env)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	page := menuPage("More", "Save")
	in := runtime.New(f, f.Decls[0].(*ast.Task), info, page, runtime.Options{Heal: true})
	if _, err := in.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := clicked(page); got != "More,Save" {
		t.Errorf("clicked %q, want %q", got, "More,Save")
	}
	if h := in.Heals(); len(h) != 0 {
		t.Errorf("%d heals kept for the workflow's patch: %+v", len(h), h[0].Step.Range)
	}
}
