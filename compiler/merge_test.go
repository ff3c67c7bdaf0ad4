package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/runtime/trace"
)

// TestMergeGoldens merges the traces of each testdata/merge/NAME.txtar
// (its sections named *.trace.json, in order) and compares the workflow
// and the warnings with the want section. `go test ./compiler -run
// MergeGoldens -update` rewrites the want sections.
func TestMergeGoldens(t *testing.T) {
	files, err := filepath.Glob("testdata/merge/*.txtar")
	if err != nil || len(files) < 2 {
		t.Fatalf("merge cases: %v %v", files, err)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) { mergeGolden(t, path, nil) })
	}
}

// mergeGolden compiles a merge case and compares it with its want
// section; when afterStage is set it is told of the stages instead.
func mergeGolden(t *testing.T, path string, afterStage func(name string, c *compiler, f any)) string {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var trs []*trace.Trace
	var names []string
	var want []byte
	for _, f := range ar.Files {
		switch {
		case strings.HasSuffix(f.Name, ".trace.json"):
			tr, err := trace.Read(bytes.NewReader(f.Data))
			if err != nil {
				t.Fatalf("%s: %s: %v", path, f.Name, err)
			}
			trs, names = append(trs, tr), append(names, f.Name)
		case f.Name == stageWant:
			want = f.Data
		}
	}
	res, err := CompileAll(trs, Options{Filename: "merged.cog", Traces: names})
	var b strings.Builder
	if res != nil {
		b.Write(res.Source)
		for i := range res.Warnings {
			b.WriteString("warning: " + res.Warnings[i].String() + "\n")
		}
	}
	if err != nil {
		b.WriteString("error: " + err.Error() + "\n")
	}
	got := b.String()
	if *update {
		var kept []txtar.File
		for _, f := range ar.Files {
			if f.Name != stageWant {
				kept = append(kept, f)
			}
		}
		ar.Files = append(kept, txtar.File{Name: stageWant, Data: []byte(got)})
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return got
	}
	if want == nil {
		t.Fatalf("%s has no %s section (run with -update)", path, stageWant)
	}
	if got != string(want) {
		t.Errorf("merged\n%s--- want\n%s", got, want)
	}
	return got
}

// TestMergeRefusesOtherTasks checks that traces of different tasks are
// an error at the second trace's JSON path, naming both places.
func TestMergeRefusesOtherTasks(t *testing.T) {
	mk := func(driver, url, app string) *trace.Trace {
		return &trace.Trace{Format: "cogflow-trace", Version: 1, Driver: driver, Start: trace.Start{URL: url, App: app}}
	}
	tests := []struct {
		name string
		a, b *trace.Trace
		want []string
	}{
		{"another page", mk("browser", "http://h/a?seed=1", ""), mk("browser", "http://h/b?seed=2", ""),
			[]string{"b.trace.json: $.start.url", "starts at http://h/b", "a.trace.json at http://h/a", "one task"}},
		{"another driver", mk("browser", "http://h/a", ""), mk("android", "", "com.x"),
			[]string{"b.trace.json: $.driver", `driver "android"`}},
		{"another app", mk("android", "", "com.x"), mk("android", "", "com.y"),
			[]string{"b.trace.json: $.start.app", "com.y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := CompileAll([]*trace.Trace{tc.a, tc.b}, Options{Traces: []string{"a.trace.json", "b.trace.json"}})
			if err == nil {
				t.Fatal("no error")
			}
			var b bytes.Buffer
			diag.FromError(err).Render(&b, nil)
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("error %q does not say %q", b.String(), w)
				}
			}
		})
	}
}

// TestMergeAlike checks that demonstrations that did the same compile to
// what one of them compiles to (a straight line, no if), and that a
// missing trace is an error, not a panic.
func TestMergeAlike(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/stages/merge.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var tr *trace.Trace
	for _, f := range ar.Files {
		if f.Name == "b.trace.json" {
			if tr, err = trace.Read(bytes.NewReader(f.Data)); err != nil {
				t.Fatal(err)
			}
		}
	}
	one, err := Compile(tr, Options{Filename: "x.cog", Trace: "b.trace.json"})
	if err != nil {
		t.Fatal(err)
	}
	two, err := CompileAll([]*trace.Trace{tr, tr, tr}, Options{Filename: "x.cog", Traces: []string{"a.json", "b.json", "c.json"}})
	if err != nil {
		t.Fatal(err)
	}
	body := func(src []byte) string { return string(src[bytes.IndexByte(src, '\n'):]) } // without the header
	if body(two.Source) != body(one.Source) || strings.Contains(string(two.Source), "if ") {
		t.Errorf("three alike demonstrations merged into\n%s\nwant\n%s", two.Source, one.Source)
	}
	if _, err := CompileAll([]*trace.Trace{tr, nil}, Options{}); err == nil || !strings.Contains(err.Error(), "demonstration 2: no trace") {
		t.Errorf("a missing trace: %v", err)
	}
}
