// Package syntax turns .cog source text into the ast package's tree.
//
// The grammar is written for participle; this package runs it, translates
// participle's structs into the language's own AST with exact source ranges,
// sorts out the forms the grammar parses generally (named arguments,
// dependencies), attaches comments to the statements they belong to, and
// reports every problem as a positioned diagnostic. It never panics on input.
package syntax

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
)

// MaxNesting bounds how deeply brackets may nest. The grammar is recursive
// descent, and without a bound a hostile file of a million '(' would exhaust
// the stack, which Go cannot recover from.
const MaxNesting = 64

// Keywords cannot be used as names.
var Keywords = map[string]bool{
	"task": true, "skill": true, "driver": true, "input": true, "anchor": true,
	"confirm": true, "for": true, "in": true, "true": true, "false": true,
}

// Parse parses one source file. It returns the tree (nil when the source
// has syntax errors) and the diagnostics, sorted by position.
func Parse(filename string, src []byte) (*ast.File, diag.List) {
	return parse(filename, src, true)
}

// parse runs the front end; fast selects the hand-written fast path with
// participle as the fallback, otherwise participle alone (for tests that
// compare the two).
func parse(filename string, src []byte, fast bool) (*ast.File, diag.List) {
	p := &parser{filename: filename, src: src, lines: lineStarts(src)}
	file := p.parse(fast)
	p.diags.Sort()
	if p.diags.HasErrors() {
		return nil, p.diags
	}
	return file, p.diags
}

type parser struct {
	filename string
	src      []byte
	lines    []int         // byte offset of each line start
	tokens   []lexer.Token // without comments, ending with EOF
	comments []ast.Comment
	diags    diag.List
}

func (p *parser) parse(fast bool) *ast.File {
	if !p.scan() {
		return nil
	}
	g, ok := (*gFile)(nil), false
	if fast {
		g, ok = fastParse(p.tokens)
	}
	if !ok {
		lex, err := lexer.Upgrade(&tokenList{tokens: p.tokens})
		if err != nil {
			p.diags.Errorf(p.point(0), "%v", err)
			return nil
		}
		if g, err = cogParser.ParseFromLexer(lex); err != nil {
			p.syntaxError(err)
			return nil
		}
	}
	file := &ast.File{Name: p.filename}
	for _, d := range g.Decls {
		if d.Task != nil {
			file.Decls = append(file.Decls, p.task(d.Task))
		} else if d.Skill != nil {
			file.Decls = append(file.Decls, p.skill(d.Skill))
		}
	}
	p.attachFileComments(file)
	return file
}

// scan lexes the whole file once: it collects the comments the grammar
// does not see, and reports lexical errors and excessive nesting with
// messages better than a generic "unexpected token".
func (p *parser) scan() bool {
	if !utf8.Valid(p.src) {
		at := 0
		for at < len(p.src) {
			r, size := utf8.DecodeRune(p.src[at:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			at += size
		}
		p.diags.Errorf(p.point(at), "source is not valid UTF-8 (byte 0x%02x)", p.src[at])
		return false
	}
	all := scanTokens(p.filename, p.src)
	p.tokens = all[:0] // filtered in place: comments are dropped, nothing else moves ahead
	depth := 0
	for _, tok := range all {
		switch tok.Type {
		case tokComment:
			p.comments = append(p.comments, ast.Comment{Range: p.rangeOf(tok), Text: strings.TrimRight(tok.Value, " \t\r")})
			continue
		case tokUnterminated:
			p.diags.Errorf(p.rangeOf(tok), "string literal is not terminated before the end of the line")
		case tokInvalid:
			p.diags.Errorf(p.rangeOf(tok), "unexpected character %q", tok.Value)
		case tokOp:
			switch tok.Value {
			case "(", "[", "{":
				depth++
				if depth == MaxNesting+1 {
					p.diags.Errorf(p.rangeOf(tok), "brackets nest more than %d deep", MaxNesting)
				}
			case ")", "]", "}":
				depth = max(depth-1, 0)
			}
		}
		p.tokens = append(p.tokens, tok)
	}
	return !p.diags.HasErrors()
}

// syntaxError turns participle's error into a diagnostic in the language's
// own words.
func (p *parser) syntaxError(err error) {
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		tok := ute.Unexpected
		what := describeToken(tok)
		msg := "unexpected " + what
		if exp := describeExpected(ute.Expect); exp != "" {
			msg += ", expected " + exp
		}
		rng := p.rangeOf(tok)
		if tok.EOF() {
			rng = p.point(len(p.src))
		}
		p.diags.Errorf(rng, "%s", msg)
		return
	}
	var perr participle.Error
	if errors.As(err, &perr) {
		p.diags.Errorf(p.point(perr.Position().Offset), "%s", perr.Message())
		return
	}
	p.diags.Errorf(p.point(0), "%v", err)
}

func describeToken(tok lexer.Token) string {
	if tok.EOF() {
		return "end of file"
	}
	if Keywords[tok.Value] {
		return fmt.Sprintf("keyword %q", tok.Value)
	}
	return fmt.Sprintf("%q", tok.Value)
}

// describeExpected rewrites participle's grammar fragments ("<ident>",
// "\"}\"") into words a person reads.
func describeExpected(exp string) string {
	r := strings.NewReplacer(
		"<ident>", "a name", "<string>", "a string", "<number>", "a number",
		"<desc>", `a description <"…">`, "<ident> | ", "a name or ",
	)
	return r.Replace(exp)
}

// Positions. Participle's positions count columns its own way; the
// language's are bytes from the line start, computed here from offsets.

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func (p *parser) pos(offset int) ast.Pos {
	if offset > len(p.src) {
		offset = len(p.src)
	}
	line := sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > offset }) - 1
	return ast.Pos{Line: line + 1, Column: offset - p.lines[line] + 1, Offset: offset}
}

// span is the range of a grammar node. Participle's end position is the
// start of the token after the node; the node really ends where its own
// last token does.
func (p *parser) span(start, end lexer.Position) ast.Range {
	last := sort.Search(len(p.tokens), func(i int) bool { return p.tokens[i].Pos.Offset >= end.Offset }) - 1
	endOff := start.Offset
	if last >= 0 {
		endOff = max(endOff, p.tokens[last].Pos.Offset+len(p.tokens[last].Value))
	}
	return ast.Range{Filename: p.filename, Start: p.pos(start.Offset), End: p.pos(endOff)}
}

func (p *parser) point(offset int) ast.Range {
	at := p.pos(offset)
	return ast.Range{Filename: p.filename, Start: at, End: at}
}

func (p *parser) rangeOf(tok lexer.Token) ast.Range {
	return ast.Range{Filename: p.filename, Start: p.pos(tok.Pos.Offset), End: p.pos(tok.Pos.Offset + len(tok.Value))}
}
