package site

import (
	"embed"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"
)

//go:embed static templates articles
var files embed.FS

// State is a snapshot of everything the pages store, as GET /api/state
// returns it. Slices are never nil, so they encode as [] rather than null.
type State struct {
	// Notes is the text of the notes page.
	Notes string `json:"notes"`
	// ReadingList holds the rows of the reading-list table, top to bottom.
	ReadingList []Paper `json:"reading_list"`
	// Submissions are the order-form submissions, oldest first.
	Submissions []Submission `json:"submissions"`
	// Files are the names in the file list, in display order.
	Files []string `json:"files"`
	// Replies are the replies sent from the mail page, oldest first.
	Replies []Reply `json:"replies"`
	// Total is the text of the sheet's Total box.
	Total string `json:"total"`
	// MailUser is the user signed in on the mail page, "" when nobody is.
	MailUser string `json:"mail_user"`
}

// Paper is one row of the reading list.
type Paper struct {
	Title    string `json:"title"`
	Authors  string `json:"authors"`
	Abstract string `json:"abstract"`
}

// Submission is one submission of the order form.
type Submission struct {
	Name       string `json:"name"`
	Email      string `json:"email"`
	Phone      string `json:"phone"`
	Country    string `json:"country"`
	Newsletter bool   `json:"newsletter"`
}

// Reply is one reply sent from the mail page. The PIN itself is never
// stored, only whether one was given.
type Reply struct {
	MessageID int    `json:"message_id"`
	To        string `json:"to"`
	Subject   string `json:"subject"`
	Body      string `json:"body"`
	PINGiven  bool   `json:"pin_given"`
}

// Site is the demo web site: its pages, its API and the state they share.
// It is safe for concurrent use.
type Site struct {
	mux *http.ServeMux

	mu sync.Mutex
	st State
	// revs holds, per autosaved field, the revision of the last value
	// stored, so that a save overtaken by a newer one is dropped.
	revs map[string]float64
	// layout is the page layout served (layout.go); set before serving,
	// never changed after.
	layout string
	// entries are the entry forms' posts (entries.go).
	entries entryBook
}

// New returns a site in its initial state.
func New() *Site {
	s := &Site{}
	s.Reset()
	s.mux = s.routes()
	return s
}

// Handler serves the site.
func (s *Site) Handler() http.Handler { return s.mux }

// State returns a copy of the current state.
func (s *Site) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st.clone()
}

// Reset restores the initial state.
func (s *Site) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st = initialState()
	s.revs = map[string]float64{}
}

// update runs f with the state locked.
func (s *Site) update(f func(st *State)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(&s.st)
}

// fresh reports whether a value saved under key with revision rev is newer
// than the one stored, and records rev if so. Autosaving pages send the
// time of the edit (milliseconds since the epoch) as rev; a plain form post
// has none and counts as made now. The caller holds s.mu.
func (s *Site) fresh(key string, rev float64) bool {
	if rev <= 0 {
		rev = float64(time.Now().UnixMicro()) / 1000
	}
	if rev < s.revs[key] {
		return false
	}
	s.revs[key] = rev
	return true
}

func (st State) clone() State {
	c := st
	c.ReadingList = slices.Clone(st.ReadingList)
	c.Submissions = slices.Clone(st.Submissions)
	c.Files = slices.Clone(st.Files)
	c.Replies = slices.Clone(st.Replies)
	return c
}

func initialState() State {
	return State{
		ReadingList: slices.Clone(initialPapers),
		Submissions: []Submission{},
		Files:       slices.Clone(initialFiles),
		Replies:     []Reply{},
	}
}

// writeJSON writes v as JSON with the status code.
func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
