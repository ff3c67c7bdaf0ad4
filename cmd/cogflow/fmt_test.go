package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fmt", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestFmt(t *testing.T) {
	messy := readTestdata(t, "messy.cog")
	golden := readTestdata(t, "messy.golden")
	if messy == golden {
		t.Fatal("testdata: messy.cog is already canonical")
	}
	// The files every case starts with, in a fresh folder; $D/ in args
	// and stdout stands for that folder.
	initial := map[string]string{
		"messy.cog":  messy,
		"clean.cog":  golden,
		"clean2.cog": srcClean,
		"syntax.cog": srcSyntaxError,
	}
	// In stderrRE, @D@ stands for the folder (quoted for the regexp).
	syntaxPos := `@D@syntax\.cog:3:13: error: .+\n    op1 = open\("http://x"\n {14}\^\n`
	tests := []struct {
		name     string
		args     []string
		stdin    string
		code     int
		stdout   string            // exact
		stderrRE string            // must match stderr; stderr must be empty when ""
		after    map[string]string // file contents afterwards, when they change
	}{
		{name: "default prints the canonical text", args: []string{"$D/messy.cog"}, stdout: golden},
		{name: "default on canonical file", args: []string{"$D/clean.cog"}, stdout: golden},
		{name: "default several files", args: []string{"$D/messy.cog", "$D/clean2.cog"}, stdout: golden + srcClean},
		{name: "stdin", args: []string{"-"}, stdin: messy, stdout: golden},
		{name: "stdin canonical", args: []string{"-"}, stdin: srcClean, stdout: srcClean},
		{name: "-l one differs", args: []string{"-l", "$D/clean.cog", "$D/messy.cog", "$D/clean2.cog"}, code: 1, stdout: "$D/messy.cog\n"},
		{name: "-l none differ", args: []string{"-l", "$D/clean.cog", "$D/clean2.cog"}},
		{name: "-l flag after files", args: []string{"$D/clean.cog", "$D/messy.cog", "-l"}, code: 1, stdout: "$D/messy.cog\n"},
		{name: "-l stdin", args: []string{"-l", "-"}, stdin: messy, code: 1, stdout: "-\n"},
		{name: "-d canonical file", args: []string{"-d", "$D/clean.cog"}},
		{name: "-w", args: []string{"-w", "$D/messy.cog", "$D/clean.cog"}, after: map[string]string{"messy.cog": golden}},
		{name: "-w -l", args: []string{"-w", "-l", "$D/messy.cog", "$D/clean.cog"}, code: 1, stdout: "$D/messy.cog\n", after: map[string]string{"messy.cog": golden}},
		{name: "-w stdin", args: []string{"-w", "-"}, stdin: messy, code: 2, stderrRE: `-w cannot write back to standard input`},
		{name: "-w file and stdin", args: []string{"-w", "$D/messy.cog", "-"}, stdin: messy, code: 2, stderrRE: `-w cannot write back to standard input`},
		{name: "no files", args: nil, code: 2, stderrRE: `no files given`},
		{name: "missing file", args: []string{"$D/nope.cog"}, code: 2, stderrRE: `^cogflow fmt: .*nope\.cog.*\n$`},
		{name: "missing file among others", args: []string{"-w", "$D/nope.cog", "$D/messy.cog"}, code: 2, stderrRE: `nope\.cog`, after: map[string]string{"messy.cog": golden}},
		{name: "unknown flag", args: []string{"-x", "$D/messy.cog"}, code: 2, stderrRE: `-x(.|\n)*Usage: cogflow fmt`},
		{name: "syntax error", args: []string{"$D/syntax.cog"}, code: 1, stderrRE: `^` + syntaxPos + `$`},
		{name: "syntax error -w", args: []string{"-w", "$D/syntax.cog"}, code: 1, stderrRE: `^` + syntaxPos + `$`},
		{name: "syntax error -l", args: []string{"-l", "$D/syntax.cog"}, code: 1, stderrRE: `^` + syntaxPos + `$`},
		{name: "syntax error -d", args: []string{"-d", "$D/syntax.cog"}, code: 1, stderrRE: `^` + syntaxPos + `$`},
		{name: "syntax error -w with a good file", args: []string{"-w", "$D/syntax.cog", "$D/messy.cog"}, code: 1, stderrRE: syntaxPos, after: map[string]string{"messy.cog": golden}},
		{name: "syntax error on stdin", args: []string{"-"}, stdin: srcSyntaxError, code: 1, stderrRE: `:3:13: error: `},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range initial {
				writeFile(t, dir, name, text)
			}
			d := func(s string) string { return strings.ReplaceAll(s, "$D/", dir+string(filepath.Separator)) }
			var args []string
			for _, a := range tc.args {
				args = append(args, d(a))
			}
			r := runCLI(t, tc.stdin, append([]string{"fmt"}, args...)...)
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			if want := d(tc.stdout); r.stdout != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
			}
			if tc.stderrRE == "" {
				if r.stderr != "" {
					t.Errorf("unexpected stderr:\n%s", r.stderr)
				}
			} else {
				re := strings.ReplaceAll(tc.stderrRE, "@D@", regexp.QuoteMeta(dir+string(filepath.Separator)))
				if !regexp.MustCompile(re).MatchString(r.stderr) {
					t.Errorf("stderr does not match %s:\n%s", re, r.stderr)
				}
			}
			for name, text := range initial {
				want := text
				if a, ok := tc.after[name]; ok {
					want = a
				}
				got, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != want {
					t.Errorf("%s afterwards:\n%s\nwant:\n%s", name, got, want)
				}
			}
			assertNoStrayFiles(t, dir, initial)
		})
	}
}

