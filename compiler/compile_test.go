package compiler

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/kb"
)

func load(t testing.TB, path string) *trace.Trace {
	t.Helper()
	tr, err := trace.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// compileOK compiles a trace and checks that the output parses, checks
// without errors and is a fixed point of printer.Format.
func compileOK(t *testing.T, tr *trace.Trace, name string) *Result {
	t.Helper()
	res, err := Compile(tr, Options{Filename: name})
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, res.Source)
	}
	f, ds := syntax.Parse(name, res.Source)
	if ds.HasErrors() {
		t.Fatalf("%s: parse: %v\n%s", name, ds.Err(), res.Source)
	}
	if _, ds := check.Check(f, kb.CheckEnv(nil)); ds.HasErrors() {
		t.Fatalf("%s: check: %v\n%s", name, ds.Err(), res.Source)
	}
	if again := printer.Format(f); !bytes.Equal(again, res.Source) {
		t.Fatalf("%s: not a fixed point of printer.Format:\n%s\n---\n%s", name, res.Source, again)
	}
	return res
}

func TestCompileAllTraces(t *testing.T) {
	var paths []string
	for _, g := range []string{"testdata/*.trace.json", "../runtime/trace/testdata/*.trace.json"} {
		m, _ := filepath.Glob(g)
		paths = append(paths, m...)
	}
	if len(paths) < 4 {
		t.Fatalf("found only %d traces", len(paths))
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			res := compileOK(t, load(t, p), filepath.Base(p))
			t.Logf("%s\nwarnings: %s", res.Source, strings.Join(res.Warnings.Messages(), "\n"))
		})
	}
}

// Every prefix of a recorded trace compiles to a clean, formatted workflow.
func TestCompilePrefixes(t *testing.T) {
	for _, p := range []string{"../runtime/trace/testdata/keyword.trace.json", "../runtime/trace/testdata/reading_list.trace.json", "testdata/extract.trace.json", "testdata/structure.trace.json"} {
		full := load(t, p)
		for n := 0; n <= len(full.Events); n++ {
			tr := *full
			tr.Events = full.Events[:n]
			compileOK(t, &tr, filepath.Base(p))
		}
	}
}

func TestCite(t *testing.T) {
	for _, tt := range []struct {
		ids  []string
		want string
	}{
		{[]string{"e1"}, "e1"},
		{[]string{"e2", "e3", "e5"}, "e2, e3, e5"},
		{[]string{"e5", "e6", "e7", "e8"}, "e5…e8 (4 events)"},
		{[]string{"e28", "e30", "e31", "e32", "e29"}, "e28…e32 (5 events)"},
		{[]string{"e5", "e6", "e7", "e9", "e12"}, "e5…e7, e9, e12 (5 events)"},
		{[]string{"e1", "e3", "e5", "e7", "e9"}, "e1, e3, … (5 events)"},
		{[]string{"a", "b", "c", "d"}, "a…d (4 events)"},
	} {
		if got := cite(tt.ids); got != tt.want {
			t.Errorf("cite(%v) = %q, want %q", tt.ids, got, tt.want)
		}
	}
}
