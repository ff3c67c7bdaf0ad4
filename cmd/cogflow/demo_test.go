package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// demoHelpLines are what `demo --help` must say: both subcommands, what
// run runs by default, and the flag.
var demoHelpLines = []string{
	"Usage: cogflow demo serve|run [FILE] [--addr HOST:PORT]",
	"\n  serve ", "serve the demo site until Ctrl-C",
	"\n  run [FILE] ", "headless Chromium", "default: examples/demo_uppercase_titles.cog",
	"-addr HOST:PORT",
}

func TestDemoArgs(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout []string
		stderr []string
	}{
		{name: "demo serve --help", args: []string{"demo", "serve", "--help"}, stdout: []string{"Usage: cogflow demo serve|run [FILE] [--addr HOST:PORT]", "Serve the demo site", "-addr", "127.0.0.1:8088"}},
		{name: "demo --help", args: []string{"demo", "--help"}, stdout: demoHelpLines},
		{name: "demo run --help", args: []string{"demo", "run", "--help"}, stdout: demoHelpLines},
		{name: "help demo", args: []string{"help", "demo"}, stdout: demoHelpLines},
		{name: "help lists demo", args: []string{"help"}, stdout: []string{"  demo "}},
		{name: "no subcommand", args: []string{"demo"}, code: exitUsage, stderr: []string{"demo serve", "demo run"}},
		{name: "unknown subcommand", args: []string{"demo", "start"}, code: exitUsage, stderr: []string{"demo serve", "demo run"}},
		{name: "bad flag", args: []string{"demo", "serve", "--port", "1"}, code: exitUsage, stderr: []string{"-port", "Usage: cogflow demo"}},
		{name: "bad address", args: []string{"demo", "serve", "--addr", "127.0.0.1:99999"}, code: exitUsage, stderr: []string{"cogflow demo:"}},
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
	if n := strings.Count(stderr.String(), "\n"); n != 1 {
		t.Errorf("logged %d lines, want 1:\n%s", n, stderr.String())
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

	cancel()
	select {
	case code := <-exited:
		if code != exitOK {
			t.Errorf("exit code %d after Ctrl-C, want 0\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("demo serve did not stop")
	}
	if _, err := http.Get(base + "healthz"); err == nil {
		t.Error("the server still answers after stopping")
	}
	if stdout.String() != "" {
		t.Errorf("unexpected stdout: %q", stdout.String())
	}
}
