// Package match decides how well an element fits an element description:
// the one matching model of cogflow. The runtime anchors a step's
// description among the live elements with it, and the compiler asks it
// whether a description it writes picks exactly the demonstrated element
// in the recorded snapshot, so the two cannot disagree.
//
// It reads elements as trace.Attributes (the attributes a driver observes,
// as a trace records them) and imports nothing else of cogflow.
package match

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cogflow/cogflow/runtime/trace"
)

// The matching rules of anchoring, one per attribute (docs/running.md,
// "How an element is found"). Every attribute a description gives is a
// claim about the element, and a candidate that contradicts any claim is
// not a candidate at all: a recorded id that is not on the page must
// never lead to a button with another id, however alike their names.
// What varies between candidates that satisfy every claim is only how
// well (an exact text or one containing the words asked for), and that
// is what the score ranks.

// agreement is how a live element relates to one written attribute.
type agreement int

const (
	// contradicts: the element has another value; it is not a candidate.
	contradicts agreement = iota
	// contains: the element's text holds the written words among others
	// (text and description only: content grows, names do not).
	contains
	// equals: the same value, up to case and spacing where the attribute
	// allows it.
	equals
)

// containsShare is what a containing text earns against an exact one: an
// exact text always ranks clearly first (see minMargin).
const containsShare = 0.5

// matchKind is how an attribute's written value is compared with the live
// one.
type matchKind int

const (
	// exactly: byte-for-byte after trimming (identifiers: DOM ids, Android
	// resource ids and UIA AutomationIds are case-sensitive).
	exactly matchKind = iota
	// sameWords: equal after case folding and collapsing spaces.
	sameWords
	// withinWords: sameWords, or the written words appear in the live text
	// as whole words ("Delete" in "Delete all", never in "Undelete").
	withinWords
	// allTokens: every written class is among the element's classes.
	allTokens
)

// attrRules says, for each attribute an element description may give,
// how it is compared and how much an exact agreement weighs in ranking
// the candidates that satisfy all of them. Ids weigh most: they are the
// strongest evidence, paths the weakest.
var attrRules = map[string]struct {
	kind   matchKind
	weight float64
}{
	"id":          {exactly, 5},
	"name":        {sameWords, 3},
	"label":       {sameWords, 3},
	"placeholder": {sameWords, 2},
	"href":        {sameWords, 2},
	"value":       {sameWords, 1.5},
	"path":        {sameWords, 1},
	"text":        {withinWords, 3},
	"description": {withinWords, 1.5},
	"class":       {allTokens, 1},
}

// want is one written attribute, prepared once per anchoring so that the
// per-candidate work is comparisons only.
type want struct {
	key, raw, norm string
	kind           matchKind
	weight         float64
}

// wants lists a description's attributes in a fixed order (the order of the
// messages), skipping those anchoring does not compare (selectors and
// frames are filtered by the driver before candidates get here).
func wants(attrs map[string]string) []want {
	out := make([]want, 0, len(attrs))
	for _, k := range attrOrder {
		v, ok := attrs[k]
		if !ok {
			continue
		}
		r := attrRules[k]
		w := want{key: k, raw: strings.TrimSpace(v), kind: r.kind, weight: r.weight}
		if r.kind != exactly {
			w.norm = normalize(v)
		}
		out = append(out, w)
	}
	return out
}

// attrOrder is the order in which attributes are checked and reported.
var attrOrder = []string{"id", "name", "label", "placeholder", "text", "href", "value", "description", "class", "path"}

// agree compares one written attribute with the element.
func (w want) agree(el *trace.Attributes) agreement {
	have := el.Get(w.key)
	switch w.kind {
	case exactly:
		if strings.TrimSpace(have) == w.raw {
			return equals
		}
		return contradicts
	case allTokens:
		if hasTokens(have, w.norm) {
			return equals
		}
		return contradicts
	}
	if foldEqual(have, w.norm) {
		return equals
	}
	if w.kind == withinWords && w.norm != "" && len(have) >= len(w.norm) && containsWords(normalize(have), w.norm) {
		return contains
	}
	if w.key == "name" && closeSynonyms(w.norm, normalize(have)) {
		return contains
	}
	if (w.key == "name" || w.key == "text") && submitSynonyms(w.norm, normalize(have)) {
		return contains
	}
	return contradicts
}

