package kb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseRefusesDeepNesting: 100,000 nested brackets are a positioned
// error, not a stack overflow.
func TestParseRefusesDeepNesting(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
	}{
		{"brackets", "version = 1\nrule \"1\" {\n  text = " + strings.Repeat("[", 100000) + "\n}\n", 3, 109},
		{"traversal", "version = x" + strings.Repeat(".a", 100000) + "\n", 1, 212},
		{"blocks", "version = 1\n" + strings.Repeat("category \"a\" {\n", 50000), 102, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k, diags := Parse([]byte(tc.src), "knowledge.hcl")
			if k != nil || !diags.HasErrors() {
				t.Fatalf("Parse = %v, %v", k, diags)
			}
			d := diags[0]
			if !strings.HasPrefix(d.Message, "nesting too deep") || d.Range.Start.Line != tc.line || d.Range.Start.Column != tc.col {
				t.Errorf("got %s, want nesting too deep at %d:%d", d, tc.line, tc.col)
			}
		})
	}
}

// TestLoadRefusesHugeFile: a file over MaxFileSize, /dev/zero included,
// is refused without being read whole.
func TestLoadRefusesHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "knowledge.hcl")
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", MaxFileSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, "/dev/zero"} {
		if k, diags := Load(p); k != nil || !diags.HasErrors() || !strings.Contains(diags.Err().Error(), "at most 1048576 bytes") {
			t.Errorf("Load(%s) = %v, %v", p, k, diags)
		}
	}
}
