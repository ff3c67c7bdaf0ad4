package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSaveAndLoad(t *testing.T) {
	tr, err := Load("testdata/keyword.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "demo.trace.json")
	if err := Save(file, tr); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	want, _ := os.ReadFile("testdata/keyword.trace.json")
	if string(got) != string(want) {
		t.Error("saved trace differs from the file it was loaded from")
	}

	// An invalid trace is not saved, and the existing file is kept.
	bad := *tr
	bad.Driver = "web"
	if err := Save(file, &bad); err == nil || !strings.Contains(err.Error(), `$.driver: unknown driver "web"`) {
		t.Errorf("Save(invalid) = %v", err)
	}
	if again, _ := os.ReadFile(file); string(again) != string(want) {
		t.Error("a failed Save changed the file")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "v2.trace.json")
	os.WriteFile(file, []byte(`{"format": "cogflow-trace", "version": 2}`), 0o644)
	_, err := Load(file)
	if err == nil || err.Error() != file+": trace version 2 is not supported: this cogflow reads version 1" {
		t.Errorf("Load: %v", err)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "none.json")); !os.IsNotExist(err) {
		t.Errorf("Load(missing file) = %v", err)
	}
}
