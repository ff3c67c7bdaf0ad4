package browser

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestSharedContexts opens three drivers on one shared browser at once:
// each sees its own cookies and storage only, closing one leaves the
// others working, and Close ends the browser process.
func TestSharedContexts(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	s, err := StartShared(ctx, driver.Options{ActionTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	pid := s.proc.pid
	site := newSite(t)
	page := site.page("/shared", `<title>Shared</title><p>x</p>`)
	const n = 3
	ds := make([]*Driver, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			d, err := s.Open(ctx)
			if err != nil {
				errs[i] = err
				return
			}
			ds[i] = d
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("driver %d: %v", i, err)
		}
	}
	for i, d := range ds {
		open(t, d, page)
		eval(t, d, fmt.Sprintf(`(document.cookie = "who=%d", localStorage.setItem("who", "%d"), "")`, i, i))
	}
	for i, d := range ds {
		want := fmt.Sprintf("who=%d|%d", i, i)
		if got := eval(t, d, `document.cookie + "|" + localStorage.getItem("who")`); got != want {
			t.Errorf("driver %d sees %q, want only its own %q", i, got, want)
		}
	}
	if err := ds[0].Close(); err != nil {
		t.Errorf("closing one context: %v", err)
	}
	open(t, ds[1], page)
	if got := eval(t, ds[1], "document.title"); got != "Shared" {
		t.Errorf("after another context closed: title %q", got)
	}
	// A new context starts empty: nothing of the closed one's state.
	d, err := s.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open(t, d, page)
	if got := eval(t, d, `document.cookie + "|" + localStorage.getItem("who")`); got != "|null" {
		t.Errorf("a fresh context sees %q", got)
	}
	for _, d := range append(ds[1:], d) {
		_ = d.Close()
	}
	if err := s.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if alive(pid) {
		t.Errorf("the shared browser (pid %d) is still running after Close", pid)
	}
}
