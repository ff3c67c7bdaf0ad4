package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/cogflow/cogflow/lang/ast"
)

// The fast path. Participle interprets the grammar by reflection and
// spends about a hundred microseconds on a typical step, far too slow for
// the large compiled workflows cogflow must handle. This recursive-descent
// parser follows the same grammar for well-formed input and builds the AST
// directly, through the constructors in build.go that the participle path
// uses too. It gives up at the first token it does not expect; the caller
// then runs participle, which stays the normative grammar and writes every
// syntax error. FuzzFastPathAgrees checks that whenever the fast path
// accepts a file, participle accepts it too and the trees, ranges and
// diagnostics are identical.

type fastParser struct {
	*parser
	i int
}

// fastFailure is where and why the fast path gave up.
type fastFailure struct {
	at       token
	expected string
}

// errFast unwinds the fast parser; it never escapes this file.
type errFast struct{}

// fastParse parses p.tokens (comments removed, EOF last) or reports that
// participle must do it, leaving the diagnostics as they were.
func (p *parser) fastParse() (file *ast.File, ok bool) {
	f := &fastParser{parser: p}
	mark := len(p.diags)
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(errFast); !mine {
				panic(r)
			}
			p.diags = p.diags[:mark]
			file, ok = nil, false
		}
	}()
	file = &ast.File{Name: p.filename}
	for !f.at(tokEOF) {
		switch {
		case f.atKeyword("task"):
			file.Decls = append(file.Decls, f.task())
		case f.atKeyword("skill"):
			file.Decls = append(file.Decls, f.skill())
		default:
			f.fail(`"task" or "skill"`)
		}
	}
	return file, true
}

// fail gives up at the current token, remembering what would have fitted:
// when participle fails too, the error that got further into the file is
// the one reported.
func (f *fastParser) fail(expected string) {
	f.failure = &fastFailure{at: f.tokens[f.i], expected: expected}
	panic(errFast{})
}
func (f *fastParser) tok() token                { return f.tokens[f.i] }
func (f *fastParser) at(t lexer.TokenType) bool { return f.tokens[f.i].Kind() == t }

func (f *fastParser) atOp(op string) bool {
	t := f.tokens[f.i]
	return t.Kind() == tokOp && f.val(t) == op
}

func (f *fastParser) atKeyword(kw string) bool {
	t := f.tokens[f.i]
	return t.Kind() == tokIdent && f.val(t) == kw
}

func (f *fastParser) expectOp(op string) {
	if !f.atOp(op) {
		f.fail(`"` + op + `"`)
	}
	f.i++
}

func (f *fastParser) expectKeyword(kw string) {
	if !f.atKeyword(kw) {
		f.fail(`"` + kw + `"`)
	}
	f.i++
}

// start is the offset where the next node begins; from gives the range
// from such an offset to the end of the last token consumed.
func (f *fastParser) start() int { return int(f.tokens[f.i].Offset) }

func (f *fastParser) from(start int) ast.Range {
	last := f.tokens[f.i-1]
	return ast.Range{Filename: f.filename, Start: f.pos(start), End: f.pos(int(last.End))}
}

func (f *fastParser) ident() ast.Ident {
	t := f.tok()
	if t.Kind() != tokIdent {
		f.fail("a name")
	}
	f.i++
	return ast.Ident{Range: f.tokRange(t), Name: f.val(t)}
}

func (f *fastParser) task() *ast.Task {
	start := f.start()
	f.expectKeyword("task")
	t := &ast.Task{Name: f.declared(f.ident(), "a task")}
	if f.at(tokString) {
		tok := f.tok()
		f.i++
		t.Goal = f.stringLit(f.val(tok), f.tokRange(tok))
	}
	t.Body = f.block()
	t.Range = f.from(start)
	return t
}

func (f *fastParser) skill() *ast.Skill {
	start := f.start()
	f.expectKeyword("skill")
	s := &ast.Skill{Name: f.declared(f.ident(), "a skill")}
	f.expectOp("(")
	for !f.atOp(")") {
		pstart := f.start()
		param := &ast.Param{Name: f.declared(f.ident(), "a parameter")}
		f.expectOp(":")
		param.Type = f.typeExpr()
		param.Range = f.from(pstart)
		s.Params = append(s.Params, param)
		if !f.atOp(",") {
			break
		}
		f.i++
	}
	f.expectOp(")")
	s.Body = f.block()
	s.Range = f.from(start)
	return s
}

func (f *fastParser) typeExpr() *ast.TypeExpr {
	start := f.start()
	t := &ast.TypeExpr{Name: f.ident().Name}
	if f.atOp("<") {
		f.i++
		t.Elem = f.typeExpr()
		f.expectOp(">")
	}
	t.Range = f.from(start)
	return t
}

func (f *fastParser) block() *ast.Block {
	start := f.start()
	f.expectOp("{")
	b := &ast.Block{}
	for !f.atOp("}") {
		b.Stmts = append(b.Stmts, f.stmt())
	}
	f.i++
	b.Range = f.from(start)
	return b
}

