package syntax

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// Node construction shared by both parsing paths (participle's structs and
// the fast path's tokens), so that the two build identical trees and report
// identical diagnostics: everything the grammar leaves general is decided
// here.

// declared checks a name that a declaration introduces.
func (p *parser) declared(id ast.Ident, what string) ast.Ident {
	if Keywords[id.Name] {
		p.diags.Errorf(id.Range, "%q is a keyword and cannot name %s", id.Name, what)
	}
	return id
}

// stringLit unquotes a string token's text; rng covers the quotes.
func (p *parser) stringLit(raw string, rng ast.Range) *ast.StringLit {
	v, err := strconv.Unquote(raw)
	if err != nil {
		p.badEscape(raw, rng)
	}
	return &ast.StringLit{Range: rng, Value: v}
}

// badEscape points at the first escape sequence strconv rejects.
func (p *parser) badEscape(raw string, rng ast.Range) {
	for i := 1; i < len(raw)-1; i++ {
		if raw[i] != '\\' {
			continue
		}
		if _, _, tail, err := strconv.UnquoteChar(raw[i:], '"'); err == nil {
			i += len(raw[i:]) - len(tail) - 1
			continue
		}
		at := p.point(rng.Start.Offset + i)
		at.End = p.pos(min(rng.Start.Offset+i+2, rng.End.Offset))
		p.diags.Errorf(at, "invalid escape sequence %s in string; write \\\\ for a backslash", raw[i:min(i+2, len(raw)-1)])
		return
	}
	p.diags.Errorf(rng, "invalid string %s", raw)
}

// description unquotes the string inside a `<"…">` token at rng.
func (p *parser) description(tok string, rng ast.Range) *ast.StringLit {
	start := strings.IndexByte(tok, '"')
	end := strings.LastIndexByte(tok, '"') + 1
	strRng := ast.Range{Filename: rng.Filename, Start: p.pos(rng.Start.Offset + start), End: p.pos(rng.Start.Offset + end)}
	return p.stringLit(tok[start:end], strRng)
}

// ref is a name used as a value. A keyword is refused by keywordValue
// once the suffixes are known: `repeat<"…">(op1)` is the dependency of
// subcategory repeat.
func (p *parser) ref(id ast.Ident) ast.Expr {
	return &ast.Ref{Ident: id}
}

// keywordValue refuses a keyword standing as a value: a primary that is a
// keyword and not the head of a dependency.
func (p *parser) keywordValue(x ast.Expr, suffixes []suffixParts) {
	if r, ok := x.(*ast.Ref); ok && Keywords[r.Name] && (len(suffixes) == 0 || suffixes[0].Desc == "") {
		p.diags.Errorf(r.Range, "keyword %q cannot be used as a value", r.Name)
	}
}

// binaryChain arranges `x0 op1 x1 op2 x2 …` by precedence (shunting-yard),
// left associative, with comparisons refusing to chain.
func (p *parser) binaryChain(first ast.Expr, ops []string, rest []ast.Expr) ast.Expr {
	if len(ops) == 0 {
		return first
	}
	operands := []ast.Expr{first}
	var pending []string
	reduce := func() {
		n := len(operands)
		x, y := operands[n-2], operands[n-1]
		op := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if ast.Precedence(op) == 3 && (isComparison(x) || isComparison(y)) {
			p.diags.Errorf(x.Rng().Span(y.Rng()), "comparisons cannot be chained; combine them with && or ||")
		}
		operands = append(operands[:n-2], &ast.Binary{Range: x.Rng().Span(y.Rng()), Op: op, X: x, Y: y})
	}
	for i, op := range ops {
		for len(pending) > 0 && ast.Precedence(pending[len(pending)-1]) >= ast.Precedence(op) {
			reduce()
		}
		pending = append(pending, op)
		operands = append(operands, rest[i])
	}
	for len(pending) > 0 {
		reduce()
	}
	return operands[0]
}

func isComparison(e ast.Expr) bool {
	b, ok := e.(*ast.Binary)
	return ok && ast.Precedence(b.Op) == 3
}

// dependency builds `[main.]sub<"description">(inputs)` from the postfix
// chain it was parsed as: head is what stood before the description; args
// and argsRng are nil when no parenthesized inputs followed.
func (p *parser) dependency(head ast.Expr, desc string, descRng ast.Range, args []*ast.Arg, argsRng *ast.Range) ast.Expr {
	dep := &ast.Dependency{Range: head.Rng().Span(descRng)}
	switch h := head.(type) {
	case *ast.Ref:
		dep.Sub = h.Ident
	case *ast.Member:
		if main, ok := h.X.(*ast.Ref); ok {
			m := main.Ident
			dep.Main = &m
			dep.Sub = h.Name
			break
		}
		p.diags.Errorf(head.Rng(), `a cognitive dependency is written [main.]sub<"description">(inputs)`)
	default:
		p.diags.Errorf(head.Rng(), `a cognitive dependency is written [main.]sub<"description">(inputs)`)
	}
	dep.Description = p.description(desc, descRng)
	if argsRng == nil {
		p.diags.Errorf(descRng, "dependency %s needs its inputs in parentheses, e.g. %s<…>(op1) or %s<…>() for the current screen", dep.Sub.Name, dep.Sub.Name, dep.Sub.Name)
		return dep
	}
	dep.Range = dep.Range.Span(*argsRng)
	dep.Inputs = args
	return dep
}

// call builds `fun(args)`; rng spans the whole call.
func (p *parser) call(fun ast.Expr, args []*ast.Arg, rng ast.Range) ast.Expr {
	switch fun.(type) {
	case *ast.Ref, *ast.Member:
	default:
		p.diags.Errorf(fun.Rng(), "only actions, functions, element constructors, skills and methods can be called")
	}
	return &ast.Call{Range: rng, Fun: fun, Args: args}
}

// arg builds an argument; value is nil for a positional one, whose
// expression is key.
func (p *parser) arg(key, value ast.Expr, rng ast.Range) *ast.Arg {
	if value == nil {
		return &ast.Arg{Range: rng, Value: key}
	}
	a := &ast.Arg{Range: rng, Value: value}
	if ref, ok := key.(*ast.Ref); ok {
		name := ref.Ident
		a.Name = &name
	} else {
		p.diags.Errorf(key.Rng(), "an argument name must be a plain name, as in name: value")
	}
	return a
}

// bracket builds `x[lo]` or, with colon, `x[lo:hi]`.
func (p *parser) bracket(x, lo, hi ast.Expr, colon bool, rng ast.Range) ast.Expr {
	if colon {
		return &ast.Slice{Range: rng, X: x, Lo: lo, Hi: hi}
	}
	if lo == nil || hi != nil {
		p.diags.Errorf(rng, "an index needs one value, as in xs[0], or a slice xs[1:]")
		return &ast.Index{Range: rng, X: x, Index: &ast.NumberLit{Range: rng, Raw: "0"}}
	}
	return &ast.Index{Range: rng, X: x, Index: lo}
}
