package printer

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// ExprString renders an expression on one line in canonical form. Trees
// built by hand (the compiler's) may lack the parentheses their structure
// needs; they are added where precedence requires them.
func ExprString(e ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, e)
	return b.String()
}

func quote(s string) string { return strconv.Quote(s) }

func writeExpr(b *strings.Builder, e ast.Expr) {
	switch e := e.(type) {
	case *ast.StringLit:
		b.WriteString(quote(e.Value))
	case *ast.NumberLit:
		b.WriteString(e.Raw)
	case *ast.BoolLit:
		b.WriteString(strconv.FormatBool(e.Value))
	case *ast.ListLit:
		b.WriteByte('[')
		for i, x := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x)
		}
		b.WriteByte(']')
	case *ast.Ref:
		b.WriteString(e.Name)
	case *ast.Member:
		writeOperand(b, e.X)
		b.WriteByte('.')
		b.WriteString(e.Name.Name)
	case *ast.Index:
		writeOperand(b, e.X)
		b.WriteByte('[')
		writeExpr(b, e.Index)
		b.WriteByte(']')
	case *ast.Slice:
		writeOperand(b, e.X)
		b.WriteByte('[')
		if e.Lo != nil {
			writeExpr(b, e.Lo)
		}
		b.WriteByte(':')
		if e.Hi != nil {
			writeExpr(b, e.Hi)
		}
		b.WriteByte(']')
	case *ast.Call:
		writeOperand(b, e.Fun)
		writeArgs(b, e.Args)
	case *ast.Dependency:
		if e.Main != nil {
			b.WriteString(e.Main.Name)
			b.WriteByte('.')
		}
		b.WriteString(e.Sub.Name)
		b.WriteByte('<')
		if e.Description != nil {
			b.WriteString(quote(e.Description.Value))
		}
		b.WriteByte('>')
		writeArgs(b, e.Inputs)
	case *ast.Unary:
		b.WriteString(e.Op)
		writeOperand(b, e.X)
	case *ast.Binary:
		p := ast.Precedence(e.Op)
		writeSide(b, e.X, p, p == 3)
		b.WriteString(" " + e.Op + " ")
		writeSide(b, e.Y, p, true)
	case *ast.Paren:
		b.WriteByte('(')
		writeExpr(b, e.X)
		b.WriteByte(')')
	}
}

// writeSide writes an operand of a binary operator of precedence p,
// parenthesized when it binds looser (or equally loose where that would
// re-associate differently).
func writeSide(b *strings.Builder, e ast.Expr, p int, strict bool) {
	if x, ok := e.(*ast.Binary); ok {
		q := ast.Precedence(x.Op)
		if q < p || (strict && q == p) {
			b.WriteByte('(')
			writeExpr(b, e)
			b.WriteByte(')')
			return
		}
	}
	writeExpr(b, e)
}

// writeOperand writes the operand of a postfix or unary operator, which
// must be parenthesized when it is a binary or unary expression itself.
func writeOperand(b *strings.Builder, e ast.Expr) {
	switch e.(type) {
	case *ast.Binary, *ast.Unary:
		b.WriteByte('(')
		writeExpr(b, e)
		b.WriteByte(')')
	default:
		writeExpr(b, e)
	}
}

func writeArgs(b *strings.Builder, args []*ast.Arg) {
	b.WriteByte('(')
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Name != nil {
			b.WriteString(a.Name.Name)
			b.WriteString(": ")
		}
		writeExpr(b, a.Value)
	}
	b.WriteByte(')')
}
