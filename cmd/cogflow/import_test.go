package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

func TestImport(t *testing.T) {
	src, err := os.ReadFile("../../runtime/trace/testdata/devtools_wiki.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rec := filepath.Join(dir, "wiki.json")
	os.WriteFile(rec, src, 0o644)
	r := runCLI(t, "", "import", rec)
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "wrote "+filepath.Join(dir, "wiki.trace.json")) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr, err := trace.Load(filepath.Join(dir, "wiki.trace.json"))
	if err != nil || len(tr.Events) == 0 || tr.Driver != "browser" {
		t.Fatalf("trace: %v, %+v", err, tr)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"title": "x", "steps": 3}`), 0o644)
	if r := runCLI(t, "", "import", bad); r.code != exitBadInput || !strings.Contains(r.stderr, "bad.json") {
		t.Errorf("bad recording: exit %d, %s", r.code, r.stderr)
	}
	if r := runCLI(t, "", "import"); r.code != exitUsage {
		t.Errorf("no file: exit %d", r.code)
	}
}
