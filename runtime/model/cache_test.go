package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/redact"
)

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// clonePage is the same page observed again: equal attributes, new Refs
// and new pointers.
func clonePage(cands []*driver.Element) []*driver.Element {
	out := make([]*driver.Element, len(cands))
	for i, c := range cands {
		cp := *c
		cp.Ref = "again-" + c.Ref
		out[i] = &cp
	}
	return out
}

// TestCacheModes runs the same dependency twice under each cache mode.
func TestCacheModes(t *testing.T) {
	tests := []struct {
		name         string
		mode         func(*Cache)
		wantCalls    int // over both runs
		wantCached   bool
		wantEntries  int
		secondAnswer string
	}{
		{"default: the second run is a hit", func(*Cache) {}, 1, true, 1, "Kilimanjaro"},
		{"refresh asks again and writes", func(c *Cache) { c.Refresh = true }, 2, false, 1, "Mont Blanc"},
		{"no-cache never writes", func(c *Cache) { c.NoCache = true }, 2, false, 0, "Mont Blanc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c := NewCache(dir)
			tt.mode(c)
			f := script("2", "3")
			r := NewLLM(f, Options{Cache: c, TextModel: "m"})
			page := results(eightResults...)
			if a, err := r.Answer(context.Background(), elementReq("Kilimanjaro", page)); err != nil || a.Element != page[1] || a.Cached {
				t.Fatalf("first run: %+v, %v", a, err)
			}
			again := clonePage(page)
			a, err := r.Answer(context.Background(), elementReq("Kilimanjaro", again))
			if err != nil {
				t.Fatal(err)
			}
			if f.calls() != tt.wantCalls || a.Cached != tt.wantCached || len(cacheFiles(t, dir)) != tt.wantEntries {
				t.Errorf("calls %d, cached %v, entries %v", f.calls(), a.Cached, cacheFiles(t, dir))
			}
			if a.Element == nil || a.Element.Text != tt.secondAnswer || (a.Element != again[1] && a.Element != again[2]) {
				t.Errorf("second answer %+v: not the live element %q", a.Element, tt.secondAnswer)
			}
			if tt.wantCached && (a.Calls != 0 || a.TokensIn != 0 || a.Model != "m") {
				t.Errorf("a hit costs nothing and names the model: %+v", a)
			}
		})
	}
}

