package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// srcInputs declares one input of each kind the checks tell apart.
const srcInputs = `task t "Use inputs" {
  driver browser
  input n: number
  input flag: bool = false
  input names: list<number> = []
  op1 = open("http://127.0.0.1:1/x")
}
`

// fakeChrome writes an executable that leaves a mark when it is started,
// so that a test can tell that a bad input stopped the run before the
// browser was launched.
func fakeChrome(t *testing.T) (exe, mark string) {
	t.Helper()
	dir := t.TempDir()
	mark = filepath.Join(dir, "started")
	exe = writeFile(t, dir, "chrome", "#!/bin/sh\ntouch "+mark+"\nexit 1\n")
	if err := os.Chmod(exe, 0o755); err != nil {
		t.Fatal(err)
	}
	return exe, mark
}

// TestRunChecksInputsFirst gives bad inputs in every way and checks that
// each is reported with exit 2, naming where the value came from, before
// the browser starts; --dry-run reports the same.
func TestRunChecksInputsFirst(t *testing.T) {
	dir := t.TempDir()
	wf := writeFile(t, dir, "t.cog", srcInputs)
	csvBad := writeFile(t, dir, "bad.csv", "n,flag\n1,true\nabc,false\n")
	csvUnknown := writeFile(t, dir, "unknown.csv", "n,zz\n1,2\n")
	csvMissing := writeFile(t, dir, "missing.csv", "flag\ntrue\n")
	csvNaN := writeFile(t, dir, "nan.csv", "n\n1\nNaN\n")
	fileBad := writeFile(t, dir, "n.txt", "abc\n")
	t.Setenv("COGFLOW_TEST_FLAG", "maybe")
	os.Unsetenv("COGFLOW_TEST_UNSET")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown name", []string{"--input", "n=1", "--input", "nope=1"}, `--input nope: task t has no input "nope" (its inputs: n, flag, names)`},
		{"not a number", []string{"--input", "n=abc"}, `--input n: "abc" is not a number`},
		{"NaN", []string{"--input", "n=NaN"}, `--input n: "NaN" is not a finite number`},
		{"Inf", []string{"--input", "n=Inf"}, `--input n: "Inf" is not a finite number`},
		{"minus infinity", []string{"--input", "n=-infinity"}, `"-infinity" is not a finite number`},
		{"out of range", []string{"--input", "n=1e999"}, `--input n: "1e999" is `},
		{"list item", []string{"--input", "n=1", "--input", "names=1, nan"}, `--input names: item 2: "nan" is not a finite number`},
		{"not a bool", []string{"--input", "n=1", "--input", "flag=maybe"}, `--input flag: "maybe" is not true or false`},
		{"missing", []string{"--input", "flag=true"}, "input n has no value: give it with --input n=…, --input-env n=VAR or --input-file n=PATH"},
		{"env bad", []string{"--input", "n=1", "--input-env", "flag=COGFLOW_TEST_FLAG"}, `--input-env flag=COGFLOW_TEST_FLAG: "maybe" is not true or false`},
		{"env unset", []string{"--input-env", "n=COGFLOW_TEST_UNSET"}, "--input-env n=COGFLOW_TEST_UNSET: the environment variable COGFLOW_TEST_UNSET is not set"},
		{"file bad", []string{"--input-file", "n=" + fileBad}, `--input-file n=` + fileBad + `: "abc" is not a number`},
		{"file missing", []string{"--input-file", "n=" + filepath.Join(dir, "none")}, "no such file"},
		{"file too large", []string{"--input-file", "n=/dev/zero"}, "--input-file n=/dev/zero: /dev/zero: larger than 1 MiB, the limit for an input value"},
		{"given twice", []string{"--input", "n=1", "--input-env", "n=COGFLOW_TEST_FLAG"}, "input n is given twice: --input n and --input-env n=COGFLOW_TEST_FLAG"},
		{"two from stdin", []string{"--input-file", "n=-", "--input-file", "flag=-"}, "--input-file n=-: standard input already gives input flag"},
		{"csv cell", []string{"--inputs", csvBad}, csvBad + `: row 2, column n: "abc" is not a number`},
		{"csv NaN", []string{"--inputs", csvNaN}, csvNaN + `: row 2, column n: "NaN" is not a finite number`},
		{"csv column", []string{"--inputs", csvUnknown}, csvUnknown + `: row 1, column zz: task t has no input "zz"`},
		{"csv missing", []string{"--inputs", csvMissing}, csvMissing + ": row 1: input n has no value"},
		{"flag beside csv", []string{"--inputs", csvMissing, "--input", "n=x"}, `--input n: "x" is not a number`},
		{"csv too large", []string{"--inputs", "/dev/zero"}, "/dev/zero: larger than 64 MiB, the limit for an inputs CSV file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exe, mark := fakeChrome(t)
			for _, mode := range [][]string{{"--chrome", exe, "--dir", t.TempDir()}, {"--dry-run"}} {
				args := append(append([]string{"run", wf}, tt.args...), mode...)
				r := runCLI(t, "12\n", args...)
				if r.code != exitUsage || !strings.Contains(r.stderr, tt.want) {
					t.Errorf("%v: exit %d, stderr:\n%s\nwant exit %d and %q", mode, r.code, r.stderr, exitUsage, tt.want)
				}
				if r.stdout != "" {
					t.Errorf("%v: something ran or was planned:\n%s", mode, r.stdout)
				}
			}
			if _, err := os.Stat(mark); err == nil {
				t.Errorf("the browser was started before the inputs were checked")
			}
		})
	}
}

