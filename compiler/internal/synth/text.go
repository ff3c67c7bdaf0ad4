package synth

import (
	"strings"
	"unicode"
)

// kind is the coarse class of a character that token boundaries and
// learned patterns are built from.
type kind int

const (
	kSpace kind = iota
	kDigit
	kLetter
	kPunct
)

func kindOf(r rune) kind {
	switch {
	case unicode.IsSpace(r):
		return kSpace
	case unicode.IsDigit(r):
		return kDigit
	case unicode.IsLetter(r):
		return kLetter
	}
	return kPunct
}

func isAlnum(r rune) bool { k := kindOf(r); return k == kDigit || k == kLetter }

// boundary reports whether position i of rs lies between two tokens: at
// either end, where the kind of character changes, or where a lower-case
// letter meets an upper-case one (camelCase).
func boundary(rs []rune, i int) bool {
	if i <= 0 || i >= len(rs) {
		return true
	}
	a, b := rs[i-1], rs[i]
	if kindOf(a) != kindOf(b) {
		return true
	}
	return unicode.IsLower(a) && unicode.IsUpper(b)
}

// aligned reports whether rs[i:j] starts and ends on token boundaries.
func aligned(rs []rune, i, j int) bool { return boundary(rs, i) && boundary(rs, j) }

// hasAlnum reports whether s holds a letter or digit.
func hasAlnum(s string) bool { return strings.IndexFunc(s, isAlnum) >= 0 }

// labelLike reports whether a search string taken from a source is
// structure rather than content: only delimiters (" - ", ","), or words
// glued to punctuation, as file extensions and labels are (".txt", "Re: ",
// "#", "-draft"). A bare word ("John ", "Draft") is content, and so is a
// number standing on its own ("-05-17"), though digits inside a word
// ("mp3") are not.
func labelLike(s string) bool {
	rs := []rune(s)
	toks := tokenize(s)
	for i, t := range toks {
		if !t.alnum() {
			continue
		}
		if t.kind == kDigit {
			inWord := (i > 0 && toks[i-1].kind == kLetter) || (i+1 < len(toks) && toks[i+1].kind == kLetter)
			if !inWord {
				return false
			}
			continue
		}
		glued := (t.start > 0 && kindOf(rs[t.start-1]) == kPunct) ||
			(t.end < len(rs) && kindOf(rs[t.end]) == kPunct)
		if !glued {
			return false
		}
	}
	return true
}

// hasDigit reports whether s holds a digit.
func hasDigit(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return kindOf(r) == kDigit }) >= 0
}

// runeIndex returns the rune offsets of the occurrences of sub in rs, the
// first max of them (all when max is 0).
func runeIndex(rs, sub []rune, max int) []int {
	var at []int
	if len(sub) == 0 {
		return nil
	}
	for i := 0; i+len(sub) <= len(rs); i++ {
		if rs[i] == sub[0] && equalRunes(rs[i:i+len(sub)], sub) {
			at = append(at, i)
			if len(at) == max {
				break
			}
		}
	}
	return at
}

// lastRuneIndex returns the position of the last occurrence of sub in rs,
// or -1.
func lastRuneIndex(rs, sub []rune) int {
	for i := len(rs) - len(sub); i >= 0 && len(sub) > 0; i-- {
		if equalRunes(rs[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func equalRunes(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// commonAffixes returns the lengths, in runes, of the longest common prefix
// of a and b and of the longest common suffix of what remains.
func commonAffixes(a, b []rune) (pre, suf int) {
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return pre, suf
}

// token is a maximal run of letters, of digits or of other characters.
type token struct {
	text       string
	start, end int // rune offsets
	kind       kind
}

func (t token) alnum() bool { return t.kind == kDigit || t.kind == kLetter }

// tokenize splits s into letter runs, digit runs and separator runs (space
// and punctuation together).
func tokenize(s string) []token {
	rs := []rune(s)
	var out []token
	tk := func(r rune) kind {
		if k := kindOf(r); k == kSpace {
			return kPunct
		} else {
			return k
		}
	}
	for i := 0; i < len(rs); {
		j := i + 1
		for j < len(rs) && tk(rs[j]) == tk(rs[i]) {
			j++
		}
		out = append(out, token{text: string(rs[i:j]), start: i, end: j, kind: tk(rs[i])})
		i = j
	}
	return out
}

// separators returns the distinct separator runs of s, and each distinct
// separator character on its own, in order of appearance.
func separators(s string) []string {
	var out []string
	seen := map[string]bool{}
	addSep := func(x string) {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	for _, t := range tokenize(s) {
		if t.alnum() {
			continue
		}
		addSep(t.text)
		for _, r := range t.text {
			addSep(string(r))
		}
	}
	return out
}

// alnumOnly returns the letters and digits of s, in order: two texts with
// the same alnumOnly differ only in their separators.
func alnumOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if isAlnum(r) {
			return r
		}
		return -1
	}, s)
}

// lettersFrom reports whether every letter and digit of t occurs in s, as
// it must when t is made of s's tokens and separators.
func lettersFrom(t, s string) bool {
	for _, r := range t {
		if isAlnum(r) && !strings.ContainsRune(s, r) {
			return false
		}
	}
	return true
}
