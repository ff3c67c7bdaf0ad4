package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// offerPage is a page of the test's own: a Continue button and, when the
// address says dialog=1, a newsletter dialog over it that must be closed
// first (Continue does nothing while it is open). Continue reports to
// /done which instance it finished.
const offerPage = `<!doctype html>
<html><head><title>Offer</title>
<style>#news{position:fixed;inset:0;background:#fff8;display:flex;align-items:center;justify-content:center} #news[hidden]{display:none}</style>
</head><body>
<h1>Offer</h1>
<p id="query">Continue to the offer.</p>
<button id="continue">Continue</button>
<div id="news" role="dialog" aria-label="Newsletter" hidden>
  <p>Subscribe to our newsletter?</p>
  <button id="nothanks">No thanks</button>
</div>
<script>
const news = document.getElementById('news');
const inst = new URLSearchParams(location.search).get('inst');
if (new URLSearchParams(location.search).get('dialog') === '1') news.hidden = false;
document.getElementById('nothanks').onclick = () => { news.hidden = true; };
document.getElementById('continue').onclick = () => {
  if (!news.hidden) return;
  fetch('/done?inst=' + inst).then(() => { document.getElementById('query').textContent = 'Done.'; });
};
</script>
</body></html>`

// offerSite serves offerPage and records the instances finished.
type offerSite struct {
	mu   sync.Mutex
	done map[string]bool
}

func (s *offerSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/offer":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, offerPage)
	case "/done":
		s.mu.Lock()
		s.done[r.URL.Query().Get("inst")] = true
		s.mu.Unlock()
	default:
		http.NotFound(w, r)
	}
}

func (s *offerSite) finished(inst string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done[inst]
}

// TestE2EMergeOptionalDialog is issue 16's acceptance "Merging
// demonstrations": two demonstrations of one task, recorded in real
// Chromium, differ in an optional dialog (closed in one, absent in the
// other). `cogflow compile a b` merges them into one workflow with an
// `if visible(…)`, and that workflow finishes both kinds of instance.
func TestE2EMergeOptionalDialog(t *testing.T) {
	needChromium(t)
	isolateConfig(t)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	site := &offerSite{done: map[string]bool{}}
	srv := httptest.NewServer(site)
	t.Cleanup(srv.Close)

	h, wait := recordSession(t, ctx, srv.URL+"/offer?dialog=1&inst=demo1")
	h.mouseClick(`#nothanks`)
	h.mouseClick(`#continue`)
	time.Sleep(300 * time.Millisecond)
	h.stop()
	withDialog := wait()
	h, wait = recordSession(t, ctx, srv.URL+"/offer?dialog=0&inst=demo2")
	h.mouseClick(`#continue`)
	time.Sleep(300 * time.Millisecond)
	h.stop()
	without := wait()
	if !site.finished("demo1") || !site.finished("demo2") {
		t.Fatalf("the demonstrations did not finish their instances: %v", site.done)
	}

	cog := filepath.Join(t.TempDir(), "offer.cog")
	r := runWith(ctx, "", "compile", withDialog, without, "--no-llm", "-o", cog, "--dir", t.TempDir())
	if r.code != exitOK {
		t.Fatalf("compile: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	src := readFile(t, cog)
	t.Logf("merged:\n%s\n%s", src, r.stderr)
	if !strings.Contains(src, "if visible(") || strings.Count(src, "click(") != 2 || strings.Contains(r.stderr, "warning:") || !strings.Contains(src, "2 demonstrations merged") {
		t.Fatalf("the merged workflow is not one line with an if visible around closing the dialog:\n%s", src)
	}

	for _, tc := range []struct{ name, query string }{
		{"with the dialog", "dialog=1&inst=run1"},
		{"without the dialog", "dialog=0&inst=run2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := writeWorkflow(t, "offer.cog", strings.ReplaceAll(src, "dialog=1&inst=demo1", tc.query))
			r := runWith(ctx, "", "run", run, "--yes", "--dir", t.TempDir())
			if r.code != exitOK {
				t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			inst := strings.TrimPrefix(tc.query[strings.Index(tc.query, "inst="):], "inst=")
			deadline := time.Now().Add(3 * time.Second)
			for !site.finished(inst) && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if !site.finished(inst) {
				t.Errorf("the run reported ok but did not finish the instance %s\n%s", inst, r.stderr)
			}
		})
	}
}
