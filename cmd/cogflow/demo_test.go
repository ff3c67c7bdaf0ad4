package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// demoHelpLines are what `demo --help` must say: the three subcommands,
// what run runs by default, what android serves, and the flag.
var demoHelpLines = []string{
	"Usage: cogflow demo serve|run [FILE]|android [--addr HOST:PORT]",
	"\n  serve ", "serve the demo site until Ctrl-C",
	"\n  run [FILE] ", "headless Chromium", "default: examples/demo_uppercase_titles.cog",
	"\n  android ", "simulated Android phone", "examples/android_add_contact.cog",
	"-addr HOST:PORT", "default 127.0.0.1:8088, for android 127.0.0.1:5038",
}

func TestDemoArgs(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "demo serve --help", args: []string{"demo", "serve", "--help"}, stdout: []string{"Usage: cogflow demo serve|run [FILE]|android [--addr HOST:PORT]", "Serve the demo site", "-addr", "127.0.0.1:8088"}},
		{name: "demo --help", args: []string{"demo", "--help"}, stdout: demoHelpLines},
		{name: "demo run --help", args: []string{"demo", "run", "--help"}, stdout: demoHelpLines},
		{name: "help demo", args: []string{"help", "demo"}, stdout: demoHelpLines},
		{name: "demo android --help", args: []string{"demo", "android", "--help"}, stdout: demoHelpLines},
		{name: "demo android with an argument", args: []string{"demo", "android", "x.cog"}, code: exitUsage, stderr: []string{"demo android [--addr HOST:PORT]"}},
		{name: "help lists demo", args: []string{"help"}, stdout: []string{"  demo "}},
		{name: "no subcommand", args: []string{"demo"}, code: exitUsage, stderr: []string{"demo serve", "demo run", "demo android"}},
		{name: "unknown subcommand", args: []string{"demo", "start"}, code: exitUsage, stderr: []string{"demo serve", "demo run", "demo android"}},
		{name: "bad flag", args: []string{"demo", "serve", "--port", "1"}, code: exitUsage, stderr: []string{"-port", "Usage: cogflow demo"}},
		{name: "bad address", args: []string{"demo", "serve", "--addr", "127.0.0.1:99999"}, code: exitUsage, stderr: []string{"cogflow demo:"}},
		{name: "bad layout", args: []string{"demo", "serve", "--layout", "sideways"}, code: exitUsage, stderr: []string{`--layout: unknown layout "sideways": want one of original, moved`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "", tc.args...)
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, tc.code, r.stdout, r.stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if tc.stderr == nil && r.stderr != "" {
				t.Errorf("unexpected stderr:\n%s", r.stderr)
			}
		})
	}
}

func TestSiteURL(t *testing.T) {
	for addr, want := range map[string]string{
		"127.0.0.1:8088": "http://127.0.0.1:8088/",
		"0.0.0.0:8088":   "http://localhost:8088/",
		"[::]:8088":      "http://localhost:8088/",
		"[::1]:9000":     "http://[::1]:9000/",
	} {
		a, err := net.ResolveTCPAddr("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := siteURL(a); got != want {
			t.Errorf("siteURL(%s) = %s, want %s", addr, got, want)
		}
	}
}

// lockedBuffer is a buffer that the server goroutine writes while the test
// reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestDemoServe starts the server on a free port, uses it and stops it the
// way Ctrl-C does.
func TestDemoServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	old := demoSignals
	demoSignals = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	defer func() { demoSignals = old }()

	var stdout, stderr lockedBuffer
	c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
	exited := make(chan int, 1)
	go func() { exited <- c.main([]string{"demo", "serve", "--addr", "127.0.0.1:0"}) }()

	urlRE := regexp.MustCompile(`serving the demo site at (http://127\.0\.0\.1:\d+/)`)
	var base string
	for deadline := time.Now().Add(5 * time.Second); base == ""; {
		if m := urlRE.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
			break
		}
		select {
		case code := <-exited:
			t.Fatalf("demo serve exited with %d:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no URL logged:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if n := strings.Count(stderr.String(), "\n"); n != 2 {
		t.Errorf("logged %d lines, want 2:\n%s", n, stderr.String())
	}
	// The second line points the default example at this port.
	runLine := "cogflow run examples/demo_uppercase_titles.cog --input site=" + strings.TrimSuffix(base, "/") + "\n"
	if !strings.Contains(stderr.String(), runLine) {
		t.Errorf("no line %q:\n%s", runLine, stderr.String())
	}

	resp, err := http.Get(base + "healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Errorf("GET /healthz: %d %q", resp.StatusCode, body)
	}
	resp, err = http.Get(base + "api/state")
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || st["files"] == nil {
		t.Errorf("GET /api/state: %v %v", err, st)
	}

	stopDemo(t, cancel, exited, &stderr, "demo serve")
	if _, err := http.Get(base + "healthz"); err == nil {
		t.Error("the server still answers after stopping")
	}
	if stdout.String() != "" {
		t.Errorf("unexpected stdout: %q", stdout.String())
	}
}

