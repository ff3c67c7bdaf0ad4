package compiler

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// Golden sections of a testdata/golden/*.txtar case.
const (
	goldenTrace    = "trace.json" // the input trace (required)
	goldenWant     = "want.cog"   // the exact compiled workflow
	goldenWarnings = "warnings"   // the compiler's warnings, one a line; absent when none
	goldenNeeds    = "needs"      // functions the case needs, one a line: skipped when the library lacks one
	goldenScreen   = "screen"     // programs standing in for the screen search (choice_golden_test.go)
	goldenHeldOut  = "heldout"    // other instances the workflow must act right on (choice_golden_test.go)
)

// TestGolden compiles the trace of every testdata/golden/*.txtar case
// (rules only, no LLM) and compares the workflow and the warnings with the
// file's want.cog and warnings sections. Every compiled workflow must
// parse and check with no error. `go test ./compiler -run Golden -update`
// rewrites the expected sections from the current output.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files found")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, sections, tr := readCase(t, path)
			in := sections[goldenTrace]
			if missing := missingFuncs(sections[goldenNeeds]); missing != "" {
				t.Fatalf("needs %s, not in the function library", missing)
			}
			res, err := Compile(tr, Options{Filename: name + ".cog", Trace: name + ".trace.json", stub: goldenStub(t, sections[goldenScreen])})
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Source)
			}
			assertChecks(t, name+".cog", res.Source)
			checkHeldOut(t, tr, res.Source, sections[goldenHeldOut])
			warnings := ""
			if len(res.Warnings) > 0 {
				warnings = strings.Join(res.Warnings.Messages(), "\n") + "\n"
			}
			if *update {
				ar.Files = []txtar.File{{Name: goldenTrace, Data: in.Data}}
				for _, kept := range []string{goldenNeeds, goldenScreen, goldenHeldOut} {
					if f := sections[kept]; f != nil {
						ar.Files = append(ar.Files, *f)
					}
				}
				ar.Files = append(ar.Files, txtar.File{Name: goldenWant, Data: res.Source})
				if warnings != "" {
					ar.Files = append(ar.Files, txtar.File{Name: goldenWarnings, Data: []byte(warnings)})
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := sections[goldenWant]
			if want == nil {
				t.Fatalf("%s has no %s section (run with -update)", path, goldenWant)
			}
			if got := string(res.Source); got != string(want.Data) {
				t.Errorf("workflow differs\n--- got\n%s--- want\n%s", got, want.Data)
			}
			wantWarnings := ""
			if w := sections[goldenWarnings]; w != nil {
				wantWarnings = string(w.Data)
			}
			if warnings != wantWarnings {
				t.Errorf("warnings differ\n--- got\n%s--- want\n%s", warnings, wantWarnings)
			}
		})
	}
}

// assertChecks fails the test unless src parses and checks with no error.
func assertChecks(t *testing.T, name string, src []byte) {
	t.Helper()
	f, ds := syntax.Parse(name, src)
	if ds.HasErrors() {
		t.Fatalf("parse: %v\n%s", ds.Err(), src)
	}
	if _, ds := check.Check(f, kb.CheckEnv(nil)); ds.HasErrors() {
		t.Fatalf("check: %v\n%s", ds.Err(), src)
	}
}
