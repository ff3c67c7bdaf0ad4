package diaggolden

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/internal/goldentest"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/trace"
	"github.com/cogflow/cogflow/stdlib/funcs"
	"github.com/cogflow/cogflow/stdlib/kb"
)

var update = flag.Bool("update", false, "rewrite the golden files with the current output")

// diagnose returns the diagnostics of one input file, chosen by its name,
// as the command line gets them.
func diagnose(t *testing.T, name string, src []byte) diag.List {
	switch {
	case strings.HasSuffix(name, ".cog"):
		// As cogflow check: past syntax errors, the checker's errors in
		// what parsed.
		p := syntax.ParsePartial(name, src)
		_, more := check.CheckPartial(p.File, &check.Env{Knowledge: kb.Default(), Functions: funcs.Library(nil)}, p.Broken, p.Mentioned)
		ds := append(p.Diags, more...)
		ds.Sort()
		return ds
	case name == config.FileName:
		// Load reads the file from a folder: the file's name in the
		// diagnostics is then relative, as for `cogflow config`.
		t.Chdir(t.TempDir())
		if err := os.WriteFile(name, src, 0o644); err != nil {
			t.Fatal(err)
		}
		_, ds := config.LoadWith(".", "", nil)
		return ds
	case strings.HasSuffix(name, ".hcl"):
		_, ds := kb.Parse(src, name)
		return ds
	case strings.HasSuffix(name, ".trace.json"):
		tr, err := trace.Parse(src)
		if err != nil {
			return trace.Diagnostics(err, name)
		}
		res, err := compiler.Compile(tr, compiler.Options{Filename: "out.cog", Trace: name})
		return append(diag.FromError(err), res.Warnings...)
	}
	t.Fatalf("no source kind for %s", name)
	return nil
}

// TestGoldenRendering runs every testdata/*.txtar: input files, then a
// "rendered" section with the exact output of lang/diag's renderer for
// their diagnostics, source lines (for text files) read from the input.
func TestGoldenRendering(t *testing.T) {
	goldentest.Run(t, "testdata/*.txtar", "rendered", *update, func(t *testing.T, name string, data []byte) string {
		var b strings.Builder
		diagnose(t, name, data).Render(&b, diag.Text(data))
		return b.String()
	})
}
