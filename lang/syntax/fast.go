package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// The fast path. Participle interprets the grammar by reflection and
// spends about a hundred microseconds on a typical step, far too slow for
// the large compiled workflows cogflow must handle. This recursive-descent
// parser builds the very same grammar structs for well-formed input, about
// two orders of magnitude faster. It gives up (returns false) at the first
// token it does not expect; the caller then runs participle, which stays
// the normative grammar and writes every syntax error. FuzzFastPathAgrees
// checks that whenever the fast path accepts a file, participle accepts it
// too and the trees are identical.

type fastParser struct {
	toks []lexer.Token
	i    int
}

// errFast unwinds the fast parser; it never escapes this file.
type errFast struct{}

// fastParse parses tokens (comments removed, EOF last) or reports that
// participle must do it.
func fastParse(toks []lexer.Token) (g *gFile, ok bool) {
	p := &fastParser{toks: toks}
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(errFast); !mine {
				panic(r)
			}
			g, ok = nil, false
		}
	}()
	g = &gFile{}
	for !p.peekType(tokEOF) {
		switch {
		case p.peekKeyword("task"):
			g.Decls = append(g.Decls, &gDecl{Task: p.task()})
		case p.peekKeyword("skill"):
			g.Decls = append(g.Decls, &gDecl{Skill: p.skill()})
		default:
			p.fail()
		}
	}
	return g, true
}

func (p *fastParser) fail()                           { panic(errFast{}) }
func (p *fastParser) tok() lexer.Token                { return p.toks[p.i] }
func (p *fastParser) pos() lexer.Position             { return p.toks[p.i].Pos }
func (p *fastParser) peekType(t lexer.TokenType) bool { return p.toks[p.i].Type == t }

func (p *fastParser) peekOp(op string) bool {
	t := p.toks[p.i]
	return t.Type == tokOp && t.Value == op
}

func (p *fastParser) peekKeyword(kw string) bool {
	t := p.toks[p.i]
	return t.Type == tokIdent && t.Value == kw
}

// peekKeywordAt looks k tokens ahead.
func (p *fastParser) peekTypeAt(k int, t lexer.TokenType) bool {
	return p.i+k < len(p.toks) && p.toks[p.i+k].Type == t
}

func (p *fastParser) expectOp(op string) {
	if !p.peekOp(op) {
		p.fail()
	}
	p.i++
}

func (p *fastParser) expectKeyword(kw string) {
	if !p.peekKeyword(kw) {
		p.fail()
	}
	p.i++
}

func (p *fastParser) ident() *gIdent {
	t := p.tok()
	if t.Type != tokIdent {
		p.fail()
	}
	p.i++
	return &gIdent{Pos: t.Pos, EndPos: p.pos(), Name: t.Value}
}

