package syntax

import (
	"strconv"

	"github.com/cogflow/cogflow/lang/ast"
)

// Translation from participle's structs to the AST.

func (p *parser) ident(g *gIdent) ast.Ident {
	return ast.Ident{Range: p.span(g.Pos, g.EndPos), Name: g.Name}
}

// declIdent is an ident that declares a name, which must not be a keyword.
func (p *parser) declIdent(g *gIdent, what string) ast.Ident {
	id := p.ident(g)
	if Keywords[id.Name] {
		p.diags.Errorf(id.Range, "%q is a keyword and cannot name %s", id.Name, what)
	}
	return id
}

func (p *parser) str(g *gString) *ast.StringLit {
	rng := p.span(g.Pos, g.EndPos)
	v, err := strconv.Unquote(g.Raw)
	if err != nil {
		p.diags.Errorf(rng, "invalid escape sequence in string %s", g.Raw)
	}
	return &ast.StringLit{Range: rng, Value: v}
}

func (p *parser) task(g *gTask) *ast.Task {
	t := &ast.Task{Range: p.span(g.Pos, g.EndPos), Name: p.declIdent(g.Name, "a task"), Body: p.block(g.Body)}
	if g.Goal != nil {
		t.Goal = p.str(g.Goal)
	}
	return t
}

func (p *parser) skill(g *gSkill) *ast.Skill {
	s := &ast.Skill{Range: p.span(g.Pos, g.EndPos), Name: p.declIdent(g.Name, "a skill"), Body: p.block(g.Body)}
	for _, gp := range g.Params {
		s.Params = append(s.Params, &ast.Param{
			Range: p.span(gp.Pos, gp.EndPos),
			Name:  p.declIdent(gp.Name, "a parameter"),
			Type:  p.typeExpr(gp.Type),
		})
	}
	return s
}

func (p *parser) typeExpr(g *gType) *ast.TypeExpr {
	t := &ast.TypeExpr{Range: p.span(g.Pos, g.EndPos), Name: g.Name}
	if g.Elem != nil {
		t.Elem = p.typeExpr(g.Elem)
	}
	return t
}

func (p *parser) block(g *gBlock) *ast.Block {
	b := &ast.Block{Range: p.span(g.Pos, g.EndPos)}
	for _, s := range g.Stmts {
		b.Stmts = append(b.Stmts, p.stmt(s))
	}
	return b
}

func (p *parser) stmt(g *gStmt) ast.Stmt {
	switch {
	case g.Driver != nil:
		return &ast.DriverDecl{Range: p.span(g.Driver.Pos, g.Driver.EndPos), Name: p.ident(g.Driver.Name)}
	case g.Input != nil:
		in := &ast.InputDecl{
			Range: p.span(g.Input.Pos, g.Input.EndPos),
			Name:  p.declIdent(g.Input.Name, "an input"),
			Type:  p.typeExpr(g.Input.Type),
		}
		if g.Input.Default != nil {
			in.Default = p.expr(g.Input.Default)
		}
		return in
	case g.Anchor != nil:
		return &ast.AnchorDecl{
			Range: p.span(g.Anchor.Pos, g.Anchor.EndPos),
			Name:  p.declIdent(g.Anchor.Name, "an anchor"),
			Value: p.expr(g.Anchor.Value),
		}
	case g.For != nil:
		return &ast.ForStmt{
			Range: p.span(g.For.Pos, g.For.EndPos),
			Var:   p.declIdent(g.For.Var, "a loop variable"),
			Iter:  p.expr(g.For.Iter),
			Body:  p.block(g.For.Body),
		}
	default:
		return &ast.Step{
			Range:   p.span(g.Step.Pos, g.Step.EndPos),
			Confirm: g.Step.Confirm,
			Name:    p.declIdent(g.Step.Name, "a step"),
			Value:   p.expr(g.Step.Value),
		}
	}
}

// Expressions. The grammar gives a flat chain of operands and binary
// operators; here they are arranged by precedence (shunting-yard), left
// associative, with comparisons refusing to chain.

func precedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=", "<", "<=", ">", ">=":
		return 3
	case "+", "-":
		return 4
	}
	return 5 // * / %
}

func (p *parser) expr(g *gExpr) ast.Expr {
	operands := []ast.Expr{p.unary(g.Left)}
	var ops []string
	reduce := func() {
		n := len(operands)
		x, y := operands[n-2], operands[n-1]
		op := ops[len(ops)-1]
		ops = ops[:len(ops)-1]
		if precedence(op) == 3 && (isComparison(x) || isComparison(y)) {
			p.diags.Errorf(x.Rng().Span(y.Rng()), "comparisons cannot be chained; combine them with && or ||")
		}
		operands = append(operands[:n-2], p.binary(op, x, y))
	}
	for _, b := range g.Rest {
		for len(ops) > 0 && precedence(ops[len(ops)-1]) >= precedence(b.Op) {
			reduce()
		}
		ops = append(ops, b.Op)
		operands = append(operands, p.unary(b.Right))
	}
	for len(ops) > 0 {
		reduce()
	}
	return operands[0]
}

func isComparison(e ast.Expr) bool {
	b, ok := e.(*ast.Binary)
	return ok && precedence(b.Op) == 3
}

func (p *parser) binary(op string, x, y ast.Expr) ast.Expr {
	return &ast.Binary{Range: x.Rng().Span(y.Rng()), Op: op, X: x, Y: y}
}

