package synth

import (
	"slices"
	"strconv"

	"github.com/cogflow/cogflow/lang/ast"
)

// Helpers that build expressions the way a person would write them. The
// nodes carry no source range: the compiler places them in a step.

func ref(name string) *ast.Ref { return &ast.Ref{Ident: ast.Ident{Name: name}} }

func str(s string) *ast.StringLit { return &ast.StringLit{Value: s} }

// num writes an integer literal; a negative one is the unary minus of its
// magnitude, as the language spells it.
func num(n int) ast.Expr {
	if n < 0 {
		return &ast.Unary{Op: "-", X: &ast.NumberLit{Raw: strconv.Itoa(-n)}}
	}
	return &ast.NumberLit{Raw: strconv.Itoa(n)}
}

// numRaw writes a non-negative decimal literal as given ("1.19").
func numRaw(raw string) ast.Expr {
	if len(raw) > 0 && raw[0] == '-' {
		return &ast.Unary{Op: "-", X: &ast.NumberLit{Raw: raw[1:]}}
	}
	return &ast.NumberLit{Raw: raw}
}

func call(fn string, args ...ast.Expr) *ast.Call {
	c := &ast.Call{Fun: ref(fn)}
	for _, a := range args {
		c.Args = append(c.Args, &ast.Arg{Value: a})
	}
	return c
}

func bin(op string, x, y ast.Expr) *ast.Binary { return &ast.Binary{Op: op, X: x, Y: y} }

func index(x ast.Expr, i int) *ast.Index { return &ast.Index{X: x, Index: num(i)} }

// metrics are the facts about an expression the ranking uses.
type metrics struct {
	cost      int // operations
	constants int // literals
	size      int // characters of literals
	refs      []string
}

func measure(e ast.Expr) metrics {
	var m metrics
	m.walk(e)
	return m
}

// walk counts e and its operands. It is written out rather than built on
// ast.Inspect because a call's callee is a name, not a reference.
func (m *metrics) walk(e ast.Expr) {
	switch x := e.(type) {
	case *ast.Call:
		m.cost++
		for _, a := range x.Args {
			m.walk(a.Value)
		}
	case *ast.Binary:
		m.cost++
		m.walk(x.X)
		m.walk(x.Y)
	case *ast.Index:
		m.cost++
		m.walk(x.X)
		m.walk(x.Index)
	case *ast.Unary:
		if _, lit := x.X.(*ast.NumberLit); !lit {
			m.cost++ // -4 is a constant, -n an operation
		}
		m.walk(x.X)
	case *ast.Paren:
		m.walk(x.X)
	case *ast.StringLit:
		m.constants++
		m.size += len(x.Value)
	case *ast.NumberLit:
		m.constants++
		m.size += len(x.Raw)
	case *ast.Ref:
		if !slices.Contains(m.refs, x.Name) {
			m.refs = append(m.refs, x.Name)
		}
	}
}

func refsOf(e ast.Expr) []string { return measure(e).refs }
