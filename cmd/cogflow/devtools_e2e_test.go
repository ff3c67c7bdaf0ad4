package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestE2EDevToolsReplay imports the project's own small DevTools Recorder
// recordings (testdata/devtools), compiles them with no model and runs them
// on their pages: a shadow-DOM chain, an SVG icon, a text selector, a
// hover, waits by count, by absence and by expression, a scroll to a
// position, a later viewport change, a popup opened late, a step in a
// frame; a selector that matches nothing fails the run clearly.
func TestE2EDevToolsReplay(t *testing.T) {
	needChromium(t)
	isolateConfig(t)
	var mu sync.Mutex
	var logged []string
	mux := http.NewServeMux()
	mux.HandleFunc("/log", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		logged = append(logged, r.URL.Query().Get("m"))
		mu.Unlock()
	})
	mux.Handle("/", http.FileServer(http.Dir("testdata/devtools/pages")))
	srv := httptest.NewUnstartedServer(mux)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(l.Addr().String())

	tests := []struct {
		recording string
		want      []string // what the pages must have logged
		fail      string   // the run must fail with this, when set
	}{
		{"widgets.json", []string{"widget 1", "icon path", "details", "hovered", "box 30", "viewport 700x500"}, ""},
		{"popup_frame.json", []string{"confirmed", "inside"}, ""},
		{"missing.json", nil, `no element matches element(css: ".not-there")`},
	}
	for _, tt := range tests {
		t.Run(tt.recording, func(t *testing.T) {
			mu.Lock()
			logged = nil
			mu.Unlock()
			dir := t.TempDir()
			src, err := os.ReadFile(filepath.Join("testdata/devtools", tt.recording))
			if err != nil {
				t.Fatal(err)
			}
			rec := filepath.Join(dir, "rec.json")
			if err := os.WriteFile(rec, []byte(strings.ReplaceAll(string(src), "PORT", port)), 0o644); err != nil {
				t.Fatal(err)
			}
			tr, cog := filepath.Join(dir, "t.trace.json"), filepath.Join(dir, "t.cog")
			if r := runCLI(t, "", "import", rec, "-o", tr); r.code != exitOK {
				t.Fatalf("import: exit %d\n%s", r.code, r.stderr)
			}
			if r := runCLI(t, "", "compile", "--no-llm", "--dir", filepath.Join(dir, ".cogflow"), "-o", cog, tr); r.code != exitOK {
				t.Fatalf("compile: exit %d\n%s", r.code, r.stderr)
			}
			wf, _ := os.ReadFile(cog)
			if strings.Contains(string(wf), "element()") {
				t.Errorf("a target compiled to a bare element():\n%s", wf)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			r := runWith(ctx, "", "run", "--dir", filepath.Join(dir, ".cogflow"), cog)
			if tt.fail != "" {
				if r.code == exitOK || !strings.Contains(r.stderr, tt.fail) {
					t.Fatalf("run: exit %d, want a failure with %q\n%s%s\n%s", r.code, tt.fail, r.stdout, r.stderr, wf)
				}
				return
			}
			if r.code != exitOK {
				t.Fatalf("run: exit %d\n%s%s\n%s", r.code, r.stdout, r.stderr, wf)
			}
			deadline := time.Now().Add(2 * time.Second)
			for {
				mu.Lock()
				got := append([]string(nil), logged...)
				mu.Unlock()
				missing := slices.DeleteFunc(slices.Clone(tt.want), func(w string) bool { return slices.Contains(got, w) })
				if len(missing) == 0 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the pages did not log %q (logged %q)\n%s", missing, got, wf)
				}
				time.Sleep(50 * time.Millisecond)
			}
		})
	}
}