func (p *parser) unary(g *gUnary) ast.Expr {
	x := p.postfix(g.Operand)
	if g.Op == "" {
		return x
	}
	return &ast.Unary{Range: p.span(g.Pos, g.EndPos), Op: g.Op, X: x}
}

func (p *parser) postfix(g *gPostfix) ast.Expr {
	x := p.primary(g.Primary)
	for i := 0; i < len(g.Suffixes); i++ {
		s := g.Suffixes[i]
		rng := x.Rng().Span(p.span(s.Pos, s.EndPos))
		switch {
		case s.Member != nil:
			x = &ast.Member{Range: rng, X: x, Name: p.ident(s.Member)}
		case s.Desc != nil:
			var call *gSuffix
			if i+1 < len(g.Suffixes) && g.Suffixes[i+1].Call != nil {
				call = g.Suffixes[i+1]
				i++
			}
			x = p.dependency(x, s, call)
		case s.Call != nil:
			x = p.call(x, s, rng)
		default:
			x = p.bracket(x, s.Index, rng)
		}
	}
	return x
}

// dependency builds `[main.]sub<"description">(inputs)` out of the general
// postfix chain it was parsed as.
func (p *parser) dependency(head ast.Expr, desc, call *gSuffix) ast.Expr {
	descRng := p.span(desc.Pos, desc.EndPos)
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
	dep.Description = p.description(*desc.Desc, descRng)
	if call == nil {
		p.diags.Errorf(descRng, "dependency %s needs its inputs in parentheses, e.g. %s<…>(op1) or %s<…>() for the current screen", dep.Sub.Name, dep.Sub.Name, dep.Sub.Name)
		return dep
	}
	dep.Range = dep.Range.Span(p.span(call.Pos, call.EndPos))
	dep.Inputs = p.args(call.Call)
	return dep
}

// description unquotes the string inside a `<"…">` token.
func (p *parser) description(tok string, rng ast.Range) *ast.StringLit {
	start, end := 0, len(tok)
	for start < end && tok[start] != '"' {
		start++
	}
	for end > start && tok[end-1] != '"' {
		end--
	}
	raw := tok[start:end]
	strRng := rng
	strRng.Start.Column += start
	strRng.Start.Offset += start
	strRng.End.Column -= len(tok) - end
	strRng.End.Offset -= len(tok) - end
	v, err := strconv.Unquote(raw)
	if err != nil {
		p.diags.Errorf(strRng, "invalid escape sequence in string %s", raw)
	}
	return &ast.StringLit{Range: strRng, Value: v}
}

func (p *parser) call(fun ast.Expr, s *gSuffix, rng ast.Range) ast.Expr {
	switch fun.(type) {
	case *ast.Ref, *ast.Member:
	default:
		p.diags.Errorf(fun.Rng(), "only actions, functions, element constructors, skills and methods can be called")
	}
	return &ast.Call{Range: rng, Fun: fun, Args: p.args(s.Call)}
}

func (p *parser) args(g *gArgs) []*ast.Arg {
	var out []*ast.Arg
	for _, ga := range g.Args {
		arg := &ast.Arg{Range: p.span(ga.Pos, ga.EndPos)}
		if ga.Value == nil {
			arg.Value = p.expr(ga.Key)
		} else {
			key := p.expr(ga.Key)
			if ref, ok := key.(*ast.Ref); ok {
				name := ref.Ident
				arg.Name = &name
			} else {
				p.diags.Errorf(key.Rng(), "an argument name must be a plain name, as in name: value")
			}
			arg.Value = p.expr(ga.Value)
		}
		out = append(out, arg)
	}
	return out
}

func (p *parser) bracket(x ast.Expr, g *gBracket, rng ast.Range) ast.Expr {
	var lo, hi ast.Expr
	if g.Lo != nil {
		lo = p.expr(g.Lo)
	}
	if g.Hi != nil {
		hi = p.expr(g.Hi)
	}
	if g.Colon {
		return &ast.Slice{Range: rng, X: x, Lo: lo, Hi: hi}
	}
	if lo == nil || hi != nil {
		p.diags.Errorf(rng, "an index needs one value, as in xs[0], or a slice xs[1:]")
		return &ast.Index{Range: rng, X: x, Index: &ast.NumberLit{Range: rng, Raw: "0"}}
	}
	return &ast.Index{Range: rng, X: x, Index: lo}
}

func (p *parser) primary(g *gPrimary) ast.Expr {
	rng := p.span(g.Pos, g.EndPos)
	switch {
	case g.String != nil:
		return p.str(g.String)
	case g.Number != nil:
		return &ast.NumberLit{Range: rng, Raw: *g.Number}
	case g.Bool != nil:
		return &ast.BoolLit{Range: rng, Value: *g.Bool == "true"}
	case g.List != nil:
		l := &ast.ListLit{Range: rng}
		for _, e := range g.List.Elems {
			l.Elems = append(l.Elems, p.expr(e))
		}
		return l
	case g.Paren != nil:
		return &ast.Paren{Range: rng, X: p.expr(g.Paren)}
	default:
		id := p.ident(g.Ident)
		if Keywords[id.Name] {
			p.diags.Errorf(id.Range, "keyword %q cannot be used as a value", id.Name)
		}
		return &ast.Ref{Ident: id}
	}
}
