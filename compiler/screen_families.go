package compiler

import (
	"github.com/cogflow/cogflow/lang/printer"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/compiler/internal/synth"
	"github.com/cogflow/cogflow/lang/ast"
)

// The families of screen programs that need more than the string programs
// of compiler/internal/synth: a time reformatted into what the field accepts, the
// n-th word of a text with n read from the instruction, a table looked up
// by a key the instruction names. Each program is checked on the
// demonstration's screen before it is written.

// screenFamilies tries the families that remain when no string program
// fits (programFrom tries the n-th word, times and dates before them).
func (c *compiler) screenFamilies(src screenSource, value string) ast.Expr {
	if src.area != "instruction" {
		return nil // the words around a value in a paragraph are content, not phrasing
	}
	return contextFamily(src.text, value)
}

// evalScreen evaluates a program over the screen text with the function
// library, as the run will.
func evalScreen(e ast.Expr, text string) (string, bool) {
	got, err := (&synth.Program{Expr: e}).Eval(map[string]string{screenRef: text})
	return got, err == nil
}

// contextFamily: regex("into the (.+?) field", text), the value found
// between the words around it in the text ("Enter … into", "the word …
// and"): one or two literal words on each side, the value itself any text
// (lazily, so the right context ends it) or, at the end of the text,
// everything up to the closing punctuation. The words are the instruction's
// fixed phrasing; the value never appears in the pattern.
func contextFamily(text, value string) ast.Expr {
	at := strings.Index(text, value)
	if at < 0 || strings.TrimSpace(value) != value {
		return nil
	}
	left, right := text[:at], text[at+len(value):]
	for _, nl := range []int{1, 2, 3} {
		l := lastWords(left, nl)
		if l == "" || !strings.ContainsFunc(l, unicode.IsLetter) {
			continue
		}
		for _, nr := range []int{1, 2, 0} {
			var pat string
			if nr == 0 {
				tail := strings.TrimRightFunc(right, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
				if tail != "" {
					continue
				}
				pat = regexp.QuoteMeta(l) + `(.+?)` + regexp.QuoteMeta(right) + "$"
			} else {
				r := firstWords(right, nr)
				if r == "" || !strings.ContainsFunc(r, unicode.IsLetter) {
					continue
				}
				pat = regexp.QuoteMeta(l) + `(.+?)` + regexp.QuoteMeta(r)
			}
			e := call("regex", str(pat), ref(screenRef))
			if got, ok := evalScreen(e, text); ok && got == value {
				return e
			}
		}
	}
	return nil
}

// lastWords returns the end of s holding its last n words and the
// separator after them ("the value of " for n = 3).
func lastWords(s string, n int) string {
	i, seen := len(s), 0
	for i > 0 && seen < n {
		for i > 0 && s[i-1] == ' ' {
			i--
		}
		if i == 0 {
			break
		}
		for i > 0 && s[i-1] != ' ' {
			i--
		}
		seen++
	}
	if seen < n {
		return ""
	}
	return s[i:]
}

// firstWords returns the start of s up to the end of its first n words.
func firstWords(s string, n int) string {
	i, seen := 0, 0
	for i < len(s) && seen < n {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i == len(s) {
			break
		}
		for i < len(s) && s[i] != ' ' {
			i++
		}
		seen++
	}
	if seen < n {
		return ""
	}
	return s[:i]
}

var clockTime = regexp.MustCompile(`\b([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?(?:( ?)([AaPp])\.?([Mm])\.?)?`)

// timeFamily: reformat_date(regex(time, text), from, to), a time of day
// the page writes one way ("8:22 AM") typed the way the field takes it
// ("08:22"); both layouts are read from the demonstrated pair.
func timeFamily(text, value string) ast.Expr {
	v := clockTime.FindStringSubmatch(value)
	if v == nil || v[0] != strings.TrimSpace(value) {
		return nil
	}
	tos := []string{timeLayout(v)}
	if len(v[1]) == 2 && v[1][0] != '0' { // "18" is HH or H alike: HH first
		h := tos[0][:1]
		tos = append(tos, strings.Replace(tos[0], h+h, h, 1))
	}
	for _, m := range clockTime.FindAllStringSubmatch(text, 4) {
		from := timeLayout(m)
		pat := `[0-9]{1,2}:[0-9]{2}`
		if m[3] != "" {
			pat += `:[0-9]{2}`
		}
		if m[5] != "" {
			pat += ` ?[AaPp]\.?[Mm]\.?`
		}
		for _, to := range tos {
			if from == to {
				continue
			}
			e := call("reformat_date", call("regex", str(pat), ref(screenRef)), str(from), str(to))
			if got, ok := evalScreen(e, text); ok && got == value {
				return e
			}
		}
	}
	return nil
}

// timeLayout writes the layout of a clock time match: h or hh (12-hour),
// H or HH, :mm, :ss, and a with or without a space.
func timeLayout(m []string) string {
	h := "H"
	if m[5] != "" {
		h = "h"
	}
	if len(m[1]) == 2 {
		h += h // "08" is HH; "18" may be H too (timeFamily tries it)
	}
	l := h + ":mm"
	if m[3] != "" {
		l += ":ss"
	}
	if m[5] != "" {
		l += m[4] + "a"
	}
	return l
}

// ordinalPhrase finds "the 3rd word", "the last word", "the second to last
// line" in an instruction.
var ordinalPhrase = regexp.MustCompile(`(?i)\b([0-9]+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)((?: to last)?) (word|line)\b`)

var ordinals = map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
	"seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}

// nthWordFamily: nth(words(text), parse_ordinal(regex(...))), the n-th
// word of a text (a paragraph, a text area) where the instruction above
// says which: the value is that word, and n is read from the instruction
// on every run.
func (c *compiler) nthWordFamily(src screenSource, value string) ast.Expr {
	if strings.ContainsAny(value, " \t\n") {
		return nil
	}
	ws := plainWords(src.text)
	for _, el := range src.x.innermost(src.x.words["word"]) {
		t := src.x.texts[el]
		if el == src.el {
			continue
		}
		m := ordinalPhrase.FindStringSubmatch(t)
		if m == nil || strings.ToLower(m[3]) != "word" {
			continue
		}
		n, ok := ordinalValue(m[1], m[2] != "")
		if !ok || nthOf(ws, n) != value {
			continue
		}
		d, _ := sourceDesc(c.tr, src.x, el)
		if d == nil {
			continue
		}
		pat := `(?i)\b([0-9]+(?:st|nd|rd|th)|[a-z]+(?: to last)?) ` + m[3] + `\b`
		mk := func(instr ast.Expr) ast.Expr {
			return call("nth", call("words", ref(screenRef)), call("parse_ordinal", call("regex", str(pat), instr)))
		}
		const instrRef = "instruction_text"
		probe := mk(ref(instrRef))
		got, err := (&synth.Program{Expr: probe}).Eval(map[string]string{screenRef: src.text, instrRef: t})
		if err == nil && got == value {
			return mk(&ast.Member{X: d.Expr(), Name: ast.Ident{Name: src.x.member[el]}})
		}
	}
	return nil
}

// plainWords splits a text as words() does: on white space, with the
// punctuation at both ends of each word trimmed.
func plainWords(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		if w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }); w != "" {
			out = append(out, w)
		}
	}
	return out
}