// TestCacheKinds caches a text, a number and a span, and misses when
// anything the answer depends on changes.
func TestCacheKinds(t *testing.T) {
	dir := t.TempDir()
	f := script("A summary.", "42", "Kilimanjaro", "Another.")
	r := NewLLM(f, Options{Cache: NewCache(dir)})
	page := results(eightResults...)
	span := textReq("", "match_text", "the mountain", types.TextT, "Kibo")
	span.Candidates, span.Tree = page, &driver.Tree{Elements: page}
	reqs := []*dependency.Request{
		textReq("", "summarize", "in one sentence", types.TextT, "text"),
		textReq("", "calculate", "the total", types.NumberT, "40 + 2"),
		span,
	}
	for round := range 2 {
		for _, req := range reqs {
			a, err := r.Answer(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if a.Cached != (round == 1) || (a.Text == "" && a.Number == 0) {
				t.Errorf("round %d %s: %+v", round, req.Sub, a)
			}
		}
	}
	if f.calls() != 3 {
		t.Fatalf("%d calls, want 3", f.calls())
	}
	changed := textReq("", "summarize", "in one sentence", types.TextT, "other text")
	if a, _ := r.Answer(context.Background(), changed); a.Cached || a.Text != "Another." {
		t.Errorf("a changed input hit the cache: %+v", a)
	}
	// The span's entry is a miss once the text is off the screen.
	gone := clonePage(page)
	gone[1].Text, gone[1].Name = "Kilimanjaro", "Kilimanjaro"
	span.Candidates, span.Tree = gone, &driver.Tree{Elements: gone[2:]}
	if a, _ := r.Answer(context.Background(), span); a != nil && a.Cached {
		t.Errorf("a span no longer on the screen came from the cache: %+v", a)
	}
}

// TestCacheStaleElement: an entry whose element is not among the live
// candidates is a miss.
func TestCacheStaleElement(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(dir)
	f := script("2")
	r := NewLLM(f, Options{Cache: c})
	page := results(eightResults...)
	req := elementReq("Kilimanjaro", page)
	d := r.plan(req)
	d.cands, d.total = scope(d, DefaultCandidateBudget, DefaultMaxCandidates, nil)
	if err := c.Put(r.key(d), Entry{Kind: "element", Index: 1, Fingerprint: "0123456789abcdef"}); err != nil {
		t.Fatal(err)
	}
	a, err := r.Answer(context.Background(), req)
	if err != nil || a.Cached || f.calls() != 1 || a.Element != page[1] {
		t.Errorf("answer %+v, error %v, calls %d", a, err, f.calls())
	}
}

// TestCacheCorruptEntry is a miss, and the fresh answer replaces it.
func TestCacheCorruptEntry(t *testing.T) {
	dir := t.TempDir()
	c := NewCache(dir)
	k := Key{Model: "m", Sub: "summarize", Inputs: []string{"x"}}
	p := c.path(k.Hash())
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(`{"key": "`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Get(k); ok {
		t.Fatal("a torn entry was a hit")
	}
	if err := c.Put(k, Entry{Kind: "text", Text: "fresh"}); err != nil {
		t.Fatal(err)
	}
	if e, ok := c.Get(k); !ok || e.Text != "fresh" {
		t.Errorf("entry %+v, %v", e, ok)
	}
}

// TestCacheConcurrentWriters has two writers race on one key while a
// reader reads it: every read is a whole entry, and one remains.
func TestCacheConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	k := Key{Model: "m", Sub: "summarize", Description: "d", Inputs: []string{"x"}}
	long := strings.Repeat("long answer ", 2000) // bigger than one write
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewCache(dir) // as two runs would
			for i := range 200 {
				if err := c.Put(k, Entry{Kind: "text", Text: fmt.Sprintf("writer %d #%d %s", w, i, long)}); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	stop, readerDone := make(chan struct{}), make(chan struct{})
	var reads, hits int
	go func() {
		defer close(readerDone)
		c := NewCache(dir)
		for {
			select {
			case <-stop:
				return
			default:
			}
			reads++
			p := c.path(k.Hash())
			b, err := os.ReadFile(p)
			if err != nil {
				continue // not written yet
			}
			hits++
			var e Entry
			if err := json.Unmarshal(b, &e); err != nil || !strings.HasSuffix(e.Text, long) {
				errs <- fmt.Errorf("torn entry (%d bytes): %v", len(b), err)
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-readerDone
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	e, ok := NewCache(dir).Get(k)
	if !ok || !strings.HasPrefix(e.Text, "writer ") {
		t.Fatalf("entry %+v, %v", e, ok)
	}
	if files := cacheFiles(t, dir); len(files) != 1 {
		t.Errorf("files left: %v", files)
	}
	t.Logf("%d reads, %d of them whole entries", reads, hits)
}

// TestCacheRefusesSecrets: Put never writes an entry whose key material or
// answer holds a secret.
func TestCacheRefusesSecrets(t *testing.T) {
	const pin = "7391-xq"
	tests := []struct {
		name string
		k    Key
		e    Entry
	}{
		{"input", Key{Model: "m", Inputs: []string{"code " + pin}}, Entry{Kind: "text", Text: "ok"}},
		{"description", Key{Model: "m", Description: "type " + pin}, Entry{Kind: "text", Text: "ok"}},
		{"goal", Key{Model: "m", Goal: "sign in with " + pin}, Entry{Kind: "text", Text: "ok"}},
		{"answer", Key{Model: "m"}, Entry{Kind: "text", Text: "the pin is " + pin}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			c := NewCache(dir)
			c.Secrets = redact.New(pin)
			if err := c.Put(tt.k, tt.e); !errors.Is(err, ErrSecret) {
				t.Errorf("error %v, want ErrSecret", err)
			}
			if files := cacheFiles(t, dir); len(files) != 0 {
				t.Errorf("written: %v", files)
			}
		})
	}
}

// TestKeyHash: every field of the key changes the hash.
func TestKeyHash(t *testing.T) {
	base := Key{Model: "m", Prompt: "p", Main: "a", Sub: "b", Description: "d", Goal: "g", Inputs: []string{"i"}, Candidates: "c", Screen: "s"}
	mods := []func(*Key){
		func(k *Key) { k.Model = "m2" }, func(k *Key) { k.Prompt = "p2" }, func(k *Key) { k.Main = "a2" },
		func(k *Key) { k.Sub = "b2" }, func(k *Key) { k.Description = "d2" }, func(k *Key) { k.Goal = "g2" },
		func(k *Key) { k.Inputs = []string{"i", ""} }, func(k *Key) { k.Candidates = "c2" },
		func(k *Key) { k.Screen = "s2" },
	}
	seen := map[string]bool{base.Hash(): true}
	for i, mod := range mods {
		k := base
		k.Inputs = append([]string(nil), base.Inputs...)
		mod(&k)
		if h := k.Hash(); seen[h] {
			t.Errorf("modification %d did not change the hash", i)
		} else {
			seen[h] = true
		}
	}
	if h := base.Hash(); len(h) != 64 || !strings.HasSuffix(NewCache("x").path(h), filepath.Join(h[:2], h[2:]+".json")) {
		t.Errorf("hash %q, path %q", h, NewCache("x").path(h))
	}
}
