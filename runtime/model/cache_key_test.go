package model

import (
	"context"
	"testing"
	"time"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
)

// TestCacheKeyCoversScreen: a dependency that reads the screen is a new
// question on a new screen, and the same question on the same screen; a
// dependency that works on its inputs alone does not depend on the screen.
// (examples/wiki_glossary.cog's paragraph, read with no inputs, was served
// the first article's answer on every later article.)
func TestCacheKeyCoversScreen(t *testing.T) {
	const kenya = "Mount Kenya\nMount Kenya is an extinct stratovolcano in central Kenya."
	const serengeti = "Serengeti\nThe Serengeti is a vast ecosystem of grassland in northern Tanzania."
	noInputs := func(screen string) *dependency.Request {
		r := textReq("", "extract_information", "the first paragraph of the article", types.TextT, "")
		r.Inputs, r.ScreenText = nil, screen
		return r
	}
	onInputs := func(screen string) *dependency.Request {
		r := textReq("", "summarize", "in one sentence", types.TextT, "a paragraph")
		r.ScreenText = screen
		return r
	}
	recall := func(screen string) *dependency.Request {
		r := textReq("information_recall", "extract_information", "the height", types.TextT, "Mount Kenya")
		r.ScreenText = screen
		return r
	}
	tests := []struct {
		name       string
		req        func(screen string) *dependency.Request
		wantCached bool // on the second screen, after the first was answered
	}{
		{"no inputs: reads the screen", noInputs, false},
		{"recall with inputs: reads the screen", recall, false},
		{"works on its inputs: the screen does not matter", onInputs, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := script("first answer", "second answer")
			r := NewLLM(f, Options{Cache: NewCache(t.TempDir())})
			ctx := context.Background()
			if a, err := r.Answer(ctx, tt.req(kenya)); err != nil || a.Text != "first answer" {
				t.Fatalf("first screen: %+v, %v", a, err)
			}
			a, err := r.Answer(ctx, tt.req(serengeti))
			if err != nil {
				t.Fatal(err)
			}
			if a.Cached != tt.wantCached {
				t.Errorf("second screen: cached %v, want %v (answer %q)", a.Cached, tt.wantCached, a.Text)
			}
			// The first screen again is the first question again.
			a, err = r.Answer(ctx, tt.req(kenya))
			if err != nil || !a.Cached || a.Text != "first answer" {
				t.Errorf("first screen again: %+v, %v; want the first answer from the cache", a, err)
			}
		})
	}
}

// TestForgetEvicts: an answer names its cache entry, served or stored;
// forgetting it removes the entry, so the next lookup asks the model
// again. Without a cache an answer names no entry.
func TestForgetEvicts(t *testing.T) {
	ctx := context.Background()
	req := textReq("", "summarize", "in one sentence", types.TextT, "a paragraph")
	dir := t.TempDir()
	f := script("wrong answer", "right answer")
	r := NewLLM(f, Options{Cache: NewCache(dir)})
	fresh, err := r.Answer(ctx, req)
	if err != nil || fresh.CacheKey == "" || fresh.Cached || len(cacheFiles(t, dir)) != 1 {
		t.Fatalf("fresh answer %+v, %v, entries %v", fresh, err, cacheFiles(t, dir))
	}
	served, err := r.Answer(ctx, req)
	if err != nil || !served.Cached || served.CacheKey != fresh.CacheKey || served.CachedAt.IsZero() ||
		time.Since(served.CachedAt) > time.Minute {
		t.Fatalf("served answer %+v, %v", served, err)
	}
	if err := r.Forget(served); err != nil {
		t.Fatal(err)
	}
	if files := cacheFiles(t, dir); len(files) != 0 {
		t.Fatalf("entries left after Forget: %v", files)
	}
	again, err := r.Answer(ctx, req)
	if err != nil || again.Cached || again.Text != "right answer" || f.calls() != 2 {
		t.Errorf("after Forget: %+v, %v, %d calls; want the model asked again", again, err, f.calls())
	}
	// Forgetting twice, or an answer that names no entry, is no error.
	if err := r.Forget(served); err != nil {
		t.Errorf("forgetting a removed entry: %v", err)
	}
	if err := r.Forget(&dependency.Answer{}); err != nil {
		t.Errorf("forgetting an answer without entry: %v", err)
	}
	if err := NewCache(dir).Evict("../../etc/passwd"); err == nil {
		t.Error("Evict accepted a name that is not an entry's")
	}
	noCache := NewCache(t.TempDir())
	noCache.NoCache = true
	a, err := NewLLM(script("x"), Options{Cache: noCache}).Answer(ctx, req)
	if err != nil || a.CacheKey != "" {
		t.Errorf("with --no-cache: %+v, %v; want no entry named", a, err)
	}
}
