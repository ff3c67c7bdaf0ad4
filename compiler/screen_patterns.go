package compiler

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/compiler/internal/synth"
	"github.com/cogflow/cogflow/lang/ast"
)

// weakPattern reports whether a regex of program e finds its match in
// text by nothing but where the text happens to put it: a pattern whose
// only literal context outside the group is white space, with no anchor
// ("first word after a space"), or a bare class with more than one match
// in the text. In a short value such a pattern is fine; in an instruction
// or a paragraph that changes between instances it is a coincidence.
func weakPattern(e ast.Expr, text, value string) bool {
	// The text holds the value more than once: a context of punctuation
	// ("after a comma") says which only by chance; quotes, brackets, words
	// or an anchor say it.
	repeated := strings.Count(text, value) > 1
	weak := false
	ast.Inspect(e, func(n ast.Expr) bool {
		c, ok := n.(*ast.Call)
		if !ok || c.CalleeName() != "regex" || len(c.Args) != 2 {
			return true
		}
		lit, ok := c.Args[0].Value.(*ast.StringLit)
		if !ok {
			return true
		}
		re, err := syntax.Parse(lit.Value, syntax.Perl)
		if err != nil {
			return true
		}
		anchored, context, letters, paired, group := false, false, false, false, false
		var walk func(r *syntax.Regexp, inGroup bool)
		walk = func(r *syntax.Regexp, inGroup bool) {
			switch r.Op {
			case syntax.OpBeginText, syntax.OpEndText, syntax.OpBeginLine, syntax.OpEndLine:
				anchored = true
			case syntax.OpLiteral:
				lit := string(r.Rune)
				if !inGroup && strings.TrimFunc(lit, unicode.IsSpace) != "" {
					context = true
				}
				if !inGroup && strings.ContainsFunc(lit, unicode.IsLetter) {
					letters = true
				}
				if !inGroup && strings.ContainsAny(lit, `"'()[]{}«»“”‘’<>`) {
					paired = true
				}
			case syntax.OpCapture:
				group = true
				inGroup = true
			}
			for _, s := range r.Sub {
				walk(s, inGroup)
			}
		}
		walk(re, false)
		switch {
		case repeated && !anchored && !letters && !paired:
			weak = true
		case anchored || context:
		case group:
			weak = true
		default:
			if rx, err := regexp.Compile(lit.Value); err == nil && len(rx.FindAllStringIndex(text, 2)) > 1 {
				weak = true
			}
		}
		return true
	})
	return weak
}

// numberPattern finds the numbers a page writes: a sign, digits, and
// groups or decimals after a comma or a point.
const numberPattern = `-?[0-9]+(?:[.,][0-9]+)*`

var numberRE = regexp.MustCompile(numberPattern)

// numbersFamily: arithmetic over the numbers a text shows ("What is 17
// plus 25?" → 42): each number is a source, regex_all(numbers, text)[k],
// and synth's arithmetic family combines them.
func numbersFamily(text, value string) ast.Expr {
	if !numeric(value) {
		return nil
	}
	nums := numberRE.FindAllString(text, 6)
	if len(nums) == 0 {
		return nil
	}
	comma := decimalComma(nums)
	var srcs []synth.Source
	for k, n := range nums {
		if comma { // synthesized over the numbers' values, read back with parse_number(x, ",")
			n = strings.ReplaceAll(strings.ReplaceAll(n, ".", ""), ",", ".")
		}
		srcs = append(srcs, synth.Source{Name: numberRef(k), Value: n})
	}
	p, ok := synth.Synthesize(value, srcs, synth.Options{Families: []string{"arithmetic"}})
	if !ok || constantOperand(p.Expr) {
		return nil
	}
	e := p.Expr
	if comma {
		e = rewrite(e, func(x ast.Expr) (ast.Expr, bool) {
			if c, ok := x.(*ast.Call); ok && c.CalleeName() == "parse_number" && len(c.Args) == 1 {
				c.Args = append(c.Args, &ast.Arg{Value: str(",")})
			}
			return nil, false
		})
	}
	for k := range nums {
		e = substRef(e, numberRef(k), &ast.Index{X: call("regex_all", str(numberPattern), ref(screenRef)), Index: num(k)})
	}
	if got, ok := evalScreen(e, text); !ok || got != value {
		return nil // the library reads the page's numbers otherwise (no decimal mark argument)
	}
	return e
}

// constantOperand reports whether an operator of the program takes a number
// literal: on a screen with a few numbers, almost any value is one of them
// plus or times a small constant ("between 0-9" and 4 is 0 + 4), so only
// arithmetic among the numbers the screen shows is evidence.
func constantOperand(e ast.Expr) bool {
	found := false
	rewrite(e, func(x ast.Expr) (ast.Expr, bool) {
		if b, ok := x.(*ast.Binary); ok {
			_, lx := b.X.(*ast.NumberLit)
			_, ly := b.Y.(*ast.NumberLit)
			found = found || lx || ly
		}
		return nil, false
	})
	return found
}

// decimalComma reports whether a page writes numbers with a decimal comma
// ("1.234,5", "12,50"): some number has a comma followed by one or two
// digits at its end, or points grouping thousands before a comma.
func decimalComma(nums []string) bool {
	for _, n := range nums {
		if decimalCommaRE.MatchString(n) {
			return true
		}
	}
	return false
}

var decimalCommaRE = regexp.MustCompile(`^-?(?:[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]+|[0-9]+,[0-9]{1,2})$`)

func numberRef(k int) string { return "screen_number_" + string(rune('a'+k)) }
