package syntax

// TokenKind is what a token of .cog source is, as a tool that colours the
// source (the language server's semantic tokens) needs to know it.
type TokenKind int

// Token kinds.
const (
	TokenComment TokenKind = iota // # … to the end of the line
	TokenString                   // "…", also one not closed yet
	TokenDesc                     // a dependency's description <"…">
	TokenNumber
	TokenKeyword // a word of Keywords
	TokenIdent   // any other name
	TokenOp      // an operator or punctuation
	TokenInvalid // a character the language does not use
)

// Token is one token of the source: its kind and its byte range.
type Token struct {
	Kind        TokenKind
	Offset, End int
}

// Tokens splits src into tokens, as the parser's lexer does, white space
// left out. It never fails: text the lexer cannot read comes out as
// TokenInvalid or an unterminated TokenString, so a tool can colour a file
// that is being typed.
func Tokens(src []byte) []Token {
	raw := scanTokens(src)
	out := make([]Token, 0, len(raw))
	for _, t := range raw {
		var k TokenKind
		switch t.Kind() {
		case tokEOF:
			continue
		case tokComment:
			k = TokenComment
		case tokString, tokUnterminated:
			k = TokenString
		case tokDesc:
			k = TokenDesc
		case tokNumber:
			k = TokenNumber
		case tokIdent:
			k = TokenIdent
			if Keywords[string(src[t.Offset:t.End])] {
				k = TokenKeyword
			}
		case tokOp:
			k = TokenOp
		default:
			k = TokenInvalid
		}
		out = append(out, Token{Kind: k, Offset: int(t.Offset), End: int(t.End)})
	}
	return out
}
