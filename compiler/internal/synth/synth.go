// Package synth is stage 4 of the compiler, string-program synthesis: when a
// text the user typed during the demonstration can be computed exactly from
// earlier values (a step's result or an input), it finds the workflow
// expression that computes it — replace(op2, ".txt", ".md"),
// regex("[0-9]+", op3), op2 + " - " + keyword, parse_number(op4) * 2 — so
// that the compiled workflow calls a function instead of asking an LLM.
//
// Synthesis is enumerative and example-driven. Each family of programs
// proposes candidates for the one demonstrated pair of source values and
// typed output. Candidates are screened on the demonstration's values
// (with compiled patterns kept between calls), and a program is returned
// only after the real function library (stdlib/funcs) has evaluated it and
// reproduced the output exactly. Program.Eval runs a program on new values
// with that library.
//
// # Families
//
// In order of simplicity:
//
//	identity       keyword
//	case           upper(keyword), lower(op2), title(op2)
//	trim           trimspace(op2), trim(op2, "[]"), trim_prefix(op2, "Re: ")
//	replace        replace(op2, ".txt", ".md"), replace(op2, ";", ", ")
//	concat         op2 + " - " + keyword, format("%s (%s)", a, b)
//	substr         substr(op2, 0, 4), substr(op2, -6, -1)
//	regex          regex("[0-9]+", op2), regex("\\(([^)]+)\\)", op2), e-mail, URL
//	regex_replace  regex_replace(op2, "[^0-9]", ""), regex_replace(op2, "^(\\pL)\\pL*", "$1.")
//	split          split(",", op2)[2]
//	arithmetic     parse_number(op3) * 2, parse_number(a) + parse_number(b),
//	               format_number(parse_number(op3), 2)
//	combination    upper(regex("\\pL+$", op2)), lower(trimspace(op2))
//
// A concatenation's pieces may themselves be computed by the extraction and
// arithmetic families ("Total: " + format_number(parse_number(op2) *
// parse_number(op3), 2) + " EUR"), and a combination is two families one
// after the other; both are bounded by Options.MaxCost.
//
// # Ranking
//
// One demonstration usually fits several programs. They are ordered by
//
//  1. Cost: the number of operations (calls, operators, indexes); a
//     negative number literal is a constant, not an operation.
//  2. Penalty: how specific to the demonstration the program is. A whole
//     word of content used as a search string ("John" in
//     replace(op, "John", "J.")), content carried into a replacement, a
//     substring at a fixed offset, a middle field of a split, a label word
//     in a pattern, a constant added or a fractional factor: each adds to
//     it. Character classes, delimiters and labels glued to punctuation
//     (".txt", "Re: ") add nothing.
//  3. Constants: the number of literals.
//  4. Family, in the order above.
//  5. Priority within a family: an e-mail or URL shape before a class
//     pattern, a class pattern before one with context, a broad class before
//     a narrow one; for a combination, the order of its inner family first.
//  6. Size: the total length of the literals, so the shortest pattern or
//     context wins.
//  7. Enumeration order, and so the order of the sources: a caller lists
//     the sources it prefers first.
//
// Some programs are never proposed, because they fit the demonstration by
// coincidence rather than compute the text: a program that reads no source
// (a constant is not a dependency); a literal that spells out a source's
// value; an edit or concatenation whose own text dwarfs what it takes from
// the sources; a replace of part of a word or of the whole value; a changed
// number written as a text edit (replace(op, "12.", "2")) rather than as
// arithmetic; a substring cut at a fixed offset inside words; arithmetic
// with a constant outside the everyday ones (2, 10, 100, 1.19, 0.5, +1,
// ...) or shown rounded other than by a division.
//
// So "report.txt" → "report.md" gives replace(op2, ".txt", ".md"), never a
// constant, and "John Smith" → "J. Smith" gives
// regex_replace(op2, "^(\\pL)\\pL*", "$1.") rather than a replace of the
// word "John" or substrings at fixed offsets.
package synth

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

