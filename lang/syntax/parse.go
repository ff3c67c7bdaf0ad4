// Package syntax turns .cog source text into the ast package's tree.
//
// The grammar is written once, for participle, as the tagged structs of
// grammar.go. Each grammar struct gX has one hand-written builder,
// buildX in convert.go, which turns the parts of one match into the AST:
// exact source ranges, and the forms the grammar parses generally (named
// arguments, dependencies, operator precedence) sorted out. From grammar.go
// and the builders, `go generate` (internal/grammargen) writes
// grammar_gen.go: the grammar compiled to a recursive-descent parser that
// calls the builders as it goes, and the walk that calls them on the
// structs participle fills. So there are two ways to run the one grammar:
//
//   - the generated fast path parses every well-formed file, within about
//     10% of the hand-written parser it replaced and some 37 times faster
//     than participle, which interprets the grammar by reflection and
//     backtracks (10,000 steps: 47 ms against 1.8 s of CPU);
//   - participle runs when the fast path gives up; it is normative and
//     writes every syntax error.
//
// A grammar change is one edit to grammar.go (and a builder for a new
// struct), then go generate; TestGeneratedParserIsUpToDate fails until it
// is run, and FuzzFastPathAgrees checks that the two paths build the same
// tree. The package also attaches comments to the statements they belong
// to and reports every problem as a positioned diagnostic. It never panics
// on input.
package syntax

import (
	"bytes"
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
	"if": true, "else": true, "repeat": true,
	"while": true, "until": true, "break": true, "continue": true,
	"try": true, "fallback": true, "explore": true,
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
	p := &parser{filename: filename, src: src, text: string(src), lines: lineStarts(src)}
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
	text     string        // src as a string, which token values are sliced from
	tokens   []token       // without comments, ending with EOF
	tokenAt  []int32       // see tokenBefore
	lastLine int           // the line pos found last, a hint for the next
	failure  *quickFailure // where the fast path gave up, if it did
	comments []ast.Comment
	diags    diag.List
}

func (p *parser) parse(fast bool) *ast.File {
	if !p.scan() {
		return nil
	}
	var file *ast.File
	if fast {
		file = p.quickParse()
	}
	if file == nil {
		g, err := p.participleParse()
		if err != nil {
			p.syntaxError(err)
			return nil
		}
		p.failure = nil
		file = p.walkFile(g)
	}
	p.attachFileComments(file)
	return file
}

// participleParse runs the participle grammar on p.tokens.
func (p *parser) participleParse() (*gFile, error) {
	lex, err := lexer.Upgrade(&tokenList{tokens: participleTokens(p.filename, p.text, p.tokens)})
	if err != nil {
		return nil, err
	}
	return cogParser.ParseFromLexer(lex)
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
	all := scanTokens(p.src)
	p.tokens = all[:0] // filtered in place: comments are dropped, nothing else moves ahead
	var open []token   // brackets not yet closed
	balanced := true
	for _, tok := range all {
		switch tok.Kind() {
		case tokComment:
			p.comments = append(p.comments, ast.Comment{Range: p.tokRange(tok), Text: strings.TrimRight(p.val(tok), " \t\r")})
			continue
		case tokUnterminated:
			p.diags.Errorf(p.tokRange(tok), "string literal is not terminated before the end of the line")
			balanced = false // the brackets it swallowed would only confuse
		case tokInvalid:
			p.diags.Errorf(p.tokRange(tok), "unexpected character %q", p.val(tok))
			balanced = false
		case tokOp:
			if balanced {
				open, balanced = p.matchBracket(open, tok)
			}
		case tokEOF:
			if balanced && len(open) > 0 {
				o := open[len(open)-1]
				p.diags.Errorf(p.tokRange(o), "this %s is never closed; expected %s before the end of the file", p.val(o), closer[p.val(o)])
			}
		}
		p.tokens = append(p.tokens, tok)
	}
	return !p.diags.HasErrors()
}

var closer = map[string]string{"(": ")", "[": "]", "{": "}"}

// matchBracket keeps the stack of open brackets. Checking them before
// parsing names the bracket that is really at fault, the unclosed opener,
// where a parser can only say what it found instead.
func (p *parser) matchBracket(open []token, tok token) ([]token, bool) {
	v := p.val(tok)
	switch v {
	case "(", "[", "{":
		open = append(open, tok)
		if len(open) == MaxNesting+1 {
			p.diags.Errorf(p.tokRange(tok), "brackets nest more than %d deep", MaxNesting)
			return open, false
		}
	case ")", "]", "}":
		if len(open) == 0 {
			p.diags.Errorf(p.tokRange(tok), "unexpected %s: there is no open bracket to close", v)
			return open, false
		}
		o := open[len(open)-1]
		if want := closer[p.val(o)]; want != v {
			at := p.pos(int(tok.Offset))
			p.diags.Errorf(p.tokRange(o), "this %s is not closed: expected %s before the %s at line %d, column %d", p.val(o), want, v, at.Line, at.Column)
			return open, false
		}
		open = open[:len(open)-1]
	}
	return open, true
}

