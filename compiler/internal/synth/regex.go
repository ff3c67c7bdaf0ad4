package synth

import (
	"regexp"
	"strings"
	"unicode"
)

// regexFamily: regex(pattern, x), a part of the source found by a pattern
// learned from the part itself — its character classes, or its shape as an
// e-mail address, URL or number — and from its delimiters in the source:
// regex("[0-9]+", op2), regex("\\(([^)]+)\\)", op2), regex("Total: ([0-9.,]+)", op2).
func regexFamily(s *search, in input) {
	v, t := []rune(in.value), []rune(s.target)
	if len(t) >= len(v) {
		return
	}
	occ := runeIndex(v, t, 3)
	if last := lastRuneIndex(v, t); last >= 0 && (len(occ) == 0 || occ[len(occ)-1] < last) {
		occ = append(occ, last) // the end of a long text: "the last word"
	}
	if len(occ) == 0 {
		return
	}
	bodies := extractionBodies(s.target)
	for _, at := range occ {
		c := contextAt(v, at, at+len(t))
		for _, b := range bodies {
			for _, f := range c.forms(b.pat) {
				s.add(call("regex", str(f.pat), in.expr), f.pen, b.prio+f.prio)
			}
		}
		for _, f := range c.between() {
			s.add(call("regex", str(f.pat), in.expr), f.pen, f.prio)
		}
	}
}

// pattern is a candidate regular expression with its rank inside the family.
type pattern struct {
	pat       string
	pen, prio int
}

var (
	emailShape  = regexp.MustCompile(`^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$`)
	urlShape    = regexp.MustCompile(`^https?://\S+$`)
	numberShape = regexp.MustCompile(`^-?[0-9]+(?:[.,][0-9]+)+$`)
)

// extractionBodies returns patterns that match the target as a whole, the
// most meaningful first. None of them contains the target's own letters or
// digits: a pattern that spells out the text would be a constant.
func extractionBodies(t string) []pattern {
	var out []pattern
	switch {
	case emailShape.MatchString(t):
		out = append(out, pattern{pat: `[\w.+-]+@[\w-]+(?:\.[\w-]+)+`})
	case urlShape.MatchString(t):
		out = append(out, pattern{pat: `https?://[^\s<>"]*[^\s<>".,;:!?)\]]`})
	case numberShape.MatchString(t):
		out = append(out, pattern{pat: strings.Repeat("-?", b2i(t[0] == '-')) + `[0-9]+(?:[.,][0-9]+)*`, prio: 1})
	}
	if broad, narrow, ok := classBodies(t); ok {
		out = append(out, pattern{pat: broad, prio: 1})
		if narrow != broad {
			out = append(out, pattern{pat: narrow, prio: 2})
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// classBodies builds C+ or C+(?:S+C+)* from the target's character classes
// C and the separators S inside it, once with letters of either case
// (broad) and once with the cases seen (narrow).
func classBodies(t string) (broad, narrow string, ok bool) {
	toks := tokenize(t)
	if len(toks) == 0 || !toks[0].alnum() || !toks[len(toks)-1].alnum() {
		return "", "", false
	}
	var letters, digits, upper, lower bool
	var seps []rune
	for _, tk := range toks {
		for _, r := range tk.text {
			switch kindOf(r) {
			case kDigit:
				digits = true
			case kLetter:
				letters = true
				upper = upper || unicode.IsUpper(r)
				lower = lower || !unicode.IsUpper(r)
			default:
				if !strings.ContainsRune(string(seps), r) {
					seps = append(seps, r)
				}
			}
		}
	}
	broad = charClass(letters, digits, true, true)
	narrow = charClass(letters, digits, upper, lower)
	if len(seps) > 0 {
		sep := classOf(seps) + "+"
		broad = broad + "+(?:" + sep + broad + "+)*"
		narrow = narrow + "+(?:" + sep + narrow + "+)*"
	} else {
		broad += "+"
		narrow += "+"
	}
	return broad, narrow, true
}

// charClass writes the class of letters (of the given cases) and digits.
// Letters are Unicode letters (\pL, \p{Lu}, \p{Ll}), so that a pattern
// learned on "John" fits "Zoë" too; digits are [0-9].
func charClass(letters, digits, upper, lower bool) string {
	l := ""
	if letters {
		switch {
		case upper && lower:
			l = `\pL`
		case upper:
			l = `\p{Lu}`
		default:
			l = `\p{Ll}`
		}
	}
	switch {
	case l != "" && digits:
		return "[" + l + "0-9]"
	case l != "":
		return l
	}
	return "[0-9]"
}

// classOf writes a character class of literal characters.
func classOf(rs []rune) string {
	if len(rs) == 1 {
		return escapeRune(rs[0])
	}
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range rs {
		b.WriteString(inClass(r))
	}
	b.WriteByte(']')
	return b.String()
}

func escapeRune(r rune) string {
	if unicode.IsSpace(r) && r != ' ' {
		return `\s`
	}
	return regexp.QuoteMeta(string(r))
}

// inClass writes a character for use inside [...].
func inClass(r rune) string {
	switch {
	case r == ' ':
		return " "
	case unicode.IsSpace(r):
		return `\s`
	case strings.ContainsRune(`\]^-[`, r):
		return `\` + string(r)
	}
	return string(r)
}
