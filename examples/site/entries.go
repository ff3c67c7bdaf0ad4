package site

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The entries pages: /entries/N is a small form (a code and a PIN) for
// entry N, and its Submit records the entry server-side. A batch that
// submits each row's entry once can be checked here: every entry posted
// exactly once, with the right code and PIN. The PIN itself is never
// kept, only its SHA-256.

// Entry is one post of an entry form.
type Entry struct {
	N         int    `json:"n"`
	Code      string `json:"code"`
	PINSHA256 string `json:"pin_sha256"`
}

// entryBook is the entries posted and the holds tests put on pages.
type entryBook struct {
	mu    sync.Mutex
	posts []Entry
	holds map[string]*hold // by "GET n" or "POST n"
}

// hold makes the next load of an entry page wait until it is released.
type hold struct {
	reached chan struct{}
	release chan struct{}
}

// Entries returns the entries posted, oldest first.
func (s *Site) Entries() []Entry {
	s.entries.mu.Lock()
	defer s.entries.mu.Unlock()
	return slices.Clone(s.entries.posts)
}

// HoldEntry makes the next load of /entries/n wait until release is
// called (or the browser goes away); reached is closed when that load
// arrives. Tests use it to catch a worker in the middle of a row.
func (s *Site) HoldEntry(n int) (reached <-chan struct{}, release func()) {
	return s.holdEntry("GET", n)
}

// HoldEntryPost is HoldEntry for the next post of entry n's form, which
// is recorded only once released: tests catch a worker while its Submit
// is acting.
func (s *Site) HoldEntryPost(n int) (reached <-chan struct{}, release func()) {
	return s.holdEntry("POST", n)
}

func (s *Site) holdEntry(method string, n int) (<-chan struct{}, func()) {
	b := &s.entries
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.holds == nil {
		b.holds = map[string]*hold{}
	}
	h := &hold{reached: make(chan struct{}), release: make(chan struct{})}
	b.holds[fmt.Sprintf("%s %d", method, n)] = h
	var once sync.Once
	return h.reached, func() { once.Do(func() { close(h.release) }) }
}

func (s *Site) entryRoutes(m *http.ServeMux) {
	m.HandleFunc("GET /entries/{n}", s.entryPage)
	m.HandleFunc("POST /entries/{n}", s.postEntry)
	m.HandleFunc("GET /api/entries", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Entries())
	})
}

func entryNumber(w http.ResponseWriter, r *http.Request) (int, bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	if err != nil || n < 1 || n > 1_000_000 {
		http.Error(w, "no such entry", http.StatusNotFound)
		return 0, false
	}
	return n, true
}

func (s *Site) entryPage(w http.ResponseWriter, r *http.Request) {
	n, ok := entryNumber(w, r)
	if !ok {
		return
	}
	if !s.waitHold(r, "GET", n) {
		return
	}
	status := ""
	if r.URL.Query().Get("posted") == "1" {
		status = fmt.Sprintf(`<p id="status" role="status">Entry %d received</p>`, n)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Entry %d</title></head>
<body><main><h1>Entry %d</h1>%s
<form method="post" action="/entries/%d">
<p><label for="code">Code</label> <input type="text" id="code" name="code"></p>
<p><label for="pin">PIN</label> <input type="password" id="pin" name="pin"></p>
<p><button type="submit">Submit</button></p>
</form></main></body></html>
`, n, n, status, n)
}

func (s *Site) postEntry(w http.ResponseWriter, r *http.Request) {
	n, ok := entryNumber(w, r)
	if !ok {
		return
	}
	if !s.waitHold(r, "POST", n) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 1<<16)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	sum := sha256.Sum256([]byte(r.PostForm.Get("pin")))
	e := Entry{N: n, Code: strings.TrimSpace(r.PostForm.Get("code")), PINSHA256: hex.EncodeToString(sum[:])}
	s.entries.mu.Lock()
	s.entries.posts = append(s.entries.posts, e)
	s.entries.mu.Unlock()
	http.Redirect(w, r, "/entries/"+strconv.Itoa(n)+"?posted=1", http.StatusSeeOther)
}

// waitHold waits while a hold is on this request; false: the client went
// away meanwhile, and the request is dropped unanswered.
func (s *Site) waitHold(r *http.Request, method string, n int) bool {
	key := fmt.Sprintf("%s %d", method, n)
	s.entries.mu.Lock()
	h := s.entries.holds[key]
	delete(s.entries.holds, key)
	s.entries.mu.Unlock()
	if h == nil {
		return true
	}
	close(h.reached)
	select {
	case <-h.release:
		return r.Context().Err() == nil
	case <-r.Context().Done():
		return false
	}
}