// TestResumeNeedsNoInputs: a resume may leave out the inputs the resumed
// run journaled, but a value it gives is still checked first.
func TestResumeNeedsNoInputs(t *testing.T) {
	wf := writeFile(t, t.TempDir(), "t.cog", srcInputs)
	r := runCLI(t, "", "run", wf, "--resume", "--dry-run")
	if r.code != exitOK || strings.Contains(r.stderr, "has no value") {
		t.Errorf("--resume without inputs: exit %d\n%s", r.code, r.stderr)
	}
	r = runCLI(t, "", "run", wf, "--resume", "--dry-run", "--input", "n=NaN")
	if r.code != exitUsage || !strings.Contains(r.stderr, `--input n: "NaN" is not a finite number`) {
		t.Errorf("--resume with a bad input: exit %d\n%s", r.code, r.stderr)
	}
}

// TestRunInputSources gives values through the environment, a file and
// standard input, and reads them back from the plan.
func TestRunInputSources(t *testing.T) {
	dir := t.TempDir()
	wf := writeFile(t, dir, "t.cog", `task t "x" {
  driver browser
  input a: text
  input b: text
  input c: text = "default"
  input pin: secret
  op1 = open("http://127.0.0.1:1/x")
}
`)
	t.Setenv("COGFLOW_TEST_A", "from env")
	fileB := writeFile(t, dir, "b.txt", "line one\r\n")
	csv := writeFile(t, dir, "rows.csv", "\ufeffc\nfrom csv\n")
	r := runCLI(t, "s3cret\n\n", "run", wf, "--dry-run", "--input-env", "a=COGFLOW_TEST_A", "--input-file", "b="+fileB,
		"--input-file", "pin=-", "--inputs", csv)
	if r.code != exitOK {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	for _, want := range []string{`input a = "from env" (given)`, `input b = "line one" (given)`, `input c = "from csv" (given)`, "input pin = [secret]"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("plan lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "s3cret") || strings.Contains(r.stderr, "warning") {
		t.Errorf("secret shown, or a warning for a secret not on the command line:\n%s%s", r.stdout, r.stderr)
	}
	plain := runCLI(t, "", "run", wf, "--dry-run", "--input", "a=1", "--input", "b=2", "--input", "pin=s3cret")
	if plain.code != exitOK || !strings.Contains(plain.stderr, "warning: the secret input pin is given with --input, where every user of this machine can read it") ||
		strings.Contains(plain.stderr, "s3cret") {
		t.Errorf("plain secret: exit %d, stderr:\n%s", plain.code, plain.stderr)
	}
	help := runCLI(t, "", "help", "run")
	for _, want := range []string{"-input-env", "-input-file", "standard input", "give secrets with --input-env or --input-file"} {
		if !strings.Contains(help.stdout, want) {
			t.Errorf("run --help lacks %q:\n%s", want, help.stdout)
		}
	}
}

// TestE2EInputFromStdin types a value read from standard input into the
// demo site's notes and reads it back from the site.
func TestE2EInputFromStdin(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	wf := writeWorkflow(t, "note.cog", `task note "Write a note" {
  driver browser
  input text: secret
  op1 = open("`+base+`/notes")
  op2 = type(textbox(name: "Notes"), text)
  op3 = click(button(name: "Save"))
}
`)
	r := runWith(context.Background(), "typed from stdin\n", "run", wf, "--input-file", "text=-", "--dir", t.TempDir(), "--yes")
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if got := s.State().Notes; got != "typed from stdin" {
		t.Errorf("notes = %q, want the value from standard input without its newline", got)
	}
}

// TestInputFromFileTrimsOneNewline: a file or standard input gives its
// content less one line ending, so that a value may itself end in one.
func TestInputFromFileTrimsOneNewline(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"pw", "pw"}, {"pw\n", "pw"}, {"pw\r\n", "pw"}, {"pw\n\n", "pw\n"}, {"\n", ""}, {"", ""}, {"a\nb\n", "a\nb"}, {"pw\r", "pw\r"},
	} {
		got, where, err := inputSources{file: inputFlags{"pin": "-"}}.resolve(strings.NewReader(tt.in))
		if err != nil || got["pin"] != tt.want || where["pin"] != "--input-file pin=-" {
			t.Errorf("%q: got %q from %q, %v; want %q", tt.in, got["pin"], where["pin"], err, tt.want)
		}
	}
}