// assertNoStrayFiles checks that the folder holds exactly the given files.
func assertNoStrayFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	for name := range files {
		want = append(want, name)
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("folder holds %v, want %v", got, want)
	}
}

// TestFmtDiff compares fmt -d with a diff made by GNU diff -u, and checks
// that applying it to the file gives the formatted text.
func TestFmtDiff(t *testing.T) {
	path := filepath.Join("testdata", "fmt", "messy.cog")
	want := readTestdata(t, "messy.diff")
	r := runCLI(t, "", "fmt", "-d", path)
	if r.code != 1 || r.stderr != "" {
		t.Errorf("fmt -d: exit %d, stderr %q", r.code, r.stderr)
	}
	if r.stdout != want {
		t.Errorf("fmt -d:\n%s\nwant:\n%s", r.stdout, want)
	}
	hunks := regexp.MustCompile(`(?m)^@@ .* @@$`).FindAllString(r.stdout, -1)
	if !slices.Equal(hunks, []string{"@@ -10,7 +10,7 @@"}) {
		t.Errorf("hunk headers %q, want [@@ -10,7 +10,7 @@]", hunks)
	}
	got, err := applyUnified(readTestdata(t, "messy.cog"), r.stdout)
	if err != nil {
		t.Fatalf("applying fmt -d output: %v", err)
	}
	if golden := readTestdata(t, "messy.golden"); got != golden {
		t.Errorf("applying fmt -d output gives:\n%s\nwant:\n%s", got, golden)
	}

	// -d and -l together: the name, then the diff.
	r = runCLI(t, "", "fmt", "-l", "-d", path)
	if r.code != 1 || r.stdout != path+"\n"+want {
		t.Errorf("fmt -l -d: exit %d, stdout:\n%s", r.code, r.stdout)
	}
}

// TestFmtWrite checks that -w replaces the file through a rename, keeps
// its mode, leaves no temporary file and reaches a fixed point.
func TestFmtWrite(t *testing.T) {
	for _, mode := range []os.FileMode{0o640, 0o600, 0o755} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := writeFile(t, dir, "messy.cog", readTestdata(t, "messy.cog"))
			clean := writeFile(t, dir, "clean.cog", srcClean)
			for _, p := range []string{path, clean} {
				if err := os.Chmod(p, mode); err != nil {
					t.Fatal(err)
				}
			}
			before, _ := os.Stat(path)
			cleanBefore, _ := os.Stat(clean)

			if r := runCLI(t, "", "fmt", "-w", path, clean); r.code != 0 || r.stdout != "" || r.stderr != "" {
				t.Fatalf("fmt -w: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != readTestdata(t, "messy.golden") {
				t.Errorf("after fmt -w:\n%s", got)
			}
			after, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if after.Mode() != mode {
				t.Errorf("mode after fmt -w is %v, want %v", after.Mode(), mode)
			}
			if os.SameFile(before, after) {
				t.Errorf("fmt -w wrote the file in place instead of renaming a new one over it")
			}
			// A canonical file is not touched at all.
			if cleanAfter, _ := os.Stat(clean); !os.SameFile(cleanBefore, cleanAfter) || !cleanAfter.ModTime().Equal(cleanBefore.ModTime()) {
				t.Errorf("fmt -w rewrote a file that was already canonical")
			}
			assertNoStrayFiles(t, dir, map[string]string{"messy.cog": "", "clean.cog": ""})

			if r := runCLI(t, "", "fmt", "-l", path, clean); r.code != 0 || r.stdout != "" || r.stderr != "" {
				t.Errorf("fmt -l after fmt -w: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			if r := runCLI(t, "", "fmt", "-d", path); r.code != 0 || r.stdout != "" {
				t.Errorf("fmt -d after fmt -w: exit %d\n%s", r.code, r.stdout)
			}
		})
	}
}