func (p *fastParser) task() *gTask {
	g := &gTask{Pos: p.pos()}
	p.expectKeyword("task")
	g.Name = p.ident()
	if p.peekType(tokString) {
		t := p.tok()
		p.i++
		g.Goal = &gString{Pos: t.Pos, EndPos: p.pos(), Raw: t.Value}
	}
	g.Body = p.block()
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) skill() *gSkill {
	g := &gSkill{Pos: p.pos()}
	p.expectKeyword("skill")
	g.Name = p.ident()
	p.expectOp("(")
	for !p.peekOp(")") {
		param := &gParam{Pos: p.pos()}
		param.Name = p.ident()
		p.expectOp(":")
		param.Type = p.typeExpr()
		param.EndPos = p.pos()
		g.Params = append(g.Params, param)
		if !p.peekOp(",") {
			break
		}
		p.i++
	}
	p.expectOp(")")
	g.Body = p.block()
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) typeExpr() *gType {
	g := &gType{Pos: p.pos()}
	g.Name = p.ident().Name
	if p.peekOp("<") {
		p.i++
		g.Elem = p.typeExpr()
		p.expectOp(">")
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) block() *gBlock {
	g := &gBlock{Pos: p.pos()}
	p.expectOp("{")
	for !p.peekOp("}") {
		g.Stmts = append(g.Stmts, p.stmt())
	}
	p.i++
	g.Close = "}"
	g.EndPos = p.pos()
	return g
}

// stmt handles the unambiguous shapes only: a keyword followed by a name,
// or a name followed by '='. Anything else is participle's to judge.
func (p *fastParser) stmt() *gStmt {
	start := p.pos()
	if !p.peekType(tokIdent) {
		p.fail()
	}
	kw := p.tok().Value
	nextIsIdent := p.peekTypeAt(1, tokIdent)
	switch {
	case kw == "driver" && nextIsIdent:
		p.i++
		return &gStmt{Driver: &gDriver{Pos: start, Name: p.ident(), EndPos: p.pos()}}
	case kw == "input" && nextIsIdent:
		p.i++
		g := &gInput{Pos: start, Name: p.ident()}
		p.expectOp(":")
		g.Type = p.typeExpr()
		if p.peekOp("=") {
			p.i++
			g.Default = p.expr()
		}
		g.EndPos = p.pos()
		return &gStmt{Input: g}
	case kw == "anchor" && nextIsIdent:
		p.i++
		g := &gAnchor{Pos: start, Name: p.ident()}
		p.expectOp("=")
		g.Value = p.expr()
		g.EndPos = p.pos()
		return &gStmt{Anchor: g}
	case kw == "for" && nextIsIdent:
		p.i++
		g := &gFor{Pos: start, Var: p.ident()}
		p.expectKeyword("in")
		g.Iter = p.expr()
		g.Body = p.block()
		g.EndPos = p.pos()
		return &gStmt{For: g}
	case kw == "confirm" && nextIsIdent:
		p.i++
		g := &gStep{Pos: start, Confirm: true, Name: p.ident()}
		p.expectOp("=")
		g.Value = p.expr()
		g.EndPos = p.pos()
		return &gStmt{Step: g}
	case isKeywordToken(kw):
		p.fail()
	}
	g := &gStep{Pos: start, Name: p.ident()}
	p.expectOp("=")
	g.Value = p.expr()
	g.EndPos = p.pos()
	return &gStmt{Step: g}
}

// isKeywordToken lists the words whose statements the fast path leaves to
// participle when they are not followed by a name.
func isKeywordToken(s string) bool {
	switch s {
	case "driver", "input", "anchor", "for", "confirm":
		return true
	}
	return false
}

var binaryOps = map[string]bool{
	"||": true, "&&": true, "==": true, "!=": true, "<=": true, ">=": true,
	"<": true, ">": true, "+": true, "-": true, "*": true, "/": true, "%": true,
}

func (p *fastParser) expr() *gExpr {
	g := &gExpr{Pos: p.pos()}
	g.Left = p.unary()
	for p.peekType(tokOp) && binaryOps[p.tok().Value] {
		op := p.tok().Value
		p.i++
		g.Rest = append(g.Rest, &gBinOp{Op: op, Right: p.unary()})
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) unary() *gUnary {
	g := &gUnary{Pos: p.pos()}
	if p.peekOp("-") || p.peekOp("!") {
		g.Op = p.tok().Value
		p.i++
	}
	g.Operand = p.postfix()
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) postfix() *gPostfix {
	g := &gPostfix{Pos: p.pos()}
	g.Primary = p.primary()
	for {
		s := &gSuffix{Pos: p.pos()}
		switch {
		case p.peekOp("."):
			p.i++
			s.Member = p.ident()
		case p.peekType(tokDesc):
			v := p.tok().Value
			p.i++
			s.Desc = &v
		case p.peekOp("("):
			s.Call = p.args()
		case p.peekOp("["):
			p.i++
			s.Index = p.bracket()
			p.expectOp("]")
		default:
			g.EndPos = p.pos()
			return g
		}
		s.EndPos = p.pos()
		g.Suffixes = append(g.Suffixes, s)
	}
}

func (p *fastParser) args() *gArgs {
	g := &gArgs{Pos: p.pos()}
	p.expectOp("(")
	for !p.peekOp(")") {
		a := &gArg{Pos: p.pos()}
		a.Key = p.expr()
		if p.peekOp(":") {
			p.i++
			a.Value = p.expr()
		}
		a.EndPos = p.pos()
		g.Args = append(g.Args, a)
		if !p.peekOp(",") {
			break
		}
		p.i++
	}
	p.expectOp(")")
	g.EndPos = p.pos()
	return g
}

// bracket parses the inside of `[…]`; only the complete forms (an index,
// or a slice with optional bounds) are taken.
func (p *fastParser) bracket() *gBracket {
	g := &gBracket{Pos: p.pos()}
	if !p.peekOp(":") {
		g.Lo = p.expr()
	}
	if p.peekOp(":") {
		p.i++
		g.Colon = true
		if !p.peekOp("]") {
			g.Hi = p.expr()
		}
	}
	g.EndPos = p.pos()
	return g
}

func (p *fastParser) primary() *gPrimary {
	t := p.tok()
	g := &gPrimary{Pos: t.Pos}
	switch {
	case t.Type == tokString:
		p.i++
		g.String = &gString{Pos: t.Pos, EndPos: p.pos(), Raw: t.Value}
	case t.Type == tokNumber:
		p.i++
		v := t.Value
		g.Number = &v
	case t.Type == tokIdent && (t.Value == "true" || t.Value == "false"):
		p.i++
		v := t.Value
		g.Bool = &v
	case t.Type == tokIdent:
		g.Ident = p.ident()
	case t.Type == tokOp && t.Value == "[":
		l := &gList{Pos: t.Pos}
		p.i++
		for !p.peekOp("]") {
			l.Elems = append(l.Elems, p.expr())
			if !p.peekOp(",") {
				break
			}
			p.i++
		}
		p.expectOp("]")
		l.EndPos = p.pos()
		g.List = l
	case t.Type == tokOp && t.Value == "(":
		p.i++
		g.Paren = p.expr()
		p.expectOp(")")
	default:
		p.fail()
	}
	g.EndPos = p.pos()
	return g
}