// closeSynonyms reports whether two names both say "close": a glyph a
// page draws ("x", "×", "✕") and the word an accessible name gives the
// same button ("Close", "Dismiss"), or two glyphs. An instruction says
// `labeled "x"` for the button a toolkit names "Close". It ranks as a
// containing match, so a button really named "x" still wins, and two
// buttons that both say "close" otherwise are ambiguous.
func closeSynonyms(a, b string) bool {
	return a != b && (closeGlyphs[a] || closeWords[a]) && (closeGlyphs[b] || closeWords[b]) && (closeGlyphs[a] || closeGlyphs[b])
}

var (
	closeGlyphs = map[string]bool{"x": true, "×": true, "✕": true, "✖": true, "╳": true, "🗙": true, "❌": true}
	closeWords  = map[string]bool{"close": true, "dismiss": true, "close dialog": true, "close window": true}
)

// normalized reports whether normalize would return s unchanged: no
// upper case, no space but single ' ' between words.
func normalized(s string) bool {
	prevSpace := true
	for _, r := range s {
		switch {
		case r == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
		case unicode.IsSpace(r) || unicode.ToLower(r) != r || r == utf8.RuneError:
			return false
		default:
			prevSpace = false
		}
	}
	return s == "" || !prevSpace
}

// foldEqual reports whether normalize(have) == norm without building the
// normalized string: the comparison anchoring makes for every candidate.
func foldEqual(have, norm string) bool {
	i := 0
	pendingSpace := false
	for _, r := range have {
		if unicode.IsSpace(r) {
			pendingSpace = i > 0
			continue
		}
		if pendingSpace {
			if i >= len(norm) || norm[i] != ' ' {
				return false
			}
			i++
			pendingSpace = false
		}
		want, size := utf8.DecodeRuneInString(norm[i:])
		if size == 0 || unicode.ToLower(r) != want {
			return false
		}
		i += size
	}
	return i == len(norm)
}

// mismatch says in words why el contradicts w, for error messages.
func (w want) mismatch(el *trace.Attributes) string {
	have := el.Get(w.key)
	if have == "" {
		return fmt.Sprintf("has no %s", w.key)
	}
	if len(have) > 40 {
		have = have[:37] + "…"
	}
	return fmt.Sprintf("%s is %q", w.key, have)
}

// likeness is 1 when el's value and the written one contain one another
// (after case folding), else 0. It ranks near misses, never candidates.
func (w want) likeness(el *trace.Attributes) float64 {
	h, v := normalize(el.Get(w.key)), normalize(w.raw)
	if h != "" && v != "" && (strings.Contains(h, v) || strings.Contains(v, h)) {
		return 1
	}
	return 0
}

// containsWords reports whether sub occurs in s as whole words: the runes
// on either side of the occurrence are not letters or digits of the same
// word. Scripts written without spaces (Han, kana, Thai, …) have no word
// boundaries to check, so any occurrence counts there.
func containsWords(s, sub string) bool {
	for from := 0; from <= len(s)-len(sub); {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return false
		}
		i += from
		if boundary(s[:i], sub, true) && boundary(s[i+len(sub):], sub, false) {
			return true
		}
		from = i + 1
	}
	return false
}

// boundary reports whether the text beside an occurrence of sub (before
// it when before is true) ends a word there.
func boundary(beside, sub string, before bool) bool {
	if beside == "" {
		return true
	}
	var out, in rune
	if before {
		out, in = lastRune(beside), firstRune(sub)
	} else {
		out, in = firstRune(beside), lastRune(sub)
	}
	return !wordRune(out) || !wordRune(in) || unspaced(out) || unspaced(in)
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// unspaced reports whether r belongs to a script that does not separate
// words with spaces.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

func firstRune(s string) rune {
	for _, r := range s {
		return r
	}
	return 0
}

func lastRune(s string) rune {
	r := []rune(s)
	if len(r) == 0 {
		return 0
	}
	return r[len(r)-1]
}

// hasTokens reports whether every space-separated token of want is a
// token of have (case-insensitive): class "btn primary" is satisfied by
// "primary large btn".
func hasTokens(have, want string) bool {
	if want == "" {
		return false
	}
	got := strings.Fields(strings.ToLower(have))
	for _, w := range strings.Fields(want) {
		found := false
		for _, g := range got {
			if g == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
