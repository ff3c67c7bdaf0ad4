package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/cogflow/cogflow/lang/ast"
)

// The fast path. Participle interprets the grammar by reflection and tries
// alternatives on branches it copies, which costs about a hundred
// microseconds a step: far too slow for the large compiled workflows
// cogflow must handle. grammar_gen.go is the same grammar compiled to Go
// by internal/grammargen: one method per grammar struct, choosing by the
// next one or two tokens where participle would try and back out, and
// calling the builders of convert.go as it goes. It gives up at the first
// token it does not expect; the caller then runs participle, which writes
// every syntax error, and builds the tree from participle's structs with
// the same builders. FuzzFastPathAgrees checks that whenever the fast path
// accepts a file, participle accepts it too and the trees, ranges and
// diagnostics are identical.
//
// This file holds what the generated code calls.

// quick is the state of the generated parser.
type quick struct {
	*parser
	i       int
	scratch quickScratch
	// recovering is set for the second pass over a file the first pass
	// gave up on: then q.tryStmt and q.tryDecl drop what does not parse
	// and go on (recover.go).
	recovering bool
}

// quickFailure is where and why the fast path gave up.
type quickFailure struct {
	at       token
	expected string
}

// errQuick unwinds the generated parser; it never escapes this file.
type errQuick struct{}

// quickParse parses p.tokens (comments removed, EOF last), or returns nil
// when participle must, leaving the diagnostics as they were.
func (p *parser) quickParse() (file *ast.File) {
	q := &quick{parser: p}
	mark := len(p.diags)
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(errQuick); !mine {
				panic(r)
			}
			p.diags = p.diags[:mark]
			file = nil
		}
	}()
	file = q.parseFile()
	if q.kindAt(0) != tokEOF {
		q.fail(`"task" or "skill"`)
	}
	return file
}

// fail gives up at the current token, remembering what would have fitted:
// when participle fails too, the error that got further into the file is
// the one reported.
func (q *quick) fail(expected string) {
	q.failure = &quickFailure{at: q.tokens[q.i], expected: expected}
	panic(errQuick{})
}

// kindAt is the type of the token ahead by ahead (0 is the next one); past
// the end, EOF.
func (q *quick) kindAt(ahead int) lexer.TokenType {
	return q.tokens[min(q.i+ahead, len(q.tokens)-1)].Kind()
}

// textAt is the text of the token ahead by ahead.
func (q *quick) textAt(ahead int) string {
	t := q.tokens[min(q.i+ahead, len(q.tokens)-1)]
	return q.text[t.Offset:t.End]
}

// expectText takes the next token, which must read text.
func (q *quick) expectText(text string) string {
	if q.textAt(0) != text {
		q.fail(`"` + text + `"`)
	}
	q.i++
	return text
}

// expectKind takes the next token, which must be of type kind; what names
// kind in the message.
func (q *quick) expectKind(kind lexer.TokenType, what string) string {
	if q.kindAt(0) != kind {
		q.fail(what)
	}
	s := q.textAt(0)
	q.i++
	return s
}

// offset is where the next token begins: where a rule starting here does.
func (q *quick) offset() int { return int(q.tokens[q.i].Offset) }

// endOffset is where a rule that began at start ends: after its last
// token, or at start if it matched none.
func (q *quick) endOffset(start int) int {
	if q.i == 0 {
		return start
	}
	return max(start, int(q.tokens[q.i-1].End))
}
