package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDemoServeLayout serves each layout through `demo serve --layout`
// and checks what the notes page shows and what the command says.
func TestDemoServeLayout(t *testing.T) {
	tests := []struct {
		args     []string
		notes    string // in the notes page
		notNotes string // not in it
		hint     bool   // the --heal hint is logged
	}{
		{nil, `<button type="submit">Save</button>`, `more-button`, false},
		{[]string{"--layout", "original"}, `<button type="submit">Save</button>`, `more-button`, false},
		{[]string{"--layout", "moved"}, `id="more-button"`, `<button type="submit">Save</button>
<p`, true},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, "="), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			old := demoSignals
			demoSignals = func() (context.Context, context.CancelFunc) { return ctx, cancel }
			defer func() { demoSignals = old }()
			var stdout, stderr lockedBuffer
			c := &cli{stdout: &stdout, stderr: &stderr, stdin: strings.NewReader("")}
			exited := make(chan int, 1)
			args := append([]string{"demo", "serve", "--addr", "127.0.0.1:0"}, tc.args...)
			go func() { exited <- c.main(args) }()
			urlRE := regexp.MustCompile(`serving the demo site at (http://127\.0\.0\.1:\d+/)`)
			var base string
			for deadline := time.Now().Add(5 * time.Second); base == ""; time.Sleep(10 * time.Millisecond) {
				if m := urlRE.FindStringSubmatch(stderr.String()); m != nil {
					base = m[1]
				} else if time.Now().After(deadline) {
					t.Fatalf("no URL logged:\n%s", stderr.String())
				}
			}
			resp, err := http.Get(base + "notes")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(body), tc.notes) || strings.Contains(string(body), tc.notNotes) {
				t.Errorf("/notes: want %q and not %q:\n%s", tc.notes, tc.notNotes, body)
			}
			hint := "cogflow run " + healExample + " --heal --input site=" + strings.TrimSuffix(base, "/")
			if got := strings.Contains(stderr.String(), hint); got != tc.hint {
				t.Errorf("hint %q logged = %v, want %v:\n%s", hint, got, tc.hint, stderr.String())
			}
			stopDemo(t, cancel, exited, &stderr, "demo serve")
		})
	}
}
