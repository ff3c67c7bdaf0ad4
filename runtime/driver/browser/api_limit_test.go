package browser

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// TestDownloadLinkBounded: a download that says no length and never ends
// fails once it passes download_link's bound, instead of the page
// buffering it without end (the step would wait, or the tab run out of
// memory); nothing is written.
func TestDownloadLinkBounded(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	done := make(chan struct{})
	t.Cleanup(func() { close(done) }) // before the server's Close, which waits for the handler
	chunk := []byte(strings.Repeat("x", 1<<20))
	s.handle("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		for i := 0; i < 40; i++ { // past the 32 MiB bound, then hold the response open
			if _, err := w.Write(chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	})
	open(t, d, s.page("/dl", `<a id=big href="/endless">Get it</a>`))
	dir := t.TempDir()
	t.Chdir(dir)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := d.Do(ctx, driver.Action{Op: action.DownloadLink, Target: target(t, d, "big")})
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("download_link of an endless file = %v, want an error with %q", err, "more than")
	}
	if got, _ := os.ReadDir(dir); len(got) != 0 {
		t.Errorf("%d files written", len(got))
	}
}
