package syntax

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

//go:generate go run ./internal/grammargen/cmd

// The grammar, as participle structs: the one definition of the language's
// syntax (see the package comment). These are private: builders in
// convert.go turn each match into the ast package's tree, which is what
// the rest of cogflow sees. Ambiguities that would need backtracking
// (named arguments, dependencies) are parsed in a more general form and
// sorted out by the builders.
//
// After editing this file, run `go generate ./lang/syntax`. The generator
// follows participle's semantics with one token of lookahead, and refuses
// what it cannot follow the same way (an alternative or a repetition that
// can match nothing, tag syntax it does not know).

type gFile struct {
	Decls []*gDecl `parser:"@@*"`
}

type gDecl struct {
	Task  *gTask  `parser:"  @@"`
	Skill *gSkill `parser:"| @@"`
}

type gIdent struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string `parser:"@Ident"`
}

type gString struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Raw    string `parser:"@String"`
}

type gTask struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *gIdent  `parser:"\"task\" @@"`
	Goal   *gString `parser:"@@?"`
	Body   *gBlock  `parser:"@@"`
}

type gSkill struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *gIdent   `parser:"\"skill\" @@"`
	Params []*gParam `parser:"\"(\" (@@ (\",\" @@)* \",\"?)? \")\""`
	Body   *gBlock   `parser:"@@"`
}

type gParam struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *gIdent `parser:"@@"`
	Type   *gType  `parser:"\":\" @@"`
}

type gType struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   string `parser:"@Ident"`
	Elem   *gType `parser:"(\"<\" @@ \">\")?"`
}

type gBlock struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Stmts  []*gStmt `parser:"\"{\" @@*"`
	Close  string   `parser:"@\"}\""`
}

type gStmt struct {
	Driver  *gDriver  `parser:"  @@"`
	Input   *gInput   `parser:"| @@"`
	Anchor  *gAnchor  `parser:"| @@"`
	For     *gFor     `parser:"| @@"`
	If      *gIf      `parser:"| @@"`
	Repeat  *gRepeat  `parser:"| @@"`
	While   *gWhile   `parser:"| @@"`
	Jump    *gJump    `parser:"| @@"`
	Try     *gTry     `parser:"| @@"`
	Explore *gExplore `parser:"| @@"`
	Step    *gStep    `parser:"| @@"`
}

type gDriver struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *gIdent `parser:"\"driver\" @@"`
}

type gInput struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Name    *gIdent `parser:"\"input\" @@"`
	Type    *gType  `parser:"\":\" @@"`
	Default *gExpr  `parser:"(\"=\" @@)?"`
}

type gAnchor struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   *gIdent `parser:"\"anchor\" @@ \"=\""`
	Value  *gExpr  `parser:"@@"`
}

type gFor struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Var    *gIdent `parser:"\"for\" @@ \"in\""`
	Iter   *gExpr  `parser:"@@"`
	Body   *gBlock `parser:"@@"`
}

type gIf struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Cond   *gExpr  `parser:"\"if\" @@"`
	Then   *gBlock `parser:"@@"`
	Else   *gElse  `parser:"(\"else\" @@)?"`
}

// gElse is what follows "else": another if, or the last block.
type gElse struct {
	If    *gIf    `parser:"  @@"`
	Block *gBlock `parser:"| @@"`
}

type gRepeat struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Count  *gExpr  `parser:"\"repeat\" @@"`
	Body   *gBlock `parser:"@@"`
}

// gWhile is `while COND { … }` or `until COND { … }`, with options after
// the condition: `while COND, max: 20, within: 60 { … }`. The options are
// named arguments, checked by the checker.
type gWhile struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Kind    string  `parser:"@(\"while\" | \"until\")"`
	Cond    *gExpr  `parser:"@@"`
	Options []*gArg `parser:"(\",\" @@)*"`
	Body    *gBlock `parser:"@@"`
}

// gJump is break or continue.
type gJump struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Word   string `parser:"@(\"break\" | \"continue\")"`
}

// gTry is `try { … } fallback { … }`.
type gTry struct {
	Pos      lexer.Position
	EndPos   lexer.Position
	Body     *gBlock `parser:"\"try\" @@"`
	Fallback *gBlock `parser:"\"fallback\" @@"`
}

// gExplore is `explore "goal" { … }`, with options after the goal:
// `explore "goal", budget: 30 { … }`. The options are named arguments,
// checked by the checker.
type gExplore struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Goal    *gString `parser:"\"explore\" @@"`
	Options []*gArg  `parser:"(\",\" @@)*"`
	Body    *gBlock  `parser:"@@"`
}

type gStep struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Confirm bool    `parser:"@\"confirm\"?"`
	Name    *gIdent `parser:"@@ \"=\""`
	Value   *gExpr  `parser:"@@"`
}

// Expressions. Binary operators are parsed as a flat chain, operand (op
// operand)*, and arranged by precedence while building the AST: one
// grammar level instead of six keeps participle fast.
//
// Structs whose range the AST never uses (gExpr, gPostfix, gBracket) have
// no Pos and EndPos: they are the most numerous nodes, and two positions
// are 80 bytes each.

type gExpr struct {
	Left *gUnary   `parser:"@@"`
	Rest []*gBinOp `parser:"@@*"`
}

type gBinOp struct {
	Op    string  `parser:"@(\"||\" | \"&&\" | \"==\" | \"!=\" | \"<=\" | \">=\" | \"<\" | \">\" | \"+\" | \"-\" | \"*\" | \"/\" | \"%\")"`
	Right *gUnary `parser:"@@"`
}

type gUnary struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Op      string    `parser:"@(\"-\" | \"!\")?"`
	Operand *gPostfix `parser:"@@"`
}

type gPostfix struct {
	Primary  *gPrimary  `parser:"@@"`
	Suffixes []*gSuffix `parser:"@@*"`
}

type gSuffix struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Member *gIdent   `parser:"  \".\" @@"`
	Desc   *string   `parser:"| @Desc"`
	Call   *gArgs    `parser:"| @@"`
	Index  *gBracket `parser:"| \"[\" @@ \"]\""`
}

type gArgs struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Args   []*gArg `parser:"\"(\" (@@ (\",\" @@)* \",\"?)? \")\""`
}

// gArg is `expr` or `name: expr`; the name form is recognized afterwards,
// when Value is set and Key is a bare name.
type gArg struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Key    *gExpr `parser:"@@"`
	Value  *gExpr `parser:"(\":\" @@)?"`
}

// gBracket is the inside of `[…]`: an index, or a slice when Colon is set.
type gBracket struct {
	Lo    *gExpr `parser:"@@?"`
	Colon bool   `parser:"@\":\"?"`
	Hi    *gExpr `parser:"@@?"`
}

type gPrimary struct {
	Pos    lexer.Position
	EndPos lexer.Position
	String *gString `parser:"  @@"`
	Number *string  `parser:"| @Number"`
	Bool   *string  `parser:"| @(\"true\" | \"false\")"`
	List   *gList   `parser:"| @@"`
	Paren  *gExpr   `parser:"| \"(\" @@ \")\""`
	Ident  *gIdent  `parser:"| @@"`
}

type gList struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Elems  []*gExpr `parser:"\"[\" (@@ (\",\" @@)* \",\"?)? \"]\""`
}

// cogParser needs no lookahead beyond one token: every statement starts
// with its own keyword or a name, and the forms that would need more
// (named arguments, dependencies) are parsed generally and sorted out later.
var cogParser = participle.MustBuild[gFile](
	participle.Lexer(definition{symbols: symbols}),
	participle.UseLookahead(1),
)
