// Package printer writes a syntax tree in the one canonical layout of .cog
// files, the layout `cogflow fmt` produces.
//
// The layout: one declaration or step per line, two-space indentation, one
// blank line between top-level declarations, at most one blank line kept
// between statements, `=` aligned across consecutive anchors and across
// consecutive steps, and trailing comments of consecutive lines aligned.
// Every comment the parser attached is written back, so formatting never
// loses one; printing is idempotent.
package printer

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/ast"
)

const indentUnit = "  "

// trailingGap is the space between the longest line of a run and the
// aligned trailing comments.
const trailingGap = 2

// Format returns the canonical text of a file.
func Format(f *ast.File) []byte {
	var b bytes.Buffer
	for i, d := range f.Decls {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch d := d.(type) {
		case *ast.Task:
			writeLeading(&b, "", d.Comments)
			head := "task " + d.Name.Name
			if d.Goal != nil {
				head += " " + quote(d.Goal.Value)
			}
			writeBody(&b, "", head, d.Body, d.Comments.Trailing)
		case *ast.Skill:
			writeLeading(&b, "", d.Comments)
			params := make([]string, len(d.Params))
			for j, p := range d.Params {
				params[j] = p.Name.Name + ": " + p.Type.String()
			}
			writeBody(&b, "", "skill "+d.Name.Name+"("+strings.Join(params, ", ")+")", d.Body, d.Comments.Trailing)
		}
	}
	if len(f.Tail) > 0 {
		if len(f.Decls) > 0 {
			b.WriteByte('\n')
		}
		writeComments(&b, "", f.Tail)
	}
	return b.Bytes()
}

