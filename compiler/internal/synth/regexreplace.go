package synth

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// regexReplaceFamily: regex_replace(x, pattern, replacement) for edits that
// depend on the kind of character or on the shape of the text rather than
// on its content: keeping only the digits of a phone number, normalizing
// separators, and rearranging or abbreviating tokens with capture groups
// ("John Smith" → "J. Smith", "2024-05-17" → "17.05.2024").
func regexReplaceFamily(s *search, in input) {
	if in.value == s.target {
		return
	}
	if isSubsequence(s.target, in.value) {
		s.add(call("regex_replace", in.expr, str(keepOnly(s.target)), str("")), 0, 0)
		s.add(call("regex_replace", in.expr, str(`\s+`), str("")), 0, 1)
	}
	if alnumOnly(in.value) == alnumOnly(s.target) {
		normalizeSeparators(s, in)
	}
	if lettersFrom(s.target, in.value) {
		restructure(s, in)
	}
}

// normalizeSeparators: every run of white space, of separators, or of the
// separators the source uses, replaced by one separator of the target.
func normalizeSeparators(s *search, in input) {
	seps := []string{`\s+`, `[^\pL0-9]+`}
	if src := []rune(strings.Join(separators(in.value), "")); len(src) > 0 {
		seps = append(seps, classOf(dedupe(src))+"+")
	}
	for _, p := range seps {
		for _, repl := range append(separators(s.target), "") {
			s.add(call("regex_replace", in.expr, str(p), str(repl)), 0, 1)
		}
	}
}

// isSubsequence reports whether t is s with some characters left out.
func isSubsequence(t, s string) bool {
	rt := []rune(t)
	i := 0
	for _, r := range s {
		if i < len(rt) && rt[i] == r {
			i++
		}
	}
	return i == len(rt)
}

// keepOnly returns the class of every character not of a kind seen in t:
// "[^0-9]" for "5551234567", "[^0-9+]" for "+15551234567".
func keepOnly(t string) string {
	var letters, digits bool
	var punct []rune
	for _, r := range t {
		switch kindOf(r) {
		case kDigit:
			digits = true
		case kLetter:
			letters = true
		default:
			if !strings.ContainsRune(string(punct), r) {
				punct = append(punct, r)
			}
		}
	}
	var b strings.Builder
	b.WriteString("[^")
	if letters {
		b.WriteString(`\pL`)
	}
	if digits {
		b.WriteString("0-9")
	}
	for _, r := range punct {
		b.WriteString(inClass(r))
	}
	b.WriteString("]")
	return b.String()
}

func dedupe(rs []rune) []rune {
	var out []rune
	for _, r := range rs {
		if !strings.ContainsRune(string(out), r) {
			out = append(out, r)
		}
	}
	return out
}

// restructure learns a pattern over the source's tokens and a replacement
// built from its capture groups. Only the tokens that change are matched
// (anchored to the start or end of the text where they touch it), so that
// "^(\pL)\pL*" → "$1." abbreviates the first name of any name.
func restructure(s *search, in input) {
	v, t := []rune(in.value), []rune(s.target)
	toks := tokenize(in.value)
	n := len(toks)
	pre, suf := commonAffixes(v, t)
	a := 0
	for a < n && toks[a].end <= pre {
		a++
	}
	b := n
	for b > a && toks[b-1].start >= len(v)-suf {
		b--
	}
	for _, r := range [][2]int{{a, b}, {0, b}, {a, n}, {0, n}} {
		if r[0] < r[1] && r[1]-r[0] <= maxRegionTokens {
			if e := regionProgram(in, toks, r[0], r[1], t, len(v)); e != nil {
				s.add(e, 0, 0)
			}
		}
	}
}

// tokRef says which source token an atom stands for, whole or by its
// first letter.
type tokRef struct {
	k       int
	initial bool
}

// maxRegionTokens bounds the tokens a restructuring pattern spells out: a
// longer pattern is neither readable nor likely to fit another text.
const maxRegionTokens = 15

