// Package ast defines the syntax tree of cogflow workflow files.
//
// The tree is the language's own, independent of the parser generator that
// builds it: every node carries the source range it came from so that the
// checker and every later stage can point at the exact text, and comments are
// attached to the declarations and statements they belong to so that the
// printer never loses one.
package ast

import "fmt"

// Pos is a position in a source file. Line and Column count from 1; Column
// counts bytes, like Go's own tools. Offset is the byte offset from 0.
type Pos struct {
	Line, Column, Offset int
}

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Before reports whether p comes before q in the file.
func (p Pos) Before(q Pos) bool { return p.Offset < q.Offset }

// Range is the half-open span [Start, End) of a node in a named file.
type Range struct {
	Filename   string
	Start, End Pos
}

// String renders the range's start as file:line:col.
func (r Range) String() string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}

// Span returns the range that covers both r and s.
func (r Range) Span(s Range) Range {
	out := r
	if s.Start.Before(out.Start) {
		out.Start = s.Start
	}
	if out.End.Before(s.End) {
		out.End = s.End
	}
	return out
}

// Node is implemented by every node of the tree.
type Node interface {
	Rng() Range
}

// Comment is one `#` line comment; Text includes the leading '#'.
type Comment struct {
	Range Range
	Text  string
}

// Comments are the comments attached to a declaration or statement: the
// full-line comments directly above it and the one at the end of its line.
type Comments struct {
	Leading  []Comment
	Trailing *Comment
	// Detached records a blank line between the leading comments and the
	// node, as under a file's header comment; the printer keeps it.
	Detached bool
}

// File is one parsed .cog source file.
type File struct {
	Name  string
	Decls []Decl
	// Tail holds the comments after the last declaration.
	Tail []Comment
}

// Bodies returns the body of each task and skill, in file order: what a
// walk over every step of a file starts from.
func (f *File) Bodies() []*Block {
	var out []*Block
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *Task:
			out = append(out, d.Body)
		case *Skill:
			out = append(out, d.Body)
		}
	}
	return out
}

// Decl is a top-level declaration: *Task or *Skill.
type Decl interface {
	Node
	DeclName() string
	declNode()
}

// Block is a sequence of statements between braces.
type Block struct {
	Range Range
	Stmts []Stmt
	// Tail holds the comments after the last statement, before the '}'.
	Tail []Comment
}

// Task is `task name "goal" { … }`.
type Task struct {
	Range    Range
	Name     Ident
	Goal     *StringLit // nil when the task states no goal
	Body     *Block
	Comments Comments
}

// Param is a skill parameter `name: type`.
type Param struct {
	Range Range
	Name  Ident
	Type  *TypeExpr
}

// Skill is `skill name(params) { … }`: a reusable step sequence.
type Skill struct {
	Range    Range
	Name     Ident
	Params   []*Param
	Body     *Block
	Comments Comments
}

func (b *Block) Rng() Range { return b.Range }
func (t *Task) Rng() Range  { return t.Range }
func (p *Param) Rng() Range { return p.Range }
func (s *Skill) Rng() Range { return s.Range }

// DeclName implements Decl.
func (t *Task) DeclName() string  { return t.Name.Name }
func (s *Skill) DeclName() string { return s.Name.Name }
func (*Task) declNode()           {}
func (*Skill) declNode()          {}

// Stmt is a statement inside a task, skill or loop body.
type Stmt interface {
	Node
	// Meta returns the statement's comments and blank-line flag for the
	// printer and the parser's comment attachment.
	Meta() *StmtMeta
	stmtNode()
}

// StmtMeta is layout information shared by all statements.
type StmtMeta struct {
	Comments  Comments
	BlankLine bool
}

// Meta implements Stmt.
func (m *StmtMeta) Meta() *StmtMeta { return m }

// DriverDecl is `driver name`.
type DriverDecl struct {
	StmtMeta
	Range Range
	Name  Ident
}

// InputDecl is `input name: type = default`.
type InputDecl struct {
	StmtMeta
	Range   Range
	Name    Ident
	Type    *TypeExpr
	Default Expr // nil when absent
}

// AnchorDecl is `anchor name = constructor(attrs)`.
type AnchorDecl struct {
	StmtMeta
	Range Range
	Name  Ident
	Value Expr
}