func writeComments(b *bytes.Buffer, indent string, cs []ast.Comment) {
	for _, c := range cs {
		b.WriteString(indent)
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
}

// writeLeading writes a node's leading comments, and the blank line under
// them when the source had one.
func writeLeading(b *bytes.Buffer, indent string, cs ast.Comments) {
	writeComments(b, indent, cs.Leading)
	if cs.Detached && len(cs.Leading) > 0 {
		b.WriteByte('\n')
	}
}

// writeBody writes `head {`, the block's statements one level deeper, and
// the closing brace with the owner's trailing comment.
func writeBody(b *bytes.Buffer, indent, head string, body *ast.Block, trailing *ast.Comment) {
	b.WriteString(indent)
	b.WriteString(head)
	b.WriteString(" {\n")
	writeBlock(b, indent+indentUnit, body)
	b.WriteString(indent)
	b.WriteString("}")
	if trailing != nil {
		b.WriteString(" ")
		b.WriteString(trailing.Text)
	}
	b.WriteByte('\n')
}

// writeIf writes an if and its else-if chain as `} else if … {` and
// `} else {` on the closing brace's line.
func writeIf(b *bytes.Buffer, indent string, s *ast.IfStmt, trailing *ast.Comment) {
	b.WriteString(indent)
	for {
		b.WriteString("if " + ExprString(s.Cond) + " {\n")
		writeBlock(b, indent+indentUnit, s.Then)
		b.WriteString(indent + "}")
		if s.ElseIf != nil {
			b.WriteString(" else ")
			s = s.ElseIf
			continue
		}
		if s.Else != nil {
			b.WriteString(" else {\n")
			writeBlock(b, indent+indentUnit, s.Else)
			b.WriteString(indent + "}")
		}
		break
	}
	if trailing != nil {
		b.WriteString(" " + trailing.Text)
	}
	b.WriteByte('\n')
}

// writeTry writes a try with `} fallback {` on the closing brace's line,
// as an if writes its else.
func writeTry(b *bytes.Buffer, indent string, s *ast.TryStmt, trailing *ast.Comment) {
	b.WriteString(indent + "try {\n")
	writeBlock(b, indent+indentUnit, s.Body)
	b.WriteString(indent + "} fallback {\n")
	writeBlock(b, indent+indentUnit, s.Fallback)
	b.WriteString(indent + "}")
	if trailing != nil {
		b.WriteString(" " + trailing.Text)
	}
	b.WriteByte('\n')
}

// line is one statement rendered for alignment: Left is what stands before
// the aligned `=` (or the whole line when Right is empty).
type line struct {
	stmt        ast.Stmt
	left, right string
	kind        string // statements of the same kind align their '='
}

func writeBlock(b *bytes.Buffer, indent string, blk *ast.Block) {
	var run []line
	flush := func() {
		writeRun(b, indent, run)
		run = run[:0]
	}
	for i, s := range blk.Stmts {
		m := s.Meta()
		if i > 0 && m.BlankLine {
			flush()
			b.WriteByte('\n')
		}
		if len(m.Comments.Leading) > 0 {
			flush()
			writeLeading(b, indent, m.Comments)
		}
		if f, ok := s.(*ast.ForStmt); ok {
			flush()
			writeBody(b, indent, "for "+f.Var.Name+" in "+ExprString(f.Iter), f.Body, m.Comments.Trailing)
			continue
		}
		if r, ok := s.(*ast.RepeatStmt); ok {
			flush()
			writeBody(b, indent, "repeat "+ExprString(r.Count), r.Body, m.Comments.Trailing)
			continue
		}
		if w, ok := s.(*ast.WhileStmt); ok {
			flush()
			writeBody(b, indent, WhileHead(w), w.Body, m.Comments.Trailing)
			continue
		}
		if f, ok := s.(*ast.IfStmt); ok {
			flush()
			writeIf(b, indent, f, m.Comments.Trailing)
			continue
		}
		if t, ok := s.(*ast.TryStmt); ok {
			flush()
			writeTry(b, indent, t, m.Comments.Trailing)
			continue
		}
		if e, ok := s.(*ast.ExploreStmt); ok {
			flush()
			writeBody(b, indent, ExploreHead(e), e.Body, m.Comments.Trailing)
			continue
		}
		run = append(run, render(s))
	}
	flush()
	writeComments(b, indent, blk.Tail)
}

// WhileHead is a while's or until's first line without the brace:
// `while cond, max: 20, within: 60`.
func WhileHead(w *ast.WhileStmt) string {
	return w.Keyword() + " " + ExprString(w.Cond) + options(w.Options)
}

// ExploreHead is an explore block's first line without the brace:
// `explore "goal", budget: 30`.
func ExploreHead(e *ast.ExploreStmt) string {
	return "explore " + ExprString(e.Goal) + options(e.Options)
}

// options renders named arguments after a statement's head: `, max: 20`.
func options(args []*ast.Arg) string {
	h := ""
	for _, a := range args {
		h += ", "
		if a.Name != nil {
			h += a.Name.Name + ": "
		}
		h += ExprString(a.Value)
	}
	return h
}

func render(s ast.Stmt) line {
	switch s := s.(type) {
	case *ast.JumpStmt:
		return line{stmt: s, left: s.Word(), kind: "jump"}
	case *ast.DriverDecl:
		return line{stmt: s, left: "driver " + s.Name.Name, kind: "driver"}
	case *ast.InputDecl:
		l := "input " + s.Name.Name + ": " + s.Type.String()
		if s.Default != nil {
			l += " = " + ExprString(s.Default)
		}
		return line{stmt: s, left: l, kind: "input"}
	case *ast.AnchorDecl:
		return line{stmt: s, left: "anchor " + s.Name.Name, right: "= " + ExprString(s.Value), kind: "anchor"}
	case *ast.Step:
		// A confirm step aligns only with its confirm neighbours, so that
		// marking one step does not push every '=' around it to the right.
		if s.Confirm {
			return line{stmt: s, left: "confirm " + s.Name.Name, right: "= " + ExprString(s.Value), kind: "confirm"}
		}
		return line{stmt: s, left: s.Name.Name, right: "= " + ExprString(s.Value), kind: "step"}
	}
	return line{stmt: s}
}

// writeRun writes consecutive single-line statements: '=' aligned within
// each stretch of the same kind, trailing comments aligned across the run.
func writeRun(b *bytes.Buffer, indent string, run []line) {
	texts := make([]string, len(run))
	for i := 0; i < len(run); {
		j := i
		width := 0
		for j < len(run) && run[j].kind == run[i].kind {
			width = max(width, len(run[j].left))
			j++
		}
		for k := i; k < j; k++ {
			texts[k] = run[k].left
			if run[k].right != "" {
				texts[k] += strings.Repeat(" ", width-len(run[k].left)+1) + run[k].right
			}
		}
		i = j
	}
	col := 0
	for i, l := range run {
		if l.stmt.Meta().Comments.Trailing != nil {
			col = max(col, utf8.RuneCountInString(texts[i])+trailingGap)
		}
	}
	for i, l := range run {
		b.WriteString(indent)
		b.WriteString(texts[i])
		if c := l.stmt.Meta().Comments.Trailing; c != nil {
			b.WriteString(strings.Repeat(" ", col-utf8.RuneCountInString(texts[i])))
			b.WriteString(c.Text)
		}
		b.WriteByte('\n')
	}
}
