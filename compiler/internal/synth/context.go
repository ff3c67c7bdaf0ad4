package synth

import (
	"regexp"
	"strings"
)

// context is what surrounds an occurrence of the target in a source: the
// ends of the text, the separator runs on either side and the word before
// the left separator (a label such as "Total: ").
type context struct {
	atStart, atEnd bool
	// nearEnd: only the right separator run follows the occurrence ("sem."
	// ending a paragraph); nearStart: only the left one precedes it.
	nearStart, nearEnd bool
	left, right        string
	label              string
}

func contextAt(v []rune, at, end int) context {
	c := context{atStart: at == 0, atEnd: end == len(v)}
	l := at
	for l > 0 && !isAlnum(v[l-1]) {
		l--
	}
	c.left = string(v[l:at])
	r := end
	for r < len(v) && !isAlnum(v[r]) {
		r++
	}
	c.right = string(v[end:r])
	c.nearStart, c.nearEnd = l == 0 && at > 0, r == len(v) && end < len(v)
	if c.left != "" {
		w := l
		for w > 0 && isAlnum(v[w-1]) {
			w--
		}
		if w < l {
			c.label = string(v[w:at])
		}
	}
	return c
}

// lefts returns the left separator and, when it is longer, its last
// character alone (" (" and "("); rights does the same on the right.
func (c context) lefts() []string {
	if l := []rune(c.left); len(l) > 1 {
		return []string{c.left, string(l[len(l)-1:])}
	}
	return []string{c.left}
}

func (c context) rights() []string {
	if r := []rune(c.right); len(r) > 1 {
		return []string{c.right, string(r[:1])}
	}
	return []string{c.right}
}

// forms wraps a body in the contexts that may single out the occurrence:
// nothing, an anchor, the separators around it, a label before it.
func (c context) forms(body string) []pattern {
	out := []pattern{{pat: body}}
	if c.atStart {
		out = append(out, pattern{pat: "^" + body})
	}
	if c.atEnd {
		out = append(out, pattern{pat: body + "$"})
	}
	group := "(" + body + ")"
	if c.nearEnd {
		// The last word of a text, before its closing punctuation.
		// Anchored, it keeps its meaning in a longer text of more sentences.
		// (after a pair of brackets or quotes around it, before the same
		// unanchored).
		out = append(out, pattern{pat: group + regexp.QuoteMeta(c.right) + "$", prio: 2})
	}
	if c.nearStart {
		out = append(out, pattern{pat: "^" + regexp.QuoteMeta(c.left) + group, prio: 2})
	}
	for _, l := range c.lefts() {
		L := regexp.QuoteMeta(l)
		if l != "" {
			out = append(out, pattern{pat: L + group, prio: 1})
		}
		for _, r := range c.rights() {
			R := regexp.QuoteMeta(r)
			if r != "" && l == c.left {
				out = append(out, pattern{pat: group + R, prio: 1 + 2*b2i(c.nearEnd)})
			}
			if l != "" && r != "" {
				out = append(out, pattern{pat: L + group + R, prio: 1 + 2*b2i(c.nearEnd && r == c.right)})
			}
		}
	}
	if c.label != "" && strings.ContainsAny(c.left, ":#=") {
		// A label ("Total: ", "Order #"): a word of the source in the
		// pattern is a little specific to it.
		out = append(out, pattern{pat: regexp.QuoteMeta(c.label) + group, pen: 1, prio: 1})
	}
	return out
}

// between returns the "text between delimiters" patterns: whatever lies
// between the left separator and the right one, or between a separator and
// an end of the text. Between a pair of brackets or quotes it is the most
// general reading there is, and ranks with the class patterns.
func (c context) between() []pattern {
	var out []pattern
	for _, r := range c.rights() {
		if r == "" {
			continue
		}
		R := regexp.QuoteMeta(r)
		not := "[^" + inClass([]rune(r)[0]) + "]+"
		for _, l := range c.lefts() {
			if l == "" {
				continue
			}
			prio := 3
			if paired(l, r) {
				prio = 1 // with the class patterns, after e-mail and URL shapes
			}
			out = append(out, pattern{pat: regexp.QuoteMeta(l) + "(" + not + ")" + R, prio: prio})
		}
		if c.atStart {
			out = append(out, pattern{pat: "^(" + not + ")" + R, prio: 3})
		}
	}
	if c.atEnd {
		for _, l := range c.lefts() {
			if l == "" {
				continue
			}
			last := []rune(l)
			L := regexp.QuoteMeta(l)
			out = append(out, pattern{pat: L + "([^" + inClass(last[len(last)-1]) + "]+)$", prio: 3},
				pattern{pat: L + "(.+)$", prio: 3})
		}
	}
	return out
}

// paired reports whether left ends with an opening bracket or quote and
// right starts with its closing one.
func paired(left, right string) bool {
	l, r := []rune(left), []rune(right)
	open, close := l[len(l)-1], r[0]
	for _, p := range []string{"()", "[]", "{}", "<>", `""`, "''", "«»", "“”", "‘’"} {
		pr := []rune(p)
		if open == pr[0] && close == pr[1] {
			return true
		}
	}
	return false
}
