package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// result is what one in-process run of the CLI produced.
type result struct {
	code           int
	stdout, stderr string
}

// runCLI runs cogflow with args in process, feeding stdin.
func runCLI(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	c := &cli{stdout: &out, stderr: &errOut, stdin: strings.NewReader(stdin)}
	code := c.main(args)
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// writeFile writes a file into dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func examplePath(name string) string { return filepath.Join("..", "..", "examples", name) }

// Sources used by several tests.
const (
	srcClean = `task t "Open a page" {
  driver browser
  op1 = open("http://127.0.0.1:8088/wiki")
}
`
	// Two errors, reported in the order of their positions.
	srcTwoErrors = `task t "x" {
  driver browser
  op1 = open("http://x")
  op2 = click(zzz)
  op3 = click(aaa)
}
`
	srcOneError = `task t "x" {
  driver browser
  op1 = click(nothere)
}
`
	// Warnings only: an input and an anchor that no step uses.
	srcWarnings = `task t "x" {
  driver browser
  input unused: text = "a"
  anchor box = textbox(name: "Q")
  op1 = open("http://x")
}
`
	srcSyntaxError = `task t "x" {
  driver browser
  op1 = open("http://x"
}
`
)

// diagRE matches one rendered diagnostic: the header, the source line and
// the caret line.
var diagRE = regexp.MustCompile(`(?m)^(.+?):(\d+):(\d+): (error|warning): (.+)\n  (.*)\n  ([ \t]*)\^(~*)\n`)

var summaryRE = regexp.MustCompile(`(?m)^(\d+) errors?, (\d+) warnings?\n\z`)

type diagnostic struct {
	file      string
	line, col int
	severity  string
	message   string
}

// parseDiags finds every rendered diagnostic in stderr and checks that its
// source line is the file's line and that the caret stands under the column.
func parseDiags(t *testing.T, stderr string, sources map[string]string) []diagnostic {
	t.Helper()
	var ds []diagnostic
	for _, m := range diagRE.FindAllStringSubmatch(stderr, -1) {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		d := diagnostic{file: m[1], line: line, col: col, severity: m[4], message: m[5]}
		ds = append(ds, d)
		src, ok := sources[d.file]
		if !ok {
			t.Errorf("diagnostic for unexpected file %q: %s", d.file, m[0])
			continue
		}
		lines := strings.Split(src, "\n")
		if line < 1 || line > len(lines) {
			t.Errorf("diagnostic line %d out of range: %s", line, m[0])
			continue
		}
		if got, want := m[6], lines[line-1]; got != want {
			t.Errorf("%s:%d: source line shown as %q, want %q", d.file, line, got, want)
		}
		if got := len(m[7]) + 1; got != col {
			t.Errorf("%s:%d:%d: caret at column %d", d.file, line, col, got)
		}
	}
	// Every header line must have been matched with its snippet.
	headers := regexp.MustCompile(`(?m)^.+:\d+:\d+: (error|warning): `).FindAllString(stderr, -1)
	if len(headers) != len(ds) {
		t.Errorf("%d diagnostic headers but %d complete diagnostics (source line + caret) in:\n%s", len(headers), len(ds), stderr)
	}
	return ds
}

func countSeverity(ds []diagnostic, sev string) int {
	n := 0
	for _, d := range ds {
		if d.severity == sev {
			n++
		}
	}
	return n
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"clean.cog":    srcClean,
		"two.cog":      srcTwoErrors,
		"one.cog":      srcOneError,
		"warn.cog":     srcWarnings,
		"syntax.cog":   srcSyntaxError,
		"warnerr.cog":  strings.Replace(srcWarnings, `open("http://x")`, `click(nope)`, 1),
		"missing.cog":  "",
		"another.cog":  srcOneError,
		"zzz_last.cog": srcTwoErrors,
	}
	sources := map[string]string{}
	paths := map[string]string{}
	for name, text := range files {
		p := filepath.Join(dir, name)
		paths[name] = p
		if name == "missing.cog" {
			continue
		}
		writeFile(t, dir, name, text)
		sources[p] = text
	}
	_, missingErr := os.ReadFile(paths["missing.cog"])

	tests := []struct {
		name     string
		args     []string
		code     int
		errors   int // diagnostics of severity error in stderr
		warnings int
		summary  bool     // the "N errors, M warnings" line ends stderr
		order    []string // files (by name) in the order their diagnostics appear
		stderr   []string // more substrings of stderr
		empty    bool     // stderr must be empty
	}{
		{name: "example is clean", args: []string{examplePath("keyword_intro.cog")}, code: 0, empty: true},
		{name: "clean file", args: []string{paths["clean.cog"]}, code: 0, empty: true},
		{name: "one error", args: []string{paths["one.cog"]}, code: 1, errors: 1, summary: true,
			stderr: []string{paths["one.cog"] + ":3:15: error: ", "\n    op1 = click(nothere)\n" + strings.Repeat(" ", 2+14) + "^~~~~~~\n"}},
		{name: "two errors", args: []string{paths["two.cog"]}, code: 1, errors: 2, summary: true, order: []string{"two.cog", "two.cog"}},
		{name: "syntax error", args: []string{paths["syntax.cog"]}, code: 1, errors: 1, summary: true,
			stderr: []string{paths["syntax.cog"] + ":3:13: error: "}},
		{name: "warnings only", args: []string{paths["warn.cog"]}, code: 0, warnings: 2, summary: true},
		{name: "warnings only -q", args: []string{"-q", paths["warn.cog"]}, code: 0, empty: true},
		{name: "-q after the file", args: []string{paths["warn.cog"], "-q"}, code: 0, empty: true},
		{name: "errors and warnings", args: []string{paths["warnerr.cog"]}, code: 1, errors: 1, warnings: 2, summary: true},
		{name: "errors and warnings -q", args: []string{"-q", paths["warnerr.cog"]}, code: 1, errors: 1, summary: true},
		{name: "missing file", args: []string{paths["missing.cog"]}, code: 2, stderr: []string{"cogflow check: " + missingErr.Error() + "\n"}},
		{name: "missing file among others", args: []string{paths["one.cog"], paths["missing.cog"], paths["clean.cog"]}, code: 2, errors: 1, summary: true,
			stderr: []string{missingErr.Error()}},
		{name: "no args", args: nil, code: 2, stderr: []string{"Usage: cogflow check"}},
		{name: "unknown flag", args: []string{"-z", paths["clean.cog"]}, code: 2, stderr: []string{"-z", "Usage: cogflow check"}},
		{name: "several files", code: 1, errors: 6, warnings: 2, summary: true,
			args:  []string{paths["zzz_last.cog"], paths["clean.cog"], paths["warn.cog"], paths["one.cog"], paths["two.cog"], paths["another.cog"]},
			order: []string{"zzz_last.cog", "zzz_last.cog", "warn.cog", "warn.cog", "one.cog", "two.cog", "two.cog", "another.cog"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"check"}, tc.args...)
			r := runCLI(t, "", args...)
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("check wrote to stdout: %q", r.stdout)
			}
			if tc.empty && r.stderr != "" {
				t.Errorf("stderr not empty:\n%s", r.stderr)
			}
			ds := parseDiags(t, r.stderr, sources)
			if got := countSeverity(ds, "error"); got != tc.errors {
				t.Errorf("%d errors reported, want %d:\n%s", got, tc.errors, r.stderr)
			}
			if got := countSeverity(ds, "warning"); got != tc.warnings {
				t.Errorf("%d warnings reported, want %d:\n%s", got, tc.warnings, r.stderr)
			}
			m := summaryRE.FindStringSubmatch(r.stderr)
			switch {
			case tc.summary && m == nil:
				t.Errorf("stderr does not end with the summary line:\n%s", r.stderr)
			case tc.summary:
				if m[1] != strconv.Itoa(tc.errors) || m[2] != strconv.Itoa(tc.warnings) {
					t.Errorf("summary %q, want %d errors, %d warnings", strings.TrimSpace(m[0]), tc.errors, tc.warnings)
				}
				want := plural(tc.errors, "error") + ", " + plural(tc.warnings, "warning") + "\n"
				if !strings.HasSuffix(r.stderr, want) {
					t.Errorf("summary line is not %q", want)
				}
			case m != nil:
				t.Errorf("unexpected summary line %q", m[0])
			}
			if tc.order != nil {
				var got []string
				for _, d := range ds {
					got = append(got, filepath.Base(d.file))
				}
				if strings.Join(got, " ") != strings.Join(tc.order, " ") {
					t.Errorf("diagnostics in file order %v, want %v", got, tc.order)
				}
				// Within one file, diagnostics are sorted by position.
				for i := 1; i < len(ds); i++ {
					a, b := ds[i-1], ds[i]
					if a.file == b.file && (a.line > b.line || a.line == b.line && a.col > b.col) {
						t.Errorf("%s: %d:%d reported before %d:%d", a.file, a.line, a.col, b.line, b.col)
					}
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string // substrings of stdout
		stderr []string // substrings of stderr; stderr must be empty when nil
	}{
		{name: "help", args: []string{"help"}, stdout: []string{"Usage: cogflow COMMAND", "  check ", "  fmt ", "  graph ", "  version "}},
		{name: "--help", args: []string{"--help"}, stdout: []string{"Usage: cogflow COMMAND", "  check "}},
		{name: "-h", args: []string{"-h"}, stdout: []string{"Usage: cogflow COMMAND"}},
		{name: "help check", args: []string{"help", "check"}, stdout: []string{"Usage: cogflow check FILE", "-q"}},
		{name: "check --help", args: []string{"check", "--help"}, stdout: []string{"Usage: cogflow check FILE", "-q"}},
		{name: "check -h with file", args: []string{"check", "x.cog", "-h"}, stdout: []string{"Usage: cogflow check FILE"}},
		{name: "help fmt", args: []string{"help", "fmt"}, stdout: []string{"Usage: cogflow fmt", "-w", "-l", "-d"}},
		{name: "fmt -help", args: []string{"fmt", "-help"}, stdout: []string{"Usage: cogflow fmt"}},
		{name: "graph --help", args: []string{"graph", "--help"}, stdout: []string{"Usage: cogflow graph", "-format", "-task"}},
		{name: "version --help", args: []string{"version", "--help"}, stdout: []string{"Usage: cogflow version"}},
		{name: "help run", args: []string{"help", "run"}, stdout: []string{"Usage: cogflow run FILE", "-in-doubt", "A second signal stops at once", "secret inputs must be given again"}},
		{name: "help help", args: []string{"help", "help"}, stdout: []string{"Usage: cogflow help"}},
		{name: "help --help", args: []string{"help", "--help"}, stdout: []string{"Usage: cogflow help"}},
		{name: "version", args: []string{"version"}, stdout: []string{"cogflow "}},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2, stderr: []string{`unknown command "frobnicate"`, "Usage: cogflow COMMAND"}},
		{name: "help unknown command", args: []string{"help", "frobnicate"}, code: 2, stderr: []string{`unknown command "frobnicate"`}},
		{name: "no command", args: nil, code: 2, stderr: []string{"Usage: cogflow COMMAND"}},
		{name: "version extra flag", args: []string{"version", "-x"}, code: 2, stderr: []string{"-x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "", tc.args...)
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d", r.code, tc.code)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			if tc.stdout == nil && r.stdout != "" {
				t.Errorf("unexpected stdout:\n%s", r.stdout)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if tc.stderr == nil && r.stderr != "" {
				t.Errorf("unexpected stderr:\n%s", r.stderr)
			}
			// Usage is printed once, not once per stream or twice.
			if n := strings.Count(r.stdout+r.stderr, "Usage:"); n > 1 {
				t.Errorf("usage printed %d times:\nstdout:\n%s\nstderr:\n%s", n, r.stdout, r.stderr)
			}
		})
	}
}

