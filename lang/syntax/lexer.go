package syntax

import (
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// The lexer is written by hand rather than with participle's regular
// expression lexer: it runs once over the file, is several times faster,
// and reports unterminated strings and stray characters in its own words.
// It implements participle's lexer.Definition, so the grammar still names
// token types (@Ident, @String, @Desc) the usual way.

// Token types.
const (
	tokEOF lexer.TokenType = lexer.EOF - iota
	tokComment
	tokDesc
	tokString
	tokUnterminated
	tokNumber
	tokIdent
	tokOp
	tokInvalid
)

var symbols = map[string]lexer.TokenType{
	"EOF": tokEOF, "Comment": tokComment, "Desc": tokDesc, "String": tokString,
	"Unterminated": tokUnterminated, "Number": tokNumber, "Ident": tokIdent,
	"Op": tokOp, "Invalid": tokInvalid,
}

// definition is the participle lexer.Definition of .cog source. It holds
// the symbol table as a field so that package initialization builds the
// table before the parser that asks for it.
type definition struct{ symbols map[string]lexer.TokenType }

// Symbols implements lexer.Definition.
func (d definition) Symbols() map[string]lexer.TokenType { return d.symbols }

// Lex implements lexer.Definition.
func (definition) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return &tokenList{tokens: participleTokens(filename, string(src), scanTokens(src))}, nil
}

// token is the lexer's compact token: participle's lexer.Token carries a
// file name and line/column per token, three times the size, and a large
// file has hundreds of thousands of tokens. Only the participle fallback
// converts them.
//
// Tokens hold no pointers (the text is sliced from the source on demand),
// so the garbage collector never scans them.
type token struct {
	Offset, End int32
	Type        int8 // lexer.TokenType, narrowed
}

// Kind returns the participle token type.
func (t token) Kind() lexer.TokenType { return lexer.TokenType(t.Type) }

// participleTokens converts tokens for participle.
func participleTokens(filename, text string, toks []token) []lexer.Token {
	out := make([]lexer.Token, len(toks))
	for i, t := range toks {
		out[i] = lexer.Token{Type: t.Kind(), Value: text[t.Offset:t.End], Pos: lexer.Position{Filename: filename, Offset: int(t.Offset)}}
	}
	return out
}

// tokenList replays scanned tokens to participle.
type tokenList struct {
	tokens []lexer.Token
	next   int
}

// Next implements lexer.Lexer.
func (l *tokenList) Next() (lexer.Token, error) {
	if l.next >= len(l.tokens) {
		return l.tokens[len(l.tokens)-1], nil // the EOF token, again
	}
	t := l.tokens[l.next]
	l.next++
	return t, nil
}

// scanTokens splits src into tokens, whitespace dropped, ending with EOF.
// Tokens carry byte offsets; lines and columns are computed later, only
// where a diagnostic or node needs them.
func scanTokens(src []byte) []token {
	tokens := make([]token, 0, len(src)/5+1)
	for i := bomLen(src); i < len(src); {
		c := src[i]
		start := i
		var typ lexer.TokenType
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			typ = tokComment
		case c == '"':
			i, typ = scanString(src, i)
		case c == '<':
			if end, ok := scanDesc(src, i); ok {
				i, typ = end, tokDesc
			} else {
				i, typ = scanOp(src, i)
			}
		case isDigit(c):
			i, typ = scanNumber(src, i), tokNumber
		case isLetter(c):
			for i < len(src) && (isLetter(src[i]) || isDigit(src[i])) {
				i++
			}
			typ = tokIdent
		default:
			i, typ = scanOp(src, i)
		}
		tokens = append(tokens, token{Offset: int32(start), End: int32(i), Type: int8(typ)})
	}
	return append(tokens, token{Offset: int32(len(src)), End: int32(len(src)), Type: int8(tokEOF)})
}

// bomLen is the length of the byte-order mark some editors on Windows put
// first in a UTF-8 file: 3 when src begins with one, else 0. It is skipped
// like white space, and line 1 begins after it, so that columns on line 1
// are those an editor shows.
func bomLen(src []byte) int {
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		return 3
	}
	return 0
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }

// scanString scans a double-quoted string on one line; escapes are checked
// when the string is unquoted.
func scanString(src []byte, i int) (int, lexer.TokenType) {
	i++
	for i < len(src) {
		switch src[i] {
		case '"':
			return i + 1, tokString
		case '\\':
			if i+1 < len(src) && src[i+1] != '\n' {
				i += 2
				continue
			}
			return i + 1, tokUnterminated
		case '\n':
			return i, tokUnterminated
		}
		i++
	}
	return i, tokUnterminated
}

// scanDesc recognizes a dependency description `<"…">`, with optional
// blanks inside the angle brackets.
func scanDesc(src []byte, i int) (int, bool) {
	j := skipBlanks(src, i+1)
	if j >= len(src) || src[j] != '"' {
		return 0, false
	}
	end, typ := scanString(src, j)
	if typ != tokString {
		return 0, false
	}
	k := skipBlanks(src, end)
	if k >= len(src) || src[k] != '>' {
		return 0, false
	}
	return k + 1, true
}

func skipBlanks(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i
}

func scanNumber(src []byte, i int) int {
	digits := func(i int) int {
		for i < len(src) && isDigit(src[i]) {
			i++
		}
		return i
	}
	i = digits(i)
	if i+1 < len(src) && src[i] == '.' && isDigit(src[i+1]) {
		i = digits(i + 1)
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && isDigit(src[j]) {
			i = digits(j)
		}
	}
	return i
}

// twoCharOps are the operators longer than one character.
var twoCharOps = map[string]bool{"==": true, "!=": true, "<=": true, ">=": true, "&&": true, "||": true}

const oneCharOps = "-+*/%<>!=(){}[],.:"

func scanOp(src []byte, i int) (int, lexer.TokenType) {
	if i+1 < len(src) && twoCharOps[string(src[i:i+2])] {
		return i + 2, tokOp
	}
	for j := 0; j < len(oneCharOps); j++ {
		if src[i] == oneCharOps[j] {
			return i + 1, tokOp
		}
	}
	_, size := utf8.DecodeRune(src[i:])
	return i + size, tokInvalid
}