// Source is a value available before the typed text: an input of the task
// or the result of an earlier step, with its value in the demonstration.
type Source struct {
	Name  string // the name a workflow refers to it by: "op2", "keyword"
	Value string
}

// Options tune a synthesis. The zero value is ready to use.
type Options struct {
	// MaxCost bounds the number of operations of a program; 0 means
	// the default, 6 (defaultMaxCost).
	MaxCost int
	// Families restricts the search to the named families (see the
	// package comment);
	// empty means all of them. A concatenation or combination, when
	// allowed, still uses the families it is made of.
	Families []string
}

// defaultMaxCost is the operation budget when Options.MaxCost is 0.
const defaultMaxCost = 6

// Program is a synthesized expression with the facts it was ranked by.
type Program struct {
	// Expr computes the output; sources appear in it as *ast.Ref.
	Expr ast.Expr
	// Family names the family that produced it (see the package comment).
	Family string
	// Parts lists the families a combination is made of, in the order they
	// apply: ["trim", "case"] for lower(trimspace(op2)).
	Parts []string
	// Cost is the number of operations.
	Cost int
	// Penalty measures how specific the program is to the demonstration.
	Penalty int
	// Constants is the number of literals.
	Constants int

	famIdx, prio, size, seq int
	text                    string
	verified                bool
}

// String renders the expression in canonical form.
func (p *Program) String() string { return p.text }

// Refs returns the names of the sources the program reads, in order of
// first use.
func (p *Program) Refs() []string { return refsOf(p.Expr) }

// Synthesize returns the best program that computes output from the
// sources' values (see the package comment for the ranking), or false when
// no family fits or the output is empty.
func Synthesize(output string, sources []Source, opts Options) (*Program, bool) {
	s := newSearch(output, sources, opts, false)
	if s == nil {
		return nil, false
	}
	s.run()
	if b := s.best(); b != nil {
		return b, true
	}
	return nil, false
}