func TestVersionLine(t *testing.T) {
	r := runCLI(t, "", "version")
	if r.code != 0 || !regexp.MustCompile(`\Acogflow \S+\n\z`).MatchString(r.stdout) {
		t.Fatalf("version: exit %d, stdout %q", r.code, r.stdout)
	}
	old := version
	defer func() { version = old }()
	version = "v1.2.3"
	if r := runCLI(t, "", "version"); r.stdout != "cogflow v1.2.3\n" {
		t.Errorf("version with -X main.version: %q", r.stdout)
	}
}

// TestExamples checks that every example is clean (no errors, no warnings)
// and already in the canonical layout.
func TestExamples(t *testing.T) {
	paths, err := filepath.Glob(examplePath("*.cog"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no examples found")
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			if r := runCLI(t, "", "check", p); r.code != 0 || r.stderr != "" || r.stdout != "" {
				t.Errorf("check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r := runCLI(t, "", "fmt", "-l", p); r.code != 0 || r.stderr != "" || r.stdout != "" {
				t.Errorf("fmt -l: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if r := runCLI(t, "", "fmt", p); r.code != 0 || r.stdout != string(src) {
				t.Errorf("fmt does not reproduce the file (exit %d)", r.code)
			}
		})
	}
	// All at once, as make demo runs them.
	args := append([]string{"check"}, paths...)
	if r := runCLI(t, "", args...); r.code != 0 || r.stderr != "" {
		t.Errorf("check of all examples: exit %d\n%s", r.code, r.stderr)
	}
	args = append([]string{"fmt", "-l"}, paths...)
	if r := runCLI(t, "", args...); r.code != 0 || r.stdout != "" {
		t.Errorf("fmt -l of all examples: exit %d\n%s", r.code, r.stdout)
	}
}
