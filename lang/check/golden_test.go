package check_test

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/internal/goldentest"
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
	goldentest.Run(t, "testdata/diagnostics/*.txtar", "diagnostics", *update, func(_ *testing.T, name string, data []byte) string {
		return diagnose(name, data)
	})
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