// syntaxError turns participle's error into a diagnostic in the language's
// own words.
func (p *parser) syntaxError(err error) {
	if p.strayElse(err) {
		return
	}
	var perr participle.Error
	if f := p.failure; f != nil && errors.As(err, &perr) && int(f.at.Offset) > perr.Position().Offset {
		msg := "unexpected " + describeToken(lexer.Token{Type: f.at.Kind(), Value: p.val(f.at)})
		if f.at.Kind() == tokEOF {
			msg = "unexpected end of file"
		}
		p.hint(p.diags.Errorf(p.tokRange(f.at), "%s, expected %s", msg, f.expected), int(f.at.Offset))
		return
	}
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		tok := ute.Unexpected
		msg := "unexpected " + describeToken(tok)
		if exp := describeExpected(expectedPart(ute.Message())); exp != "" {
			msg += ", expected " + exp
		}
		rng := p.tokRange(token{Offset: int32(tok.Pos.Offset), End: int32(tok.Pos.Offset + len(tok.Value))})
		if tok.EOF() {
			rng = p.point(len(p.src))
		}
		p.hint(p.diags.Errorf(rng, "%s", msg), tok.Pos.Offset)
		return
	}
	if errors.As(err, &perr) {
		p.diags.Errorf(p.point(perr.Position().Offset), "%s", perr.Message())
		return
	}
	p.diags.Errorf(p.point(0), "%v", err)
}

// strayElse reports an error right after an "else" that no if's branch
// precedes (the grammar read it as a step's name): say where else goes.
func (p *parser) strayElse(err error) bool {
	var perr participle.Error
	if !errors.As(err, &perr) {
		return false
	}
	at := perr.Position().Offset
	if f := p.failure; f != nil && int(f.at.Offset) > at {
		at = int(f.at.Offset)
	}
	i := p.tokenBefore(at)
	if i < 0 || p.val(p.tokens[i]) != "else" {
		return false
	}
	p.diags.Errorf(p.tokRange(p.tokens[i]), "else follows only the } of an if's branch, as in if c { … } else { … }")
	return true
}

func describeToken(tok lexer.Token) string {
	switch {
	case tok.EOF():
		return "end of file"
	case Keywords[tok.Value]:
		return fmt.Sprintf("keyword %q", tok.Value)
	case tok.Type == tokString:
		return "string " + tok.Value
	case tok.Type == tokNumber:
		return "number " + tok.Value
	case tok.Type == tokDesc:
		return "description " + tok.Value
	}
	return fmt.Sprintf("%q", tok.Value)
}

// expectedPart extracts what participle says it expected from its message
// `unexpected token "x" (expected …)`.
func expectedPart(msg string) string {
	i := strings.LastIndex(msg, "(expected ")
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return ""
	}
	return msg[i+len("(expected ") : len(msg)-1]
}

// grammarWords names participle's grammar fragments in words a person reads.
var grammarWords = map[string]string{
	"<ident>": "a name", "<string>": "a string", "<number>": "a number",
	"<desc>": `a description <"…">`, "GIdent": "a name", "GString": "a string",
	"GExpr": "a value", "GType": "a type", "GBlock": `"{"`, "GArgs": `"("`,
	"GStmt": "a statement", "GParam": "a parameter", "GDecl": `"task" or "skill"`,
	"GIf": `"if"`, "GElse": `"if" or "{"`, "GRepeat": `"repeat"`, "GWhile": `"while" or "until"`, "GJump": `"break" or "continue"`,
	"GTry": `"try"`, "GExplore": `"explore"`,
	"GUnary": "a value", "GPostfix": "a value", "GPrimary": "a value",
}

// describeExpected turns what participle expected, a grammar fragment such
// as `":" GType ("=" GExpr)?`, into what could come next: its first item.
func describeExpected(exp string) string {
	exp = strings.TrimSpace(exp)
	if exp == "" {
		return ""
	}
	first := exp
	if strings.HasPrefix(first, `"`) {
		if end := strings.Index(first[1:], `"`); end >= 0 {
			first = first[:end+2]
		}
	} else if i := strings.IndexAny(first, " ?*+|()"); i > 0 {
		first = first[:i]
	}
	if words, ok := grammarWords[first]; ok {
		return words
	}
	if strings.HasPrefix(first, `"`) {
		return first
	}
	return ""
}

// Positions. Participle's positions count columns its own way; the
// language's are bytes from the line start, computed here from offsets.

func lineStarts(src []byte) []int {
	starts := make([]int, 1, bytes.Count(src, []byte{'\n'})+1)
	starts[0] = bomLen(src)
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
	offset = max(offset, p.lines[0]) // not inside a byte-order mark
	// Positions are asked for mostly in file order: try the line of the
	// previous answer and the next one before searching.
	line := p.lastLine
	switch {
	case p.onLine(line, offset):
	case p.onLine(line+1, offset):
		line++
	default:
		line = sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > offset }) - 1
	}
	p.lastLine = line
	return ast.Pos{Line: line + 1, Column: offset - p.lines[line] + 1, Offset: offset}
}

func (p *parser) onLine(line, offset int) bool {
	return line < len(p.lines) && p.lines[line] <= offset && (line+1 == len(p.lines) || offset < p.lines[line+1])
}

// tokenBefore is the index of the last token that starts before offset,
// or -1. Every node has its end looked up, so the answer comes from a
// table of token starts by offset, built on first use, rather than a
// search.
func (p *parser) tokenBefore(offset int) int {
	if p.tokenAt == nil {
		p.tokenAt = make([]int32, len(p.src)+1)
		next := 0
		for i := range p.tokenAt {
			for next < len(p.tokens) && int(p.tokens[next].Offset) < i {
				next++
			}
			p.tokenAt[i] = int32(next) // the first token starting at i or later
		}
	}
	return int(p.tokenAt[min(max(offset, 0), len(p.src))]) - 1
}

func (p *parser) point(offset int) ast.Range {
	at := p.pos(offset)
	return ast.Range{Filename: p.filename, Start: at, End: at}
}

func (p *parser) tokRange(tok token) ast.Range {
	return ast.Range{Filename: p.filename, Start: p.pos(int(tok.Offset)), End: p.pos(int(tok.End))}
}

// val is a token's text.
func (p *parser) val(tok token) string { return p.text[tok.Offset:tok.End] }
