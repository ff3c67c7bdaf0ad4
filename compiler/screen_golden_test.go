package compiler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// Sections of a testdata/screen/*.txtar case: one family of values read
// from the screen, demonstrated once and checked on other instances.
const (
	screenSection  = "screen"   // the demonstration's page (screenSpec)
	typedSection   = "typed"    // "#field | value", one a line
	needsSection   = "needs"    // functions the family emits, one a line (requireFuncs)
	heldoutPrefix  = "heldout/" // another instance: its page, "---", then "opN = value" or "opN ! error"
	explainSection = "evidence" // the evidence of each value, one line each
)

// requireFuncs fails a test whose compiled programs use functions the
// library does not have: a family's golden case states what it emits.
func requireFuncs(t *testing.T, names ...string) {
	t.Helper()
	lib := funcs.Library(nil)
	for _, n := range names {
		if n == "parse_number(decimal_mark)" {
			if _, err := funcs.Call(lib["parse_number"], []cty.Value{cty.StringVal("1,5"), cty.StringVal(",")}); err != nil {
				t.Fatalf("the library lacks parse_number's decimal mark")
			}
			continue
		}
		if _, ok := lib[n]; !ok {
			t.Fatalf("the function library lacks %s", n)
		}
	}
}

// TestScreenGolden compiles the demonstration of every
// testdata/screen/*.txtar case, compares the workflow, its warnings and
// its evidence with the file, and then runs each typed step's program on
// the held-out instances' pages: it must compute their values, or fail
// where the case says it fails (never type an empty or stale value).
// `go test ./compiler -run ScreenGolden -update` rewrites want.cog,
// warnings and evidence.
func TestScreenGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/screen/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases in testdata/screen")
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]string{}
			var heldout []string
			for _, f := range ar.Files {
				sec[f.Name] = string(f.Data)
				if strings.HasPrefix(f.Name, heldoutPrefix) {
					heldout = append(heldout, f.Name)
				}
			}
			if n := strings.Fields(sec[needsSection]); len(n) > 0 {
				requireFuncs(t, n...)
			}
			snap, err := screenSpec(sec[screenSection])
			if err != nil {
				t.Fatal(err)
			}
			var typed []typing
			for _, l := range strings.Split(strings.TrimSpace(sec[typedSection]), "\n") {
				f, v, _ := strings.Cut(l, " | ")
				typed = append(typed, typing{f, v})
			}
			tr, err := screenTrace(snap, typed)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Compile(tr, Options{Filename: name + ".cog", Trace: name + ".trace.json"})
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Source)
			}
			got := map[string]string{goldenWant: string(res.Source), goldenWarnings: lines(res.Warnings.Messages()), explainSection: lines(explainLines(res.Evidence))}
			if *update {
				for i := range ar.Files {
					if v, ok := got[ar.Files[i].Name]; ok {
						ar.Files[i].Data = []byte(v)
						delete(got, ar.Files[i].Name)
					}
				}
				for _, k := range []string{goldenWant, goldenWarnings, explainSection} {
					if v, ok := got[k]; ok && v != "" {
						ar.Files = append(ar.Files, txtar.File{Name: k, Data: []byte(v)})
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			} else {
				for _, k := range []string{goldenWant, goldenWarnings, explainSection} {
					if got[k] != sec[k] {
						t.Errorf("%s differs\n--- got\n%s--- want\n%s", k, got[k], sec[k])
					}
				}
			}
			f, ds := syntax.Parse(name+".cog", res.Source)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			for _, h := range heldout {
				checkHeldout(t, h, sec[h], f)
			}
		})
	}
}

// checkHeldout runs the compiled values on one held-out page.
func checkHeldout(t *testing.T, name, text string, f *ast.File) {
	t.Helper()
	page, want, ok := strings.Cut(text, "\n---\n")
	if !ok {
		t.Fatalf("%s: no --- line", name)
	}
	snap, err := screenSpec(page)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, l := range strings.Split(strings.TrimSpace(want), "\n") {
		step, value, isValue := strings.Cut(l, " = ")
		if !isValue {
			step, _, _ = strings.Cut(l, " ! ")
		}
		e := stepValue(f, step)
		if e == nil {
			t.Errorf("%s: no step %s", name, step)
			continue
		}
		v, err := evalOn(e, &snap)
		got, _ := funcs.Text(v)
		switch {
		case isValue && err != nil:
			t.Errorf("%s: %s: %v", name, step, err)
		case isValue && got != value:
			t.Errorf("%s: %s computes %q, want %q", name, step, got, value)
		case !isValue && err == nil:
			t.Errorf("%s: %s computes %q on a page without its source, want an error", name, step, got)
		}
	}
}

func lines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// explainLines renders evidence entries one a line, for golden files.
func explainLines(evs []Evidence) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Step+": "+e.Chosen+" <- "+e.Why)
	}
	return out
}
