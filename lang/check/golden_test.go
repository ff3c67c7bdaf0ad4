package check_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

func testEnv() *check.Env {
	return kb.CheckEnv(nil)
}

// diagnose parses and checks one file and renders its diagnostics the way
// `cogflow check` prints them.
func diagnose(name string, src []byte) string {
	f, diags := syntax.Parse(name, src)
	if f != nil {
		_, more := check.Check(f, testEnv())
		diags = append(diags, more...)
		diags.Sort()
	}
	var b bytes.Buffer
	diags.Render(&b, func(string) []byte { return src })
	return b.String()
}

// TestGoldenDiagnostics runs every testdata/diagnostics/*.txtar: each holds
// one or more .cog files and a "diagnostics" section with the exact output
// (message, file:line:col, source line and caret) expected for them.
func TestGoldenDiagnostics(t *testing.T) {
	files, err := filepath.Glob("testdata/diagnostics/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no golden files found")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			wantIdx := -1
			for i, f := range ar.Files {
				if f.Name == "diagnostics" {
					wantIdx = i
					continue
				}
				got.WriteString(diagnose(f.Name, f.Data))
			}
			if wantIdx < 0 {
				t.Fatalf("%s has no diagnostics section", path)
			}
			if *update {
				ar.Files[wantIdx].Data = []byte(got.String())
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if want := string(ar.Files[wantIdx].Data); got.String() != want {
				t.Errorf("diagnostics differ\n--- got\n%s--- want\n%s", got.String(), want)
			}
		})
	}
}

// TestGoldenCoverage keeps the golden suite honest: it must exercise at
// least 30 distinct messages, each with a position.
func TestGoldenCoverage(t *testing.T) {
	files, _ := filepath.Glob("testdata/diagnostics/*.txtar")
	distinct := map[string]bool{}
	for _, path := range files {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "diagnostics" {
				continue
			}
			for _, line := range strings.Split(string(f.Data), "\n") {
				if i := strings.Index(line, ": error: "); i > 0 {
					distinct[messageShape(line[i:])] = true
				} else if i := strings.Index(line, ": warning: "); i > 0 {
					distinct[messageShape(line[i:])] = true
				}
			}
		}
	}
	if len(distinct) < 30 {
		t.Errorf("golden files cover %d distinct diagnostics, want at least 30", len(distinct))
	}
}

// messageShape reduces a message to its words before the first name or
// quote, so that the same check with other names counts once.
func messageShape(msg string) string {
	fields := strings.Fields(msg)
	if len(fields) > 4 {
		fields = fields[:4]
	}
	return strings.Join(fields, " ")
}

var _ = diag.Error