// TestDemoRunAnyPort runs `demo run --addr 127.0.0.1:0`: the example's
// input site is set to the port the site got, so the run changes that
// site (a run still going to port 8088 would change nothing here), and the
// URL policy lets the given address be opened.
func TestDemoRunAnyPort(t *testing.T) {
	needChromium(t)
	isolateConfig(t)
	example, err := filepath.Abs(examplePath("demo_uppercase_titles.cog"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // the run's journal goes to ./.cogflow
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := runWith(ctx, "", "demo", "run", "--addr", "127.0.0.1:0", example)
	if r.code != exitOK {
		t.Fatalf("demo run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	m := regexp.MustCompile(`demo site at (http://127\.0\.0\.1:(\d+))/; running .* with --input site=(\S+)\n`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no line naming the site and the input:\n%s", r.stdout)
	}
	if m[2] == "8088" || m[3] != m[1] {
		t.Errorf("site %s on port %s, input site=%s; want a free port and the input equal to the site", m[1], m[2], m[3])
	}
	changed := r.stdout[strings.Index(r.stdout, "what changed on the site:"):]
	for _, want := range []string{`reading_list[0].title: "`, `reading_list[1].title: "`, `" → "ATTENTION IS ALL YOU NEED"`} {
		if !strings.Contains(changed, want) {
			t.Errorf("what changed lacks %q:\n%s", want, changed)
		}
	}
	if _, err := os.Stat(filepath.Join(".cogflow", "runs")); err != nil {
		t.Errorf("no journal in ./.cogflow: %v", err)
	}
}

// TestDeclaresSite: demo run sets the input site only in a workflow that
// declares it, so every demo-site example must, and nothing else is
// given an input it does not have.
func TestDeclaresSite(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		file string
		want bool
	}{
		{examplePath("demo_uppercase_titles.cog"), true},
		{examplePath("batch_rename.cog"), true},
		{examplePath("form_from_table.cog"), true},
		{examplePath("keyword_intro.cog"), true},
		{examplePath("reading_list_abstracts.cog"), true},
		{examplePath("reply_from_subject.cog"), true},
		{examplePath("sum_column.cog"), true},
		{examplePath("notes_save.cog"), true},
		{examplePath("notes_save_explore.cog"), true},
		{examplePath("wiki_glossary.cog"), true},
		{examplePath("android_add_contact.cog"), false},
		{examplePath("uia_translate_clipboard.cog"), false},
		{writeFile(t, dir, "other.cog", "task t \"x\" {\n  driver browser\n  input page: url = \"http://127.0.0.1:8088\"\n  op1 = open(page)\n}\n"), false},
		{writeFile(t, dir, "skill.cog", "skill s(site: url) {\n  s1 = open(site)\n}\n"), false},
		{writeFile(t, dir, "broken.cog", "task t {\n  input site: url =\n"), false},
		{filepath.Join(dir, "missing.cog"), false},
	}
	for _, tc := range tests {
		if got := declaresSite(tc.file); got != tc.want {
			t.Errorf("declaresSite(%s) = %v, want %v", filepath.Base(tc.file), got, tc.want)
		}
	}
	// Every example that opens the demo site names it only through site.
	paths, _ := filepath.Glob(examplePath("*.cog"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "127.0.0.1:8088") && !strings.Contains(line, `input site: url = "http://127.0.0.1:8088"`) {
				t.Errorf("%s:%d names the demo site's address outside the input site: %s", filepath.Base(p), i+1, line)
			}
		}
	}
}

// stopDemo plays Ctrl-C on a demo command running in the test (cancel is
// its signal context's) and checks that it stops with exit code 0.
func stopDemo(t *testing.T, cancel context.CancelFunc, exited <-chan int, stderr *lockedBuffer, what string) {
	t.Helper()
	cancel()
	select {
	case code := <-exited:
		if code != exitOK {
			t.Errorf("%s: exit code %d after Ctrl-C, want 0\n%s", what, code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s did not stop", what)
	}
}