// Step is `[confirm] name = action(args)`.
type Step struct {
	StmtMeta
	Range   Range
	Confirm bool
	Name    Ident
	Value   Expr
}

// ForStmt is `for name in iterable { … }`.
type ForStmt struct {
	StmtMeta
	Range Range
	Var   Ident
	Iter  Expr
	Body  *Block
}

// IfStmt is `if cond { … } [else if cond { … }]… [else { … }]`. An
// `else if` is an IfStmt in ElseIf; at most one of ElseIf and Else is set.
type IfStmt struct {
	StmtMeta
	Range  Range
	Cond   Expr
	Then   *Block
	ElseIf *IfStmt
	Else   *Block
}

// RepeatStmt is `repeat count { … }`.
type RepeatStmt struct {
	StmtMeta
	Range Range
	Count Expr
	Body  *Block
}

// WhileStmt is `while cond [, max: n] [, within: seconds] { … }`, or
// `until cond …` when Until is set. Options are the named arguments after
// the condition.
type WhileStmt struct {
	StmtMeta
	Range   Range
	Until   bool
	Cond    Expr
	Options []*Arg
	Body    *Block
}

// Option returns the value of the named option, or nil.
func (s *WhileStmt) Option(name string) Expr {
	for _, a := range s.Options {
		if a != nil && a.Name != nil && a.Name.Name == name {
			return a.Value
		}
	}
	return nil
}

// Keyword is "while" or "until".
func (s *WhileStmt) Keyword() string {
	if s.Until {
		return "until"
	}
	return "while"
}

// JumpStmt is `break`, or `continue` when Continue is set.
type JumpStmt struct {
	StmtMeta
	Range    Range
	Continue bool
}

// Word is "break" or "continue".
func (s *JumpStmt) Word() string {
	if s.Continue {
		return "continue"
	}
	return "break"
}

// TryStmt is `try { … } fallback { … }`: when a step inside Body fails,
// the rest of Body is skipped and Fallback runs.
type TryStmt struct {
	StmtMeta
	Range    Range
	Body     *Block
	Fallback *Block
}

// ExploreStmt is `explore "goal" [, budget: n] { … }`: a step in Body whose
// target is missing makes the run explore the app for it, within the
// budget. Options are the named arguments after the goal.
type ExploreStmt struct {
	StmtMeta
	Range   Range
	Goal    *StringLit
	Options []*Arg
	Body    *Block
}

// Option returns the value of the named option, or nil.
func (s *ExploreStmt) Option(name string) Expr {
	for _, a := range s.Options {
		if a != nil && a.Name != nil && a.Name.Name == name {
			return a.Value
		}
	}
	return nil
}

// Bodies returns the blocks a statement holds, in source order: a for's
// or repeat's body, an if's branches (through its else-if chain), a try's
// body then its fallback, an explore's body; nil for statements without a
// body.
func Bodies(s Stmt) []*Block {
	switch s := s.(type) {
	case *ForStmt:
		return []*Block{s.Body}
	case *RepeatStmt:
		return []*Block{s.Body}
	case *WhileStmt:
		return []*Block{s.Body}
	case *TryStmt:
		return []*Block{s.Body, s.Fallback}
	case *ExploreStmt:
		return []*Block{s.Body}
	case *IfStmt:
		var out []*Block
		for ; s != nil; s = s.ElseIf {
			out = append(out, s.Then)
			if s.Else != nil {
				out = append(out, s.Else)
			}
		}
		return out
	}
	return nil
}

func (s *IfStmt) Rng() Range      { return s.Range }
func (s *RepeatStmt) Rng() Range  { return s.Range }
func (*IfStmt) stmtNode()         {}
func (*RepeatStmt) stmtNode()     {}
func (s *WhileStmt) Rng() Range   { return s.Range }
func (*WhileStmt) stmtNode()      {}
func (s *JumpStmt) Rng() Range    { return s.Range }
func (*JumpStmt) stmtNode()       {}
func (s *TryStmt) Rng() Range     { return s.Range }
func (*TryStmt) stmtNode()        {}
func (s *ExploreStmt) Rng() Range { return s.Range }
func (*ExploreStmt) stmtNode()    {}

