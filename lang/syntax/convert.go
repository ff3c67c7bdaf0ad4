package syntax

import (
	"github.com/cogflow/cogflow/lang/ast"
)

// Translation from participle's structs to the AST, used when the fast
// path gives up. Every decision lives in build.go, shared with fast.go.

func (p *parser) ident(g *gIdent) ast.Ident {
	return ast.Ident{Range: p.span(g.Pos, g.EndPos), Name: g.Name}
}

func (p *parser) str(g *gString) *ast.StringLit {
	return p.stringLit(g.Raw, p.span(g.Pos, g.EndPos))
}

func (p *parser) task(g *gTask) *ast.Task {
	t := &ast.Task{Range: p.span(g.Pos, g.EndPos), Name: p.declared(p.ident(g.Name), "a task")}
	if g.Goal != nil {
		t.Goal = p.str(g.Goal)
	}
	t.Body = p.block(g.Body)
	return t
}

func (p *parser) skill(g *gSkill) *ast.Skill {
	s := &ast.Skill{Range: p.span(g.Pos, g.EndPos), Name: p.declared(p.ident(g.Name), "a skill")}
	for _, gp := range g.Params {
		s.Params = append(s.Params, &ast.Param{
			Range: p.span(gp.Pos, gp.EndPos),
			Name:  p.declared(p.ident(gp.Name), "a parameter"),
			Type:  p.typeExpr(gp.Type),
		})
	}
	s.Body = p.block(g.Body)
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
			Name:  p.declared(p.ident(g.Input.Name), "an input"),
			Type:  p.typeExpr(g.Input.Type),
		}
		if g.Input.Default != nil {
			in.Default = p.expr(g.Input.Default)
		}
		return in
	case g.Anchor != nil:
		a := &ast.AnchorDecl{Range: p.span(g.Anchor.Pos, g.Anchor.EndPos), Name: p.declared(p.ident(g.Anchor.Name), "an anchor")}
		a.Value = p.expr(g.Anchor.Value)
		return a
	case g.For != nil:
		f := &ast.ForStmt{Range: p.span(g.For.Pos, g.For.EndPos), Var: p.declared(p.ident(g.For.Var), "a loop variable")}
		f.Iter = p.expr(g.For.Iter)
		f.Body = p.block(g.For.Body)
		return f
	default:
		s := &ast.Step{Range: p.span(g.Step.Pos, g.Step.EndPos), Confirm: g.Step.Confirm, Name: p.declared(p.ident(g.Step.Name), "a step")}
		s.Value = p.expr(g.Step.Value)
		return s
	}
}

func (p *parser) expr(g *gExpr) ast.Expr {
	first := p.unary(g.Left)
	ops := make([]string, len(g.Rest))
	rest := make([]ast.Expr, len(g.Rest))
	for i, b := range g.Rest {
		ops[i], rest[i] = b.Op, p.unary(b.Right)
	}
	return p.binaryChain(first, ops, rest)
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
			var args []*ast.Arg
			var argsRng *ast.Range
			if i+1 < len(g.Suffixes) && g.Suffixes[i+1].Call != nil {
				call := g.Suffixes[i+1]
				r := p.span(call.Pos, call.EndPos)
				argsRng, args = &r, p.args(call.Call)
				i++
			}
			x = p.dependency(x, *s.Desc, p.span(s.Pos, s.EndPos), args, argsRng)
		case s.Call != nil:
			x = p.call(x, p.args(s.Call), rng)
		default:
			var lo, hi ast.Expr
			if s.Index.Lo != nil {
				lo = p.expr(s.Index.Lo)
			}
			if s.Index.Hi != nil {
				hi = p.expr(s.Index.Hi)
			}
			x = p.bracket(x, lo, hi, s.Index.Colon, rng)
		}
	}
	return x
}

func (p *parser) args(g *gArgs) []*ast.Arg {
	var out []*ast.Arg
	for _, ga := range g.Args {
		key := p.expr(ga.Key)
		var value ast.Expr
		if ga.Value != nil {
			value = p.expr(ga.Value)
		}
		out = append(out, p.arg(key, value, p.span(ga.Pos, ga.EndPos)))
	}
	return out
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
		return p.ref(p.ident(g.Ident))
	}
}
