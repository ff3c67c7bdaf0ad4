package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/cogflow/cogflow/lang/ast"
)

// The builders: one per grammar struct gX, buildX gives the rule its
// meaning by turning the parts of one match (xParts, generated from gX's
// fields, its sub-rules already built) into the AST. Both parsing paths
// call them, the fast parser as it goes and the walk of participle's
// structs afterwards (grammar_gen.go), so the two cannot build different
// trees. Decisions shared by several rules live in build.go.

func (p *parser) buildFile(v *fileParts) *ast.File {
	return &ast.File{Name: p.filename, Decls: v.Decls}
}

func (p *parser) buildDecl(v *declParts) ast.Decl {
	if v.Task != nil {
		return v.Task
	}
	return v.Skill
}

func (p *parser) buildIdent(v *identParts) ast.Ident {
	return ast.Ident{Range: p.rangeOf(v.Start, v.End), Name: v.Name}
}

func (p *parser) buildString(v *stringParts) *ast.StringLit {
	return p.stringLit(v.Raw, p.rangeOf(v.Start, v.End))
}

func (p *parser) buildTask(v *taskParts) *ast.Task {
	return &ast.Task{Range: p.rangeOf(v.Start, v.End), Name: p.declared(v.Name, "a task"), Goal: v.Goal, Body: v.Body}
}

func (p *parser) buildSkill(v *skillParts) *ast.Skill {
	return &ast.Skill{Range: p.rangeOf(v.Start, v.End), Name: p.declared(v.Name, "a skill"), Params: v.Params, Body: v.Body}
}

func (p *parser) buildParam(v *paramParts) *ast.Param {
	return &ast.Param{Range: p.rangeOf(v.Start, v.End), Name: p.declared(v.Name, "a parameter"), Type: v.Type}
}

func (p *parser) buildType(v *typeParts) *ast.TypeExpr {
	return &ast.TypeExpr{Range: p.rangeOf(v.Start, v.End), Name: v.Name, Elem: v.Elem}
}

func (p *parser) buildBlock(v *blockParts) *ast.Block {
	return &ast.Block{Range: p.rangeOf(v.Start, v.End), Stmts: v.Stmts}
}

// buildStmt returns the one alternative that matched.
func (p *parser) buildStmt(v *stmtParts) ast.Stmt {
	switch {
	case v.Driver != nil:
		return v.Driver
	case v.Input != nil:
		return v.Input
	case v.Anchor != nil:
		return v.Anchor
	case v.For != nil:
		return v.For
	case v.If != nil:
		return v.If
	case v.Repeat != nil:
		return v.Repeat
	case v.While != nil:
		return v.While
	case v.Jump != nil:
		return v.Jump
	case v.Try != nil:
		return v.Try
	case v.Explore != nil:
		return v.Explore
	}
	return v.Step
}

func (p *parser) buildDriver(v *driverParts) *ast.DriverDecl {
	return &ast.DriverDecl{Range: p.rangeOf(v.Start, v.End), Name: v.Name}
}

func (p *parser) buildInput(v *inputParts) *ast.InputDecl {
	return &ast.InputDecl{Range: p.rangeOf(v.Start, v.End), Name: p.declared(v.Name, "an input"), Type: v.Type, Default: v.Default}
}

func (p *parser) buildAnchor(v *anchorParts) *ast.AnchorDecl {
	return &ast.AnchorDecl{Range: p.rangeOf(v.Start, v.End), Name: p.declared(v.Name, "an anchor"), Value: v.Value}
}

func (p *parser) buildFor(v *forParts) *ast.ForStmt {
	return &ast.ForStmt{Range: p.rangeOf(v.Start, v.End), Var: p.declared(v.Var, "a loop variable"), Iter: v.Iter, Body: v.Body}
}

func (p *parser) buildIf(v *ifParts) *ast.IfStmt {
	s := &ast.IfStmt{Range: p.rangeOf(v.Start, v.End), Cond: v.Cond, Then: v.Then}
	if v.Else != nil {
		s.ElseIf, s.Else = v.Else.If, v.Else.Block
	}
	return s
}

// buildElse keeps the parts: buildIf places them.
func (p *parser) buildElse(v *elseParts) *elseParts { return v }

func (p *parser) buildRepeat(v *repeatParts) *ast.RepeatStmt {
	return &ast.RepeatStmt{Range: p.rangeOf(v.Start, v.End), Count: v.Count, Body: v.Body}
}

func (p *parser) buildWhile(v *whileParts) *ast.WhileStmt {
	return &ast.WhileStmt{Range: p.rangeOf(v.Start, v.End), Until: v.Kind == "until", Cond: v.Cond, Options: v.Options, Body: v.Body}
}

func (p *parser) buildJump(v *jumpParts) *ast.JumpStmt {
	return &ast.JumpStmt{Range: p.rangeOf(v.Start, v.End), Continue: v.Word == "continue"}
}

