package synth

import (
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
)

// atom is a piece of a concatenation computed from the sources: a source's
// value, its value in another case, or a part extracted from it.
type atom struct {
	expr  ast.Expr
	value []rune
	pen   int
	num   bool // the expression is a number, not text
	free  bool // may match inside a token of the target (an initial)
}

// concatFamily: the target is made of source-derived pieces and constant
// text, as op2 + " - " + keyword or format("%s (%s): %s", a, b, c). A
// piece is a whole source value (in any case) or, combining families, a
// token of the target extracted from a source by a cheap program.
func concatFamily(s *search, ins []input) {
	// Numbers are computed first; words are extracted only when the
	// target cannot be written without them.
	atoms := baseAtoms(ins, s.target)
	atoms = append(atoms, tokenAtoms(s, ins, atoms, true)...)
	pieces, ok := segment([]rune(s.target), atoms)
	if !ok {
		atoms = append(atoms, tokenAtoms(s, ins, atoms, false)...)
		if pieces, ok = segment([]rune(s.target), atoms); !ok {
			return
		}
	}
	pen := 0
	for _, p := range pieces {
		if p.atom != nil {
			pen += p.atom.pen
		}
	}
	if len(pieces) <= 3 && !(pieces[0].isNum() && pieces[1].isNum()) {
		if p := s.add(plusChain(pieces), pen, 0); p != nil && s.verify(p) {
			return
		}
	}
	s.add(formatCall(pieces), pen, 1)
}

// baseAtoms returns the sources' values, in any case, that occur in the
// target.
func baseAtoms(ins []input, target string) []atom {
	var atoms []atom
	folded := strings.ToLower(target)
	for _, in := range ins {
		if strings.Contains(target, in.value) {
			atoms = append(atoms, atom{expr: in.expr, value: []rune(in.value)})
		}
		if !strings.Contains(folded, strings.ToLower(in.value)) {
			continue
		}
		for _, fn := range []string{"upper", "lower", "title"} {
			if v := caseOf(fn, in.value); v != in.value && strings.Contains(target, v) {
				atoms = append(atoms, atom{expr: call(fn, in.expr), value: []rune(v)})
			}
		}
	}
	return atoms
}

// caseOf applies a case function as the library does (programs using it
// are verified with the library itself).
func caseOf(fn, v string) string {
	switch fn {
	case "upper":
		return strings.ToUpper(v)
	case "lower":
		return strings.ToLower(v)
	}
	out, err := evalText(call(fn, str(v)), nil)
	if err != nil {
		return v
	}
	return out
}

// maxAtomCost bounds the cost of a program computing one piece.
const maxAtomCost = 4

// maxTokenAtoms bounds the sub-searches one concatenation starts.
const maxTokenAtoms = 6

// tokenAtoms finds, for each token of the target that no atom covers yet —
// the numbers, or the words — the best cheap program extracting or
// computing it from a source.
func tokenAtoms(s *search, ins []input, base []atom, numbers bool) []atom {
	var out []atom
	rs := []rune(s.target)
	covered := coverage(rs, base)
	seen := map[string]bool{}
	for _, tk := range valueTokens(s.target) {
		if len(out) >= maxTokenAtoms || seen[tk.text] || covered[tk.start] || (tk.kind == kDigit) != numbers ||
			tk.text == s.target {
			continue
		}
		seen[tk.text] = true
		if !inAnySource(tk.text, ins) && tk.kind != kDigit {
			continue
		}
		sub := s.sub(tk.text)
		best := sub.runNamed(ins, "regex", "split", "substr", "arithmetic")
		if best == nil || best.Cost > maxAtomCost {
			continue
		}
		v, err := eval(best.Expr, s.env)
		out = append(out, atom{expr: best.Expr, value: []rune(tk.text), pen: best.Penalty,
			num: err == nil && v.Type() == cty.Number})
	}
	return out
}

func inAnySource(t string, ins []input) bool {
	for _, in := range ins {
		if strings.Contains(in.value, t) {
			return true
		}
	}
	return false
}

// coverage marks the target positions inside an occurrence of an atom.
func coverage(rs []rune, atoms []atom) []bool {
	c := make([]bool, len(rs)+1)
	for ai := range atoms {
		a := &atoms[ai]
		for _, at := range runeIndex(rs, a.value, 0) {
			if !fits(rs, a, at) {
				continue
			}
			for i := at; i < at+len(a.value); i++ {
				c[i] = true
			}
		}
	}
	return c
}

// valueTokens splits text into the tokens a person would compute as one
// value: words, and numbers with their "." and "," separators.
func valueTokens(s string) []token {
	var out []token
	for _, t := range tokenize(s) {
		n := len(out)
		if t.kind == kDigit && n >= 2 && out[n-2].kind == kDigit &&
			(out[n-1].text == "." || out[n-1].text == ",") {
			// 1,234.50: digits, one separator, digits
			out[n-2] = token{text: out[n-2].text + out[n-1].text + t.text, start: out[n-2].start, end: t.end, kind: kDigit}
			out = out[:n-1]
			continue
		}
		out = append(out, t)
	}
	var alnum []token
	for _, t := range out {
		if t.alnum() {
			alnum = append(alnum, t)
		}
	}
	return alnum
}

// piece is a constant text or an atom.
type piece struct {
	lit  string
	atom *atom
}

func (p piece) isNum() bool { return p.atom != nil && p.atom.num }

func (p piece) expr() ast.Expr {
	if p.atom != nil {
		return p.atom.expr
	}
	return str(p.lit)
}

func plusChain(pieces []piece) ast.Expr {
	e := pieces[0].expr()
	for _, p := range pieces[1:] {
		e = bin("+", e, p.expr())
	}
	return e
}

func formatCall(pieces []piece) ast.Expr {
	var f strings.Builder
	var args []ast.Expr
	for _, p := range pieces {
		if p.atom == nil {
			f.WriteString(strings.ReplaceAll(p.lit, "%", "%%"))
			continue
		}
		f.WriteString("%s")
		args = append(args, p.atom.expr)
	}
	return call("format", append([]ast.Expr{str(f.String())}, args...)...)
}
