package synth

import "strings"

// replaceFamily: replace(x, old, new) where the target is the source with
// one part exchanged (a suffix, a prefix, a delimiter, inserted text) —
// "budget.txt" → "budget.md" is replace(op2, ".txt", ".md").
func replaceFamily(s *search, in input) {
	v, t := []rune(in.value), []rune(s.target)
	if in.value == s.target {
		return
	}
	if pre, suf := commonAffixes(v, t); mostlyKept(pre+suf, len(t)-pre-suf) {
		replaceWindows(s, in, pre, suf)
	}
	// Every occurrence of a delimiter exchanged, or removed.
	if alnumOnly(in.value) != alnumOnly(s.target) {
		return
	}
	for _, old := range separators(in.value) {
		for _, repl := range append(separators(s.target), "") {
			s.add(call("replace", in.expr, str(old), str(repl)), 0, 2)
		}
	}
}

// replaceWindows tries the one edit between the common prefix and suffix
// of source and target, widened to token boundaries.
func replaceWindows(s *search, in input, pre, suf int) {
	v, t := []rune(in.value), []rune(s.target)
	for _, a := range boundariesDown(v, pre, 3) {
		for _, b := range boundariesUp(v, len(v)-suf, 3) {
			if a >= b || (a == 0 && b == len(v)) {
				continue // nothing to search for, or the whole value: a constant
			}
			old := string(v[a:b])
			repl := string(t[a : len(t)-(len(v)-b)])
			if !mostlyKept(len(v)-(b-a), len([]rune(repl))) || !smallEdit(b-a, len(v)-(b-a)) || cutsMost(old, b-a, len(v)-(b-a)) {
				continue
			}
			pen, prio, ok := replacePenalty(old, repl)
			if !ok {
				continue
			}
			s.add(call("replace", in.expr, str(old), str(repl)), pen, prio)
		}
	}
}

// mostlyKept reports whether an edit that keeps kept characters of the
// source and writes added ones of its own still computes its result from
// the source, by the rule concatenation follows (see segment): otherwise
// it is a constant that happens to share a few characters with it.
func mostlyKept(kept, added int) bool {
	return (kept >= 3 || kept >= added) && added <= 4*kept+8
}

// cutsMost reports whether a replace takes away most of the source (as
// many characters as it keeps, or more) including a word of content: "Grace Hopper" →
// "grace@example.com" is not replace(lower(op2), " hopper",
// "@example.com"), a program that would type "ada lovelace" for "Ada
// Lovelace", but a value of its own. A field is never explained by
// cutting most of another field's value away.
func cutsMost(old string, removed, kept int) bool {
	return removed >= kept && hasAlnum(old) && !labelLike(old)
}

// smallEdit reports whether searching for a part of removed characters,
// keeping kept, is an edit rather than a rewrite: the text searched for is
// the demonstration's own, so a long stretch of content that outweighs
// what is kept (most of a paragraph cut out of a summary) would not be
// found in another run.
func smallEdit(removed, kept int) bool {
	return removed <= 12 || removed <= kept
}

// replacePenalty rates replace(x, old, new): an extension or label is best,
// a bare delimiter next; a word of content, or content carried from old into
// new other than by inserting next to old ("(555) 123-" → "555123"), is
// specific to the demonstration. ok is false when new holds digits that
// are not a copy of old: a changed number is arithmetic, not an edit.
func replacePenalty(old, repl string) (pen, prio int, ok bool) {
	insertion := strings.Contains(repl, old)
	if hasDigit(repl) && !insertion {
		return 0, 0, false
	}
	switch {
	case !labelLike(old):
		return 1, 0, true
	case !insertion && sharesWord(old, repl):
		return 1, 0, true
	case hasAlnum(old):
		return 0, 0, true
	}
	return 0, 1, true
}

// sharesWord reports whether a letter or digit run of a occurs in b.
func sharesWord(a, b string) bool {
	for _, t := range tokenize(a) {
		if t.alnum() && strings.Contains(b, t.text) {
			return true
		}
	}
	return false
}

// boundariesDown returns up to n token boundaries of rs at or before i,
// nearest first.
func boundariesDown(rs []rune, i, n int) []int {
	var out []int
	for p := i; p >= 0 && len(out) < n; p-- {
		if boundary(rs, p) {
			out = append(out, p)
		}
	}
	return out
}

// boundariesUp returns up to n token boundaries of rs at or after i,
// nearest first.
func boundariesUp(rs []rune, i, n int) []int {
	var out []int
	for p := i; p <= len(rs) && len(out) < n; p++ {
		if boundary(rs, p) {
			out = append(out, p)
		}
	}
	return out
}
