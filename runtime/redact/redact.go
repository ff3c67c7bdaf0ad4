// Package redact keeps a run's secrets — the values of its secret inputs
// and every text the run derives from them — and takes them out of what
// the run writes or sends: journals, summaries, terminal output, prompts,
// cache entries, error messages.
//
// A Set grows while the run goes on: the interpreter adds a text the moment
// it computes it from a secret (an item of a list<secret>, lower(pin),
// "id-" + pin, a slice of one), so what is redacted follows the values,
// not the strings first given on the command line.
package redact

import (
	"bytes"
	"encoding/json"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Redacted replaces every secret in what a run writes.
const Redacted = "[secret]"

// MinDerived is the shortest derived text that is learned as a secret. A
// piece of one or two characters of a secret (substr(pin, 0, 1)) says
// little about it, while redacting that character everywhere would garble
// every file name, timestamp and message of the journal. The secret values
// themselves are redacted whatever their length.
const MinDerived = 3

// Set is a run's growing set of secret texts. The zero value and nil are
// empty sets; a Set is safe for concurrent use.
type Set struct {
	mu       sync.RWMutex
	raw      []string // the secrets, longest first
	seen     map[string]bool
	replacer *strings.Replacer // nil when raw changed since it was built
}

// New returns a set holding the given secrets (empty strings are ignored).
func New(secrets ...string) *Set {
	s := &Set{}
	s.Add(secrets...)
	return s
}

// Add adds secret values, whatever their length.
func (s *Set) Add(secrets ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range secrets {
		if v == "" || s.seen[v] {
			continue
		}
		if s.seen == nil {
			s.seen = map[string]bool{}
		}
		s.seen[v] = true
		s.raw = append(s.raw, v)
		s.replacer = nil
	}
}

// Derive adds texts computed from a secret; those shorter than MinDerived
// characters (after trimming spaces) are left out.
func (s *Set) Derive(texts ...string) {
	for _, t := range texts {
		if utf8.RuneCountInString(strings.TrimSpace(t)) >= MinDerived {
			s.Add(t)
		}
	}
}

// Values returns the secrets, longest first.
func (s *Set) Values() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := slices.Clone(s.raw)
	slices.SortStableFunc(out, byLength)
	return out
}

// Len is the number of secrets.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.raw)
}

func byLength(a, b string) int { return len(b) - len(a) }

// prepared returns the replacer for the current secrets, building it when
// secrets were added since, and the raw secrets longest first.
func (s *Set) prepared() (*strings.Replacer, []string) {
	s.mu.RLock()
	r, raw := s.replacer, s.raw
	s.mu.RUnlock()
	if r != nil || len(raw) == 0 {
		return r, raw
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.replacer == nil {
		s.build()
	}
	return s.replacer, s.raw
}

// build makes the replacer: every secret in the forms it takes when a
// value is rendered raw, trimmed, as JSON, with %q or in a URL. The caller
// holds s.mu for writing.
func (s *Set) build() {
	// Sorted in a copy: a reader may still range over the old slice.
	s.raw = slices.Clone(s.raw)
	slices.SortStableFunc(s.raw, byLength)
	seen := map[string]bool{}
	var forms []string
	for _, v := range s.raw {
		for _, f := range []string{v, strings.TrimSpace(v), jsonEscape(v, false), jsonEscape(v, true),
			quoteInner(strconv.Quote(v)), quoteInner(strconv.QuoteToASCII(v)),
			url.QueryEscape(v), url.PathEscape(v)} {
			if f != "" && !seen[f] {
				seen[f] = true
				forms = append(forms, f)
			}
		}
	}
	// strings.Replacer tries the old strings in argument order at each
	// position: longest first, so a secret that contains another goes whole.
	slices.SortStableFunc(forms, byLength)
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Redacted)
	}
	s.replacer = strings.NewReplacer(pairs...)
}

// jsonEscape is v as it appears between the quotes of a JSON string.
func jsonEscape(v string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	_ = enc.Encode(v) // a string always encodes
	return quoteInner(strings.TrimSuffix(b.String(), "\n"))
}

func quoteInner(q string) string { return q[1 : len(q)-1] }

// String redacts x. If a secret survives the replacement (it overlapped
// another, or contains Redacted itself) the whole string is withheld.
func (s *Set) String(x string) string {
	if s == nil || x == "" {
		return x
	}
	r, raw := s.prepared()
	if r == nil {
		return x
	}
	out := cutTruncated(r.Replace(x), raw)
	for _, sec := range raw {
		if strings.Contains(out, sec) {
			return Redacted
		}
	}
	return out
}

// ellipsis ends a text cut short for display (a long item's key, an
// element's text in a candidate list).
const ellipsis = "…"

// minCut is the shortest beginning of a secret, cut by an ellipsis, that is
// redacted: shorter ones are too likely to be ordinary text.
const minCut = 4

// cutTruncated redacts a secret that a text was cut in the middle of: the
// beginning of a secret right before an ellipsis, which no whole form of it
// matches.
func cutTruncated(x string, secrets []string) string {
	if !strings.Contains(x, ellipsis) {
		return x
	}
	var b strings.Builder
	rest := x
	for {
		i := strings.Index(rest, ellipsis)
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		head := rest[:i]
		for _, sec := range secrets {
			for k := len(sec) - 1; k >= minCut; k-- {
				if strings.HasSuffix(head, sec[:k]) {
					head = head[:len(head)-k] + Redacted
					break
				}
			}
		}
		b.WriteString(head)
		b.WriteString(ellipsis)
		rest = rest[i+len(ellipsis):]
	}
}

// Holds reports whether x contains a secret, in any of its forms.
func (s *Set) Holds(x string) bool {
	return s != nil && x != "" && s.String(x) != x
}

// Writer returns a writer that redacts every write before passing it to w:
// for what is shown to a person (a question at the terminal), written one
// whole message per write. A secret split across two writes is not found.
func (s *Set) Writer(w io.Writer) io.Writer { return writer{w: w, s: s} }

type writer struct {
	w io.Writer
	s *Set
}

// Write implements io.Writer; it reports len(p) written when the redacted
// text was written whole.
func (w writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.w, w.s.String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}