func ordinalValue(word string, toLast bool) (int, bool) {
	w := strings.ToLower(word)
	n, ok := ordinals[w]
	if !ok {
		digits := strings.TrimRight(w, "stndrh")
		v, err := strconv.Atoi(digits)
		if err != nil {
			return 0, false
		}
		n, ok = v, true
	}
	if toLast {
		if n < 1 {
			return 0, false
		}
		n = -n
	}
	return n, ok
}

func nthOf(ws []string, n int) string {
	switch {
	case n > 0 && n <= len(ws):
		return ws[n-1]
	case n < 0 && -n <= len(ws):
		return ws[len(ws)+n]
	}
	return ""
}

// substRef returns e with every reference to name replaced by with (e
// itself is changed; the program is the compiler's own copy).
func substRef(e ast.Expr, name string, with ast.Expr) ast.Expr {
	return rewrite(e, func(x ast.Expr) (ast.Expr, bool) {
		if r, ok := x.(*ast.Ref); ok && r.Name == name {
			return with, true
		}
		return nil, false
	})
}

// rewrite replaces, bottom up in place, every node fn gives a replacement
// for (the root included) and returns the result.
func rewrite(e ast.Expr, fn func(ast.Expr) (ast.Expr, bool)) ast.Expr {
	if e == nil {
		return nil
	}
	if r, ok := fn(e); ok {
		return r
	}
	switch n := e.(type) {
	case *ast.Call:
		for _, a := range n.Args {
			a.Value = rewrite(a.Value, fn)
		}
	case *ast.Member:
		n.X = rewrite(n.X, fn)
	case *ast.Index:
		n.X, n.Index = rewrite(n.X, fn), rewrite(n.Index, fn)
	case *ast.Slice:
		n.X, n.Lo, n.Hi = rewrite(n.X, fn), rewrite(n.Lo, fn), rewrite(n.Hi, fn)
	case *ast.Unary:
		n.X = rewrite(n.X, fn)
	case *ast.Binary:
		n.X, n.Y = rewrite(n.X, fn), rewrite(n.Y, fn)
	case *ast.Paren:
		n.X = rewrite(n.X, fn)
	case *ast.ListLit:
		for k := range n.Elems {
			n.Elems[k] = rewrite(n.Elems[k], fn)
		}
	}
	return e
}