// regionProgram writes regex_replace for source tokens [a, b) and the part
// of the target that replaces them, or returns nil when that part cannot be
// built from those tokens.
func regionProgram(in input, toks []token, a, b int, t []rune, vlen int) ast.Expr {
	start, end := toks[a].start, toks[b-1].end
	if start > len(t)-(vlen-end) {
		return nil
	}
	mid := t[start : len(t)-(vlen-end)]
	var atoms []atom
	var refs []tokRef
	for k := a; k < b; k++ {
		if !toks[k].alnum() {
			continue
		}
		atoms = append(atoms, atom{value: []rune(toks[k].text)})
		refs = append(refs, tokRef{k: k})
		if rs := []rune(toks[k].text); toks[k].kind == kLetter && len(rs) > 1 {
			atoms = append(atoms, atom{value: rs[:1], free: true})
			refs = append(refs, tokRef{k: k, initial: true})
		}
	}
	pieces, atomRunes, _ := cut(mid, atoms)
	if !restructures(pieces, atomRunes, b-a, len(mid)) {
		return nil
	}
	used := map[tokRef]bool{}
	var order []tokRef
	for _, p := range pieces {
		if p.atom != nil {
			r := refs[atomIndex(atoms, p.atom)]
			used[r] = true
			order = append(order, r)
		}
	}
	if onlySeparators(order, toks, a, b) {
		return nil // the same tokens in the same order: a separator edit
	}
	pat, groups := tokenPattern(toks, a, b, used)
	var repl strings.Builder
	for i, p := range pieces {
		if p.atom == nil {
			repl.WriteString(strings.ReplaceAll(p.lit, "$", "$$"))
			continue
		}
		nums := groups[refs[atomIndex(atoms, p.atom)]]
		for j, g := range nums {
			glued := j < len(nums)-1 || (i+1 < len(pieces) && startsWord(pieces[i+1]))
			repl.WriteString(groupRef(g, glued))
		}
	}
	return call("regex_replace", in.expr, str(pat), str(repl.String()))
}

// restructures reports whether a replacement made of pieces rearranges or
// abbreviates the tokens of a region rather than doing another family's
// job: it must put no letters or digits of its own (that would be content
// of the demonstration), and it must not merely keep one token (regex
// extracts) or wrap a single token in text (concatenation).
func restructures(pieces []piece, atomRunes, regionToks, midLen int) bool {
	if midLen == 0 {
		return true // the region is deleted
	}
	if atomRunes == 0 {
		return false // a constant in place of the tokens: replace's job
	}
	initials := false
	for _, p := range pieces {
		if p.atom == nil && hasAlnum(p.lit) {
			return false
		}
		if p.atom != nil && p.atom.free {
			initials = true
		}
	}
	if len(pieces) == 1 && !initials {
		return false
	}
	return initials || regionToks > 1
}

// onlySeparators reports whether the replacement keeps every letter and
// digit token of the region, whole and in order, so that only what lies
// between them changes: replace and the separator patterns say that more
// simply.
func onlySeparators(order []tokRef, toks []token, a, b int) bool {
	var alnum []int
	for k := a; k < b; k++ {
		if toks[k].alnum() {
			alnum = append(alnum, k)
		}
	}
	if len(order) != len(alnum) {
		return false
	}
	for i, r := range order {
		if r.initial || r.k != alnum[i] {
			return false
		}
	}
	return true
}

// groupRef writes a reference to capture group g; braces keep a letter or
// digit after it from being read as part of the group's name.
func groupRef(g int, glued bool) string {
	if glued {
		return "${" + strconv.Itoa(g) + "}"
	}
	return "$" + strconv.Itoa(g)
}

func startsWord(p piece) bool {
	if p.atom != nil {
		return true
	}
	r := []rune(p.lit)
	return len(r) > 0 && (isAlnum(r[0]) || r[0] == '_')
}

func atomIndex(atoms []atom, a *atom) int {
	for i := range atoms {
		if &atoms[i] == a {
			return i
		}
	}
	panic("synth: atom not in list")
}

// tokenPattern writes the pattern for tokens [a, b): separators literally,
// letters and digits by class, capturing what the replacement uses. It
// returns, for each used token reference, the groups that spell it.
func tokenPattern(toks []token, a, b int, used map[tokRef]bool) (string, map[tokRef][]int) {
	var p strings.Builder
	groups := map[tokRef][]int{}
	g := 0
	if a == 0 {
		p.WriteByte('^')
	}
	for k := a; k < b; k++ {
		tk := toks[k]
		if !tk.alnum() {
			p.WriteString(regexp.QuoteMeta(tk.text))
			continue
		}
		cls := "[0-9]"
		if tk.kind == kLetter {
			cls = `\pL`
		}
		whole, init := used[tokRef{k: k}], used[tokRef{k: k, initial: true}]
		switch {
		case whole && init:
			p.WriteString("(" + cls + ")(" + cls + "*)")
			groups[tokRef{k: k, initial: true}] = []int{g + 1}
			groups[tokRef{k: k}] = []int{g + 1, g + 2}
			g += 2
		case init:
			p.WriteString("(" + cls + ")" + cls + "*")
			g++
			groups[tokRef{k: k, initial: true}] = []int{g}
		case whole:
			p.WriteString("(" + cls + "+)")
			g++
			groups[tokRef{k: k}] = []int{g}
		default:
			p.WriteString(cls + "+")
		}
	}
	if b == len(toks) {
		p.WriteByte('$')
	}
	return p.String(), groups
}
