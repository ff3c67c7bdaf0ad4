package synth

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// numAtom is a number read from a source: parse_number(x), or
// parse_number(regex(...)) for the first number inside a text.
type numAtom struct {
	expr ast.Expr
	val  *big.Rat
}

// numCand is an arithmetic expression with its exact value.
type numCand struct {
	expr ast.Expr
	val  *big.Rat
	pen  int
	// rounded: the value may be shown rounded. Only a division is: any
	// other number shown rounded would fit too many programs (with no
	// decimals, everything within a half of the target would).
	rounded bool
}

// constant is an everyday constant, parsed once.
type constant struct {
	raw string
	val *big.Rat
}

// constantSet holds constants in order, and by value for lookups.
type constantSet struct {
	list    []constant
	byValue map[string]constant // keyed by RatString
}

func constants(raws []string) constantSet {
	set := constantSet{byValue: map[string]constant{}}
	for _, r := range raws {
		c := constant{r, ratOf(r)}
		if _, dup := set.byValue[c.val.RatString()]; !dup {
			set.list = append(set.list, c)
			set.byValue[c.val.RatString()] = c
		}
	}
	return set
}

func (cs constantSet) lookup(v *big.Rat) (constant, bool) {
	c, ok := cs.byValue[v.RatString()]
	return c, ok
}

var (
	targetNumber = regexp.MustCompile(`^-?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.([0-9]+))?$`)
	innerNumber  = regexp.MustCompile(`-?[0-9]+(?:[.,][0-9]+)*`)
)

// Constants arithmetic may introduce. Any number is some other number plus
// a constant, so only the constants of everyday computations are tried —
// doubling, a percentage, a unit conversion, the next number — and an
// output that needs another one is not taken for arithmetic.
var (
	mulConsts = constants(func() []string {
		cs := []string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "24", "60", "100", "1000", "0.5", "0.25", "0.1", "0.01"}
		for p := 1; p <= 50; p++ {
			cs = append(cs, strings.TrimRight(strings.TrimRight(strconv.FormatFloat(1+float64(p)/100, 'f', 2, 64), "0"), "."),
				strings.TrimRight(strconv.FormatFloat(1-float64(p)/100, 'f', 2, 64), "0"))
		}
		return cs
	}())
	divConsts = constants([]string{"2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "24", "60", "100", "1000"})
	addConsts = constants([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "100", "1000"})
)

// arithmeticFamily: parse_number(op3) * 2, parse_number(a) + parse_number(b),
// format_number(parse_number(op3) * 1.19, 2): a number computed from the
// numbers in the sources, written plainly or with fixed decimals.
func arithmeticFamily(s *search, ins []input) {
	m := targetNumber.FindStringSubmatch(s.target)
	if m == nil {
		return
	}
	y := ratOf(strings.ReplaceAll(s.target, ",", ""))
	decimals := len(m[1])
	atoms := numberAtoms(ins)
	for _, c := range numberCands(atoms, y, decimals) {
		s.add(c.expr, c.pen, 0)
		s.add(call("format_number", c.expr, num(decimals)), c.pen, 1)
		if decimals > 0 {
			s.add(call("format", str("%."+strconv.Itoa(decimals)+"f"), c.expr), c.pen, 2)
		}
	}
}

func numberAtoms(ins []input) []numAtom {
	var out []numAtom
	for _, in := range ins {
		v := strings.TrimSpace(in.value)
		if targetNumber.MatchString(v) {
			out = append(out, numAtom{call("parse_number", in.expr), ratOf(strings.ReplaceAll(v, ",", ""))})
			continue
		}
		if loc := innerNumber.FindString(in.value); loc != "" {
			r := ratOf(strings.ReplaceAll(loc, ",", ""))
			if r != nil {
				e := call("parse_number", call("regex", str(innerNumber.String()), in.expr))
				out = append(out, numAtom{e, r})
			}
		}
	}
	return out
}

// numberCands returns the expressions over the numbers of the sources
// whose value, shown with the given decimals, is y: a number itself, a
// number with an everyday constant (found by inverting the operation, not
// by trying every constant), and a pair of numbers with an operator.
func numberCands(atoms []numAtom, y *big.Rat, decimals int) []numCand {
	var out []numCand
	fits := func(v *big.Rat, rounded bool) bool {
		return v.Cmp(y) == 0 || (rounded && decimals > 0 && roundsTo(v, decimals, y))
	}
	isSource := func(c *big.Rat) bool {
		for _, a := range atoms {
			if a.val.Cmp(c) == 0 {
				return true
			}
		}
		return false
	}
	withConst := func(op string, a numAtom, c constant) {
		if !isSource(c.val) {
			out = append(out, numCand{bin(op, a.expr, numRaw(c.raw)), apply(op, a.val, c.val), constPenalty(op, c.raw), op == "/"})
		}
	}
	for _, a := range atoms {
		if fits(a.val, false) {
			out = append(out, numCand{a.expr, a.val, 0, false})
		}
		if a.val.Sign() != 0 {
			if c, ok := mulConsts.lookup(quo(y, a.val)); ok {
				withConst("*", a, c)
			}
		}
		for _, c := range divConsts.list {
			if fits(quo(a.val, c.val), true) {
				withConst("/", a, c)
			}
		}
		if c, ok := addConsts.lookup(sub(y, a.val)); ok {
			withConst("+", a, c)
		}
		if c, ok := addConsts.lookup(sub(a.val, y)); ok {
			withConst("-", a, c)
		}
	}
	for i, a := range atoms {
		for _, b := range atoms[i+1:] {
			for _, p := range []numCand{
				{bin("+", a.expr, b.expr), add(a.val, b.val), 0, false},
				{bin("-", a.expr, b.expr), sub(a.val, b.val), 0, false},
				{bin("-", b.expr, a.expr), sub(b.val, a.val), 0, false},
				{bin("*", a.expr, b.expr), mul(a.val, b.val), 0, false},
				{bin("/", a.expr, b.expr), safeQuo(a.val, b.val), 0, true},
				{bin("/", b.expr, a.expr), safeQuo(b.val, a.val), 0, true},
			} {
				if p.val != nil && fits(p.val, p.rounded) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func safeQuo(a, b *big.Rat) *big.Rat {
	if b.Sign() == 0 {
		return nil
	}
	return quo(a, b)
}

// constPenalty rates an operation with a constant: doubling, halving and
// the next number are the commonest; a percentage or an added amount is
// more specific to the demonstration.
func constPenalty(op, c string) int {
	whole := !strings.Contains(c, ".")
	switch op {
	case "*", "/":
		if whole {
			return 0
		}
	case "+", "-":
		if c == "1" {
			return 0
		}
	}
	return 1
}

func ratOf(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil
	}
	return r
}

func apply(op string, a, b *big.Rat) *big.Rat {
	switch op {
	case "*":
		return mul(a, b)
	case "/":
		return quo(a, b)
	case "+":
		return add(a, b)
	}
	return sub(a, b)
}

func add(a, b *big.Rat) *big.Rat { return new(big.Rat).Add(a, b) }
func sub(a, b *big.Rat) *big.Rat { return new(big.Rat).Sub(a, b) }
func mul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }
func quo(a, b *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }

// roundsTo reports whether x shown with the given decimals (rounded half
// away from zero, as format_number does) is y.
func roundsTo(x *big.Rat, decimals int, y *big.Rat) bool {
	if x == nil || y == nil {
		return false
	}
	return x.FloatString(decimals) == y.FloatString(decimals)
}
