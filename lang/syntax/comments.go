package syntax

import (
	"github.com/cogflow/cogflow/lang/ast"
)

// Comment attachment. The grammar elides comments; here each one is given
// to the declaration or statement it belongs to:
//   - a comment on the line where an item ends is that item's trailing comment;
//   - a comment inside a block body goes to that block's statements;
//   - any other comment leads the next item, or becomes the tail of the
//     enclosing block or file when no item follows.
//
// A comment in the middle of a multi-line statement (between two arguments,
// say) leads that statement: the printer writes statements on one line, and
// moving the comment above keeps it without changing the statement.

// item is what comments can attach to.
type item struct {
	rng       ast.Range
	bodies    []*ast.Block // the blocks inside, in order; none for most statements
	comments  *ast.Comments
	blankLine *bool // nil for top-level declarations, always set apart
}

func (p *parser) attachFileComments(f *ast.File) {
	items := make([]item, len(f.Decls))
	for i, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Task:
			items[i] = item{rng: d.Range, bodies: []*ast.Block{d.Body}, comments: &d.Comments}
		case *ast.Skill:
			items[i] = item{rng: d.Range, bodies: []*ast.Block{d.Body}, comments: &d.Comments}
		}
	}
	f.Tail = p.attach(items, p.comments, 0)
}

func (p *parser) attachBlock(b *ast.Block, comments []ast.Comment) {
	items := make([]item, len(b.Stmts))
	for i, s := range b.Stmts {
		m := s.Meta()
		items[i] = item{rng: s.Rng(), bodies: ast.Bodies(s), comments: &m.Comments, blankLine: &m.BlankLine}
	}
	b.Tail = p.attach(items, comments, b.Range.Start.Line)
}

// attach distributes comments (sorted by position) over items and returns
// the comments left for the tail. openLine is the line of the enclosing '{'
// (0 at file level), used to decide blank-line flags.
func (p *parser) attach(items []item, comments []ast.Comment, openLine int) []ast.Comment {
	var tail []ast.Comment
	inner := make([]map[*ast.Block][]ast.Comment, len(items))
	next := 0 // index of the first item not yet ended before the comment
	for _, c := range comments {
		for next < len(items) && items[next].rng.End.Offset <= c.Range.Start.Offset {
			next++
		}
		switch {
		case next > 0 && items[next-1].rng.End.Line == c.Range.Start.Line &&
			items[next-1].comments.Trailing == nil &&
			(next == len(items) || items[next].rng.Start.Offset > c.Range.Start.Offset):
			cc := c
			items[next-1].comments.Trailing = &cc
		case next < len(items) && items[next].rng.Start.Offset < c.Range.Start.Offset:
			// Inside the item: in its body, or elsewhere within it.
			it := items[next]
			if b := bodyAt(it.bodies, c.Range.Start.Offset); b != nil {
				if inner[next] == nil {
					inner[next] = map[*ast.Block][]ast.Comment{}
				}
				inner[next][b] = append(inner[next][b], c)
			} else {
				it.comments.Leading = append(it.comments.Leading, c)
			}
		case next < len(items):
			items[next].comments.Leading = append(items[next].comments.Leading, c)
		default:
			tail = append(tail, c)
		}
	}
	prevEnd := openLine
	for i, it := range items {
		first := it.rng.Start.Line
		if len(it.comments.Leading) > 0 && it.comments.Leading[0].Range.Start.Line < first {
			first = it.comments.Leading[0].Range.Start.Line
		}
		if it.blankLine != nil {
			*it.blankLine = i > 0 && first-prevEnd > 1
		}
		if n := len(it.comments.Leading); n > 0 {
			last := it.comments.Leading[n-1].Range.Start.Line
			it.comments.Detached = last < it.rng.Start.Line-1
		}
		prevEnd = it.rng.End.Line
		for _, b := range it.bodies {
			p.attachBlock(b, inner[i][b])
		}
	}
	return tail
}

// bodyAt is the block among bodies that holds offset, or nil: a comment
// between an if's "}" and its "else" is in none.
func bodyAt(bodies []*ast.Block, offset int) *ast.Block {
	for _, b := range bodies {
		if b.Range.Start.Offset < offset && offset < b.Range.End.Offset {
			return b
		}
	}
	return nil
}