// searchList finds a written enumeration of values ("Select A, B and C")
// in the instruction area and returns split_list(regex(...)) over it:
// the values in the order the screen names them (the demonstration may
// have acted on them in another order; they are compared as a set).
func (c *compiler) searchList(i int, values []string, ev *Evidence) ast.Expr {
	in := c.infos[i]
	for _, id := range c.snapshotsBefore(i) {
		x := c.screenIndexOf(id)
		if x == nil {
			continue
		}
		for _, src := range c.screenSources(x, in, values[0]) {
			if src.area != "instruction" {
				continue
			}
			lo, hi := len(src.text), -1
			for _, v := range values {
				at := strings.Index(src.text, v)
				if at < 0 {
					lo = -1
					break
				}
				lo, hi = min(lo, at), max(hi, at+len(v))
			}
			if lo < 0 || hi <= lo {
				continue
			}
			ev.Found = append(ev.Found, src.where)
			span := src.text[lo:hi]
			var inner ast.Expr
			if p, ok := synth.Synthesize(span, []synth.Source{{Name: screenRef, Value: src.text}}, synth.Options{Families: []string{"regex"}}); ok && !weakPattern(p.Expr, src.text, span) {
				inner = p.Expr
			} else if inner = contextFamily(src.text, span); inner == nil {
				continue
			}
			e := call("split_list", inner)
			got, err := (&synth.Program{Expr: e}).EvalList(map[string]string{screenRef: src.text})
			if err != nil || !sameSet(got, values) {
				continue
			}
			ev.Consistent = append(ev.Consistent, printer.ExprString(e))
			ev.Why = "the enumeration in the instruction area names exactly the values acted on"
			return substRef(e, screenRef, src.expr)
		}
	}
	if ev.Why == "" {
		ev.Why = "no enumeration of the values in the instruction area"
	}
	return nil
}

// sameSet reports whether a and b hold the same texts, in any order.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	n := map[string]int{}
	for _, s := range a {
		n[s]++
	}
	for _, s := range b {
		n[s]--
		if n[s] < 0 {
			return false
		}
	}
	return true
}

// lookupFamily: lookup(table(...), key), the value is a table cell and the
// first cell of its row — its key — is named in the instruction area
// ("Enter the value of Gender"): the key is read from there (by the
// simplest program with evidence) and the table looked up by it on every
// run.
func (c *compiler) lookupFamily(src screenSource, value string, in *info) ast.Expr {
	s := src.x.snap
	cell := s.Elements[src.el].Cell
	if cell == nil || cell.Column <= 0 || cell.Table == "" {
		return nil
	}
	key := ""
	for k := range s.Elements {
		if e := &s.Elements[k]; e.Cell != nil && e.Cell.Table == cell.Table && e.Cell.Row == cell.Row && e.Cell.Column == 0 {
			key = src.x.texts[k]
			break
		}
	}
	if key == "" || key == value {
		return nil
	}
	// The first cell holding key must be the row's: lookup takes the first.
	for k := range s.Elements {
		if e := &s.Elements[k]; e.Cell != nil && e.Cell.Table == cell.Table && e.Cell.Column >= 0 && src.x.texts[k] == key {
			if e.Cell.Row != cell.Row || e.Cell.Column != 0 {
				return nil
			}
			break
		}
	}
	table := containerDesc(c.tr, cell.Table, src.x.id)
	if table == nil || !table.Unique {
		return nil
	}
	for _, ks := range c.screenSources(src.x, in, key) {
		if ks.area != "instruction" {
			continue
		}
		kp, why := c.programFrom(ks, key, src.x, in)
		if kp == nil || why != "" {
			continue
		}
		return call("lookup", table.Expr(), kp)
	}
	return nil
}
