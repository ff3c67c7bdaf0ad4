package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileLiteral: `compile --literal` is the literal replay `make eval`
// measures against. The instruction on the page names the typed word, yet
// the literal replay keeps it an input defaulting to the demonstrated
// value and reads nothing from the screen; the flag is listed in the help.
func TestCompileLiteral(t *testing.T) {
	isolateConfig(t)
	trace := filepath.Join("testdata", "literal", "instruction.trace.json")
	tests := []struct {
		name     string
		args     []string
		code     int
		want     []string // in stdout
		notWant  []string // not in stdout
		stderrIn string
	}{
		{
			name: "literal replay",
			args: []string{"compile", "--no-llm", "--literal", "--dir", t.TempDir(), trace},
			code: exitOK,
			want: []string{
				`input answer: text = "Denali"`,
				`op2 = type(textbox(name: "Answer", id: "answer"), answer)`,
				`op3 = click(button(name: "Submit"))`,
			},
			// Nothing is read from the instruction.
			notWant: []string{"query", ".text"},
		},
		{
			name: "help lists the flag",
			args: []string{"compile", "-h"},
			code: exitOK,
			want: []string{"[--literal]", "-literal", "literal replay"},
		},
		{
			name:     "not a boolean",
			args:     []string{"compile", "--literal=maybe", trace},
			code:     exitUsage,
			stderrIn: "-literal",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "", tc.args...)
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %s:\n%s", w, r.stdout)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(r.stdout, w) {
					t.Errorf("output has %s:\n%s", w, r.stdout)
				}
			}
			if !strings.Contains(r.stderr, tc.stderrIn) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderrIn, r.stderr)
			}
		})
	}
}