// allCandidates returns every verified program that computes output, best
// first. It searches every family in full, so it is slower than
// Synthesize; it serves to show alternatives and to test the ranking.
func allCandidates(output string, sources []Source, opts Options) []*Program {
	s := newSearch(output, sources, opts, true)
	if s == nil {
		return nil
	}
	s.run()
	out := s.verifiedCands()
	sort.SliceStable(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}

// less orders programs by the ranking of the package comment.
func less(a, b *Program) bool {
	ka := [...]int{a.Cost, a.Penalty, a.Constants, a.famIdx, a.prio, a.size, a.seq}
	kb := [...]int{b.Cost, b.Penalty, b.Constants, b.famIdx, b.prio, b.size, b.seq}
	for i := range ka {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return false
}

// input is a value a family works on: a source (a Ref) or, inside a
// combination, an expression over one.
type input struct {
	expr  ast.Expr
	value string
}

// search holds one synthesis: the target text, the demonstration's values
// and the verified candidates.
type search struct {
	target  string
	env     map[string]cty.Value
	inputs  []input
	opts    Options
	all     bool
	allowed map[string]bool
	cands   []*Program
	seen    map[string]bool
	seq     *int

	// set by the family being run
	fam    *family
	famIdx int
	parts  []string
}

func newSearch(output string, sources []Source, opts Options, all bool) *search {
	if output == "" {
		return nil
	}
	if opts.MaxCost <= 0 {
		opts.MaxCost = defaultMaxCost
	}
	s := &search{target: output, env: map[string]cty.Value{}, opts: opts, all: all,
		seen: map[string]bool{}, seq: new(int)}
	for _, src := range sources {
		if src.Name == "" || src.Value == "" {
			continue
		}
		if _, dup := s.env[src.Name]; dup {
			continue
		}
		s.env[src.Name] = cty.StringVal(src.Value)
		s.inputs = append(s.inputs, input{expr: ref(src.Name), value: src.Value})
	}
	if len(s.inputs) == 0 {
		return nil
	}
	if len(opts.Families) > 0 {
		s.allowed = map[string]bool{}
		for _, f := range opts.Families {
			s.allowed[f] = true
		}
	}
	return s
}

// sub starts a search for another target over the same values, as
// concatenation and combinations do for the parts they are made of.
func (s *search) sub(target string) *search {
	return &search{target: target, env: s.env, inputs: s.inputs, opts: s.opts,
		seen: map[string]bool{}, seq: s.seq}
}

// run tries the families in order. Unless every candidate is wanted, a
// family that cannot beat the best program's cost is skipped.
func (s *search) run() {
	for i := range families {
		f := &families[i]
		if s.allowed != nil && !s.allowed[f.name] {
			continue
		}
		s.runFamily(i, s.inputs)
	}
}

func (s *search) runFamily(i int, ins []input) {
	f := &families[i]
	if f.minCost > s.opts.MaxCost {
		return
	}
	if b := s.best(); !s.all && b != nil && b.Cost < f.minCost {
		return
	}
	s.fam, s.famIdx = f, i
	if f.multi != nil {
		f.multi(s, ins)
		return
	}
	for _, in := range ins {
		f.unary(s, in)
	}
}

// runNamed runs the named families on ins and returns the best program
// found, if any.
func (s *search) runNamed(ins []input, names ...string) *Program {
	for _, n := range names {
		s.runFamily(familyIndex(n), ins)
	}
	return s.best()
}

// best returns the best verified candidate, or nil. Candidates are
// screened when added (see screenText) and verified with the library here,
// best first, only as far as needed: most are never the best.
func (s *search) best() *Program {
	for len(s.cands) > 0 {
		bi := 0
		for i, c := range s.cands {
			if less(c, s.cands[bi]) {
				bi = i
			}
		}
		if b := s.cands[bi]; s.verify(b) {
			return b
		}
		s.cands = slices.Delete(s.cands, bi, bi+1)
	}
	return nil
}

// verify evaluates a candidate with the function library on the
// demonstration's values: the library has the last word.
func (s *search) verify(p *Program) bool {
	if !p.verified {
		got, err := evalText(p.Expr, s.env)
		p.verified = err == nil && got == s.target
	}
	return p.verified
}

// verifiedCands returns every candidate the library confirms.
func (s *search) verifiedCands() []*Program {
	var out []*Program
	for _, c := range s.cands {
		if s.verify(c) {
			out = append(out, c)
		}
	}
	return out
}

// add screens a candidate and keeps it when it reproduces the target; the
// library verifies it later (see best). pen is its specificity penalty,
// prio its priority within the family.
func (s *search) add(e ast.Expr, pen, prio int) *Program {
	text := printer.ExprString(e)
	if s.seen[text] {
		return nil
	}
	s.seen[text] = true
	m := measure(e)
	if m.cost > s.opts.MaxCost || len(m.refs) == 0 || s.spellsSource(e) {
		return nil
	}
	if got, err := screenText(e, s.env); err != nil || got != s.target {
		return nil
	}
	*s.seq++
	p := &Program{Expr: e, Family: s.fam.name, Cost: m.cost, Penalty: pen,
		Constants: m.constants, famIdx: s.famIdx, prio: prio, size: m.size,
		seq: *s.seq, text: text}
	if len(s.parts) > 0 {
		p.Family = "combination"
		p.famIdx = familyIndex("combination")
		p.prio = s.famIdx*10 + prio // the inner family's place ranks first
		for _, part := range s.parts {
			if part == "" {
				part = s.fam.name // the family that ran inside the combination
			}
			p.Parts = append(p.Parts, part)
		}
	}
	s.cands = append(s.cands, p)
	return p
}

// spellsSource reports whether a text literal of e contains the value of a
// source (of three characters or more): the program should read that
// source, not repeat its demonstrated value — replace(op2, "plan",
// "plan - Kilimanjaro") is a constant in disguise when keyword is
// "Kilimanjaro".
func (s *search) spellsSource(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(x ast.Expr) bool {
		lit, ok := x.(*ast.StringLit)
		if !ok || found {
			return !found
		}
		for _, in := range s.inputs {
			if utf8.RuneCountInString(in.value) >= 3 && strings.Contains(lit.Value, in.value) {
				found = true
			}
		}
		return true
	})
	return found
}