func (s *DriverDecl) Rng() Range { return s.Range }
func (s *InputDecl) Rng() Range  { return s.Range }
func (s *AnchorDecl) Rng() Range { return s.Range }
func (s *Step) Rng() Range       { return s.Range }
func (s *ForStmt) Rng() Range    { return s.Range }
func (*DriverDecl) stmtNode()    {}
func (*InputDecl) stmtNode()     {}
func (*AnchorDecl) stmtNode()    {}
func (*Step) stmtNode()          {}
func (*ForStmt) stmtNode()       {}

// TypeExpr is a written type: a name, with an element type for list<T>.
type TypeExpr struct {
	Range Range
	Name  string
	Elem  *TypeExpr // for list<T>
}

// String renders the type as written.
func (t *TypeExpr) String() string {
	if t.Elem != nil {
		return t.Name + "<" + t.Elem.String() + ">"
	}
	return t.Name
}

// Ident is a name with its position, used both for declarations and for
// references.
type Ident struct {
	Range Range
	Name  string
}

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// StringLit is a string literal; Value is unquoted.
type StringLit struct {
	Range Range
	Value string
}

// NumberLit is a number literal; Raw is the text as written so that the
// printer reproduces it exactly.
type NumberLit struct {
	Range Range
	Raw   string
}

// BoolLit is true or false.
type BoolLit struct {
	Range Range
	Value bool
}

// ListLit is `[a, b, …]`.
type ListLit struct {
	Range Range
	Elems []Expr
}

// Ref is a reference to a named value: input, anchor, step, loop variable,
// parameter. As the callee of a Call it names an action, function,
// constructor or skill instead.
type Ref struct {
	Ident
}

// Member is `x.name`.
type Member struct {
	Range Range
	X     Expr
	Name  Ident
}

// Index is `x[i]`.
type Index struct {
	Range Range
	X     Expr
	Index Expr
}

// Slice is `x[lo:hi]`; Lo and Hi may be nil.
type Slice struct {
	Range  Range
	X      Expr
	Lo, Hi Expr
}

// Arg is a call argument, positional when Name is nil.
type Arg struct {
	Range Range
	Name  *Ident
	Value Expr
}

// Call is `fun(args)`. Fun is a *Ref for actions, functions, constructors and
// skills, or a *Member for method calls such as row.cell("Title").
type Call struct {
	Range Range
	Fun   Expr
	Args  []*Arg
}

// Dependency is a cognitive dependency `[main.]sub<"description">(inputs)`.
type Dependency struct {
	Range       Range
	Main        *Ident // nil when the main category is not written
	Sub         Ident
	Description *StringLit
	Inputs      []*Arg
}

// Unary is `-x` or `!x`.
type Unary struct {
	Range Range
	Op    string
	X     Expr
}

// Binary is `x op y`.
type Binary struct {
	Range Range
	Op    string
	X, Y  Expr
}

// Paren is `(x)`, kept so that the printer reproduces the person's grouping.
type Paren struct {
	Range Range
	X     Expr
}

func (e *StringLit) Rng() Range  { return e.Range }
func (e *NumberLit) Rng() Range  { return e.Range }
func (e *BoolLit) Rng() Range    { return e.Range }
func (e *ListLit) Rng() Range    { return e.Range }
func (e *Ref) Rng() Range        { return e.Range }
func (e *Member) Rng() Range     { return e.Range }
func (e *Index) Rng() Range      { return e.Range }
func (e *Slice) Rng() Range      { return e.Range }
func (e *Call) Rng() Range       { return e.Range }
func (e *Dependency) Rng() Range { return e.Range }
func (e *Unary) Rng() Range      { return e.Range }
func (e *Binary) Rng() Range     { return e.Range }
func (e *Paren) Rng() Range      { return e.Range }
func (*StringLit) exprNode()     {}
func (*NumberLit) exprNode()     {}
func (*BoolLit) exprNode()       {}
func (*ListLit) exprNode()       {}
func (*Ref) exprNode()           {}
func (*Member) exprNode()        {}
func (*Index) exprNode()         {}
func (*Slice) exprNode()         {}
func (*Call) exprNode()          {}
func (*Dependency) exprNode()    {}
func (*Unary) exprNode()         {}
func (*Binary) exprNode()        {}
func (*Paren) exprNode()         {}

// CalleeName returns the plain name a call invokes, or "" for method calls.
func (c *Call) CalleeName() string {
	if r, ok := c.Fun.(*Ref); ok {
		return r.Name
	}
	return ""
}