// stmt takes the unambiguous shapes only: a statement keyword followed by
// a name, or a name followed by '='. Anything else is participle's to judge.
func (f *fastParser) stmt() ast.Stmt {
	start := f.start()
	if !f.at(tokIdent) {
		f.fail(`a step, "anchor", "input", "for", "driver" or "}"`)
	}
	word := f.val(f.tok())
	if isStmtKeyword(word) {
		f.i++
		if !f.at(tokIdent) {
			f.fail("a name")
		}
	}
	switch word {
	case "driver":
		d := &ast.DriverDecl{Name: f.ident()}
		d.Range = f.from(start)
		return d
	case "input":
		in := &ast.InputDecl{Name: f.declared(f.ident(), "an input")}
		f.expectOp(":")
		in.Type = f.typeExpr()
		if f.atOp("=") {
			f.i++
			in.Default = f.expr()
		}
		in.Range = f.from(start)
		return in
	case "anchor":
		a := &ast.AnchorDecl{Name: f.declared(f.ident(), "an anchor")}
		f.expectOp("=")
		a.Value = f.expr()
		a.Range = f.from(start)
		return a
	case "for":
		loop := &ast.ForStmt{Var: f.declared(f.ident(), "a loop variable")}
		f.expectKeyword("in")
		loop.Iter = f.expr()
		loop.Body = f.block()
		loop.Range = f.from(start)
		return loop
	}
	s := &ast.Step{Confirm: word == "confirm", Name: f.declared(f.ident(), "a step")}
	f.expectOp("=")
	s.Value = f.expr()
	s.Range = f.from(start)
	return s
}

// isStmtKeyword lists the words that start statements other than steps.
func isStmtKeyword(s string) bool {
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

func (f *fastParser) expr() ast.Expr {
	first := f.unary()
	var ops []string
	var rest []ast.Expr
	for f.at(tokOp) && binaryOps[f.val(f.tok())] {
		ops = append(ops, f.val(f.tok()))
		f.i++
		rest = append(rest, f.unary())
	}
	return f.binaryChain(first, ops, rest)
}

func (f *fastParser) unary() ast.Expr {
	if !f.atOp("-") && !f.atOp("!") {
		return f.postfix()
	}
	start := f.start()
	op := f.val(f.tok())
	f.i++
	x := f.postfix()
	return &ast.Unary{Range: f.from(start), Op: op, X: x}
}

func (f *fastParser) postfix() ast.Expr {
	start := f.start()
	x := f.primary()
	for {
		switch {
		case f.atOp("."):
			f.i++
			name := f.ident()
			x = &ast.Member{Range: f.from(start), X: x, Name: name}
		case f.at(tokDesc):
			desc := f.tok()
			f.i++
			var args []*ast.Arg
			var argsRng *ast.Range
			if f.atOp("(") {
				argsStart := f.start()
				args = f.args()
				r := f.from(argsStart)
				argsRng = &r
			}
			x = f.dependency(x, f.val(desc), f.tokRange(desc), args, argsRng)
		case f.atOp("("):
			args := f.args()
			x = f.call(x, args, f.from(start))
		case f.atOp("["):
			f.i++
			var lo, hi ast.Expr
			colon := false
			if !f.atOp(":") {
				lo = f.expr()
			}
			if f.atOp(":") {
				f.i++
				colon = true
				if !f.atOp("]") {
					hi = f.expr()
				}
			}
			f.expectOp("]")
			x = f.bracket(x, lo, hi, colon, f.from(start))
		default:
			return x
		}
	}
}

func (f *fastParser) args() []*ast.Arg {
	f.expectOp("(")
	var out []*ast.Arg
	for !f.atOp(")") {
		start := f.start()
		key := f.expr()
		var value ast.Expr
		if f.atOp(":") {
			f.i++
			value = f.expr()
		}
		out = append(out, f.arg(key, value, f.from(start)))
		if !f.atOp(",") {
			break
		}
		f.i++
	}
	f.expectOp(")")
	return out
}

func (f *fastParser) primary() ast.Expr {
	t := f.tok()
	start := int(t.Offset)
	v := f.val(t)
	switch {
	case t.Kind() == tokString:
		f.i++
		return f.stringLit(v, f.tokRange(t))
	case t.Kind() == tokNumber:
		f.i++
		return &ast.NumberLit{Range: f.tokRange(t), Raw: v}
	case t.Kind() == tokIdent && (v == "true" || v == "false"):
		f.i++
		return &ast.BoolLit{Range: f.tokRange(t), Value: v == "true"}
	case t.Kind() == tokIdent:
		return f.ref(f.ident())
	case t.Kind() == tokOp && v == "[":
		f.i++
		l := &ast.ListLit{}
		for !f.atOp("]") {
			l.Elems = append(l.Elems, f.expr())
			if !f.atOp(",") {
				break
			}
			f.i++
		}
		f.expectOp("]")
		l.Range = f.from(start)
		return l
	case t.Kind() == tokOp && v == "(":
		f.i++
		x := f.expr()
		f.expectOp(")")
		return &ast.Paren{Range: f.from(start), X: x}
	}
	f.fail("a value: a name, string, number, list or call")
	return nil
}
