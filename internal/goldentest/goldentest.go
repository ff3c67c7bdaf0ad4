// Package goldentest runs txtar golden files for tests: each archive holds
// input files and one section with the exact output expected for them,
// which -update rewrites.
package goldentest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Run runs every archive that glob matches as a subtest named after the
// file. Each input file (every section but want) goes through produce in
// order, and the concatenated outputs must equal the want section; with
// update they replace it instead.
func Run(t *testing.T, glob, want string, update bool, produce func(t *testing.T, name string, data []byte) string) {
	t.Helper()
	files, err := filepath.Glob(glob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files match %s: %v", glob, err)
	}
	for _, path := range files {
		path, _ := filepath.Abs(path) // produce may change the folder
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			wantIdx := -1
			for i, f := range ar.Files {
				if f.Name == want {
					wantIdx = i
					continue
				}
				got.WriteString(produce(t, f.Name, f.Data))
			}
			if wantIdx < 0 {
				t.Fatalf("%s has no %s section", path, want)
			}
			if update {
				ar.Files[wantIdx].Data = []byte(got.String())
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if w := string(ar.Files[wantIdx].Data); got.String() != w {
				t.Errorf("%s differs\n--- got\n%s--- want\n%s", want, got.String(), w)
			}
		})
	}
}
