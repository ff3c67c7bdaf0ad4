package driver_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// TestDriversDoNotImportTheirHost checks, for every OS a driver builds
// on, that no package under runtime/driver imports the interpreter
// (runtime), the compiler, the command line or any other runtime package
// but runtime/trace: a driver is a plug-in, and a plug-in does not import
// its host. Test files may (they run workflows end to end).
func TestDriversDoNotImportTheirHost(t *testing.T) {
	const module = "github.com/cogflow/cogflow/"
	allowed := func(imp string) bool {
		if !strings.HasPrefix(imp, module) {
			return true // the standard library and dependencies
		}
		rel := strings.TrimPrefix(imp, module)
		return strings.HasPrefix(rel, "runtime/driver") || rel == "runtime/trace" || strings.HasPrefix(rel, "lang/")
	}
	var dirs []string
	err := filepath.WalkDir(".", func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() != "testdata" {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, goos := range []string{"linux", "windows", "darwin"} {
		ctx := build.Default
		ctx.GOOS = goos
		for _, dir := range dirs {
			pkg, err := ctx.ImportDir(dir, 0)
			if _, none := err.(*build.NoGoError); none {
				continue
			}
			if err != nil {
				t.Fatalf("%s on %s: %v", dir, goos, err)
			}
			for _, imp := range pkg.Imports {
				if !allowed(imp) {
					t.Errorf("runtime/driver/%s imports %s on %s", filepath.ToSlash(dir), imp, goos)
				}
			}
		}
	}
}