func (p *parser) buildTry(v *tryParts) *ast.TryStmt {
	return &ast.TryStmt{Range: p.rangeOf(v.Start, v.End), Body: v.Body, Fallback: v.Fallback}
}

func (p *parser) buildExplore(v *exploreParts) *ast.ExploreStmt {
	return &ast.ExploreStmt{Range: p.rangeOf(v.Start, v.End), Goal: v.Goal, Options: v.Options, Body: v.Body}
}

func (p *parser) buildStep(v *stepParts) *ast.Step {
	return &ast.Step{Range: p.rangeOf(v.Start, v.End), Confirm: v.Confirm, Name: p.declared(v.Name, "a step"), Value: v.Value}
}

func (p *parser) buildExpr(v *exprParts) ast.Expr {
	if len(v.Rest) == 0 {
		return v.Left
	}
	ops := make([]string, len(v.Rest))
	rest := make([]ast.Expr, len(v.Rest))
	for i, b := range v.Rest {
		ops[i], rest[i] = b.Op, b.Right
	}
	return p.binaryChain(v.Left, ops, rest)
}

// buildBinOp keeps the parts: buildExpr arranges the chain.
func (p *parser) buildBinOp(v *binOpParts) binOpParts { return *v }

func (p *parser) buildUnary(v *unaryParts) ast.Expr {
	if v.Op == "" {
		return v.Operand
	}
	return &ast.Unary{Range: p.rangeOf(v.Start, v.End), Op: v.Op, X: v.Operand}
}

// buildPostfix applies the suffixes in order. A description followed by
// parenthesized inputs is one dependency, so it takes the call after it.
// Exactly one of a suffix's alternatives is set: a member has a name, a
// description its text, a call its end offset (after ")", never 0);
// otherwise it is an index or slice.
func (p *parser) buildPostfix(v *postfixParts) ast.Expr {
	x := v.Primary
	p.keywordValue(x, v.Suffixes)
	for i := 0; i < len(v.Suffixes); i++ {
		s := &v.Suffixes[i]
		rng := x.Rng().Span(p.rangeOf(s.Start, s.End))
		switch {
		case s.Member.Name != "":
			x = &ast.Member{Range: rng, X: x, Name: s.Member}
		case s.Desc != "":
			var args []*ast.Arg
			var argsRng *ast.Range
			if i+1 < len(v.Suffixes) && v.Suffixes[i+1].Call.End != 0 {
				call := v.Suffixes[i+1].Call
				r := p.rangeOf(call.Start, call.End)
				argsRng, args = &r, call.Args
				i++
			}
			x = p.dependency(x, s.Desc, p.rangeOf(s.Start, s.End), args, argsRng)
		case s.Call.End != 0:
			x = p.call(x, s.Call.Args, rng)
		default:
			x = p.bracket(x, s.Index.Lo, s.Index.Hi, s.Index.Colon, rng)
		}
	}
	return x
}

// buildSuffix keeps the parts: buildPostfix needs the next suffix too.
func (p *parser) buildSuffix(v *suffixParts) suffixParts { return *v }

// buildArgs keeps the parts: the range of the parentheses matters to a
// dependency.
func (p *parser) buildArgs(v *argsParts) argsParts { return *v }

func (p *parser) buildArg(v *argParts) *ast.Arg {
	return p.arg(v.Key, v.Value, p.rangeOf(v.Start, v.End))
}

// buildBracket keeps the parts: buildPostfix knows what is indexed.
func (p *parser) buildBracket(v *bracketParts) bracketParts { return *v }

func (p *parser) buildPrimary(v *primaryParts) ast.Expr {
	switch {
	case v.String != nil:
		return v.String
	case v.Number != "":
		return &ast.NumberLit{Range: p.rangeOf(v.Start, v.End), Raw: v.Number}
	case v.Bool != "":
		return &ast.BoolLit{Range: p.rangeOf(v.Start, v.End), Value: v.Bool == "true"}
	case v.List != nil:
		return v.List
	case v.Paren != nil:
		return &ast.Paren{Range: p.rangeOf(v.Start, v.End), X: v.Paren}
	}
	return p.ref(v.Ident)
}

func (p *parser) buildList(v *listParts) *ast.ListLit {
	return &ast.ListLit{Range: p.rangeOf(v.Start, v.End), Elems: v.Elems}
}

// rangeOf is the range from offset start to offset end.
func (p *parser) rangeOf(start, end int) ast.Range {
	return ast.Range{Filename: p.filename, Start: p.pos(start), End: p.pos(end)}
}

// offsets turns the positions participle gives a struct into the offsets
// of its first byte and after its last. Participle's end position is the
// start of the token after the node; the node really ends where its own
// last token does.
func (p *parser) offsets(start, end lexer.Position) (int, int) {
	endOff := start.Offset
	if last := p.tokenBefore(end.Offset); last >= 0 {
		endOff = max(endOff, int(p.tokens[last].End))
	}
	return start.Offset, endOff
}
