package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
)

// The semantic token types, in the legend's order (the index is what the
// encoded array carries). Standard type names, so that every client's
// theme colours them without configuration: a dependency's category is a
// "macro", since, like one, it stands for work done elsewhere (the
// answerer).
var navTokenTypes = []string{
	"keyword", "comment", "string", "number",
	"function",  // actions, library functions, skills
	"variable",  // steps, loop variables
	"parameter", // inputs, skill parameters
	"property",  // anchors
	"macro",     // a dependency's main category and subcategory
	"type",      // types written in inputs and parameters
	"class",     // element constructors and predicates
	"namespace", // task names
}

// The token modifiers, as bits in the legend's order.
var navTokenModifiers = []string{"declaration", "readonly", "defaultLibrary"}

const (
	modDeclaration = 1 << iota
	modReadonly
	modDefaultLibrary
)

func navTokenType(name string) int {
	for i, t := range navTokenTypes {
		if t == name {
			return i
		}
	}
	panic("lsp: no semantic token type " + name)
}

func init() {
	register("textDocument/semanticTokens/full", semanticTokensFull, func(caps map[string]any) {
		caps["semanticTokensProvider"] = map[string]any{
			"legend": map[string]any{"tokenTypes": navTokenTypes, "tokenModifiers": navTokenModifiers},
			"full":   true,
		}
	})
}

// SemanticTokens is the protocol's encoded token list: five integers per
// token (line delta, start delta, length, type, modifiers), positions in
// UTF-16 code units.
type SemanticTokens struct {
	Data []uint32 `json:"data"`
}

// navTok is a token before encoding: a byte range and its class.
type navTok struct {
	start, end int
	typ, mods  int
}

// semanticTokensFull colours the document. Comments, strings, numbers and
// keywords come from the lexer (syntax.Tokens), so they are coloured also
// where the tree has a hole; a name is coloured by what the checker
// resolved it to, so a step and an anchor look different wherever used.
func semanticTokensFull(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	d, err := requestedDocument(s, params)
	if err != nil {
		return nil, err
	}
	return SemanticTokens{Data: navSemanticData(d)}, nil
}

// navSemanticData is the document's encoded tokens.
func navSemanticData(d *Document) []uint32 {
	names := navNameClasses(d)
	var toks []navTok
	for _, t := range syntax.Tokens(d.Text) {
		typ := ""
		switch t.Kind {
		case syntax.TokenComment:
			typ = "comment"
		case syntax.TokenString, syntax.TokenDesc:
			typ = "string"
		case syntax.TokenNumber:
			typ = "number"
		case syntax.TokenKeyword:
			typ = "keyword"
		case syntax.TokenIdent:
			if c, ok := names[t.Offset]; ok {
				toks = append(toks, navTok{start: t.Offset, end: t.End, typ: c.typ, mods: c.mods})
			}
			continue
		default:
			continue
		}
		toks = append(toks, navTok{start: t.Offset, end: t.End, typ: navTokenType(typ)})
	}
	sort.Slice(toks, func(i, j int) bool { return toks[i].start < toks[j].start })
	return navEncode(d, toks)
}

// navNameClasses classifies the names of the tree, by their start offset.
func navNameClasses(d *Document) map[int]navTok {
	out := map[int]navTok{}
	set := func(id ast.Ident, typ string, mods int) {
		if id.Name != "" && id.Range.Start.IsValid() {
			out[id.Range.Start.Offset] = navTok{typ: navTokenType(typ), mods: mods}
		}
	}
	ix := newNavIndex(d)
	for _, o := range ix.occs {
		mods := 0
		if o.isDecl {
			mods = modDeclaration
		}
		switch o.decl.(type) {
		case *ast.Step:
			set(o.id, "variable", mods)
		case *ast.ForStmt:
			set(o.id, "variable", mods|modReadonly)
		case *ast.InputDecl, *ast.Param:
			set(o.id, "parameter", mods|modReadonly)
		case *ast.AnchorDecl:
			set(o.id, "property", mods|modReadonly)
		case *ast.Skill:
			set(o.id, "function", mods)
		case *ast.Task:
			set(o.id, "namespace", mods)
		}
	}
	funcs := navFuncSigs()
	for _, c := range ix.calls {
		r, ok := c.call.Fun.(*ast.Ref)
		if !ok || ix.skills[r.Name] != nil {
			continue
		}
		_, isFunc := funcs[r.Name]
		switch {
		case check.Actions[r.Name] != nil:
			set(r.Ident, "function", modDefaultLibrary)
		case check.ElementRoles[r.Name] || check.ElementPredicates[r.Name]:
			set(r.Ident, "class", modDefaultLibrary)
		case isFunc:
			set(r.Ident, "function", modDefaultLibrary)
		}
	}
	for _, dep := range ix.deps {
		if dep.Main != nil {
			set(*dep.Main, "macro", 0)
		}
		set(dep.Sub, "macro", 0)
	}
	var typeExpr func(t *ast.TypeExpr)
	typeExpr = func(t *ast.TypeExpr) {
		if t != nil {
			set(ast.Ident{Name: t.Name, Range: t.Range}, "type", 0)
			typeExpr(t.Elem)
		}
	}
	for _, o := range ix.occs {
		switch n := o.decl.(type) {
		case *ast.InputDecl:
			if o.isDecl {
				typeExpr(n.Type)
			}
		case *ast.Param:
			if o.isDecl {
				typeExpr(n.Type)
			}
		}
	}
	return out
}

// navEncode writes tokens, sorted by start, as the protocol's relative
// integers, in one pass over the text. A token that spans lines (none
// does in .cog today; a future multi-line string would) is cut at each
// line break, since clients draw one line per token.
func navEncode(d *Document, toks []navTok) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	var line, char uint32 // the position of offset at
	at := 0
	var prevLine, prevChar uint32
	// advance moves at to off, counting lines and UTF-16 units.
	advance := func(off int) {
		for at < off {
			r, size := utf8.DecodeRune(d.Text[at:])
			if r == '\n' || loneCR(d.Text, at) {
				line, char = line+1, 0
			} else {
				char += uint32(utf16Len(r))
			}
			at += size
		}
	}
	emit := func(startLine, startChar, endChar uint32, t navTok) {
		if endChar <= startChar {
			return
		}
		dl, dc := startLine-prevLine, startChar
		if dl == 0 {
			dc = startChar - prevChar
		}
		data = append(data, dl, dc, endChar-startChar, uint32(t.typ), uint32(t.mods))
		prevLine, prevChar = startLine, startChar
	}
	for _, t := range toks {
		if t.start < at {
			continue // overlaps the previous token
		}
		advance(t.start)
		startLine, startChar := line, char
		for at < t.end {
			if d.Text[at] == '\n' || loneCR(d.Text, at) {
				end := char
				if d.Text[at] == '\n' && at > 0 && d.Text[at-1] == '\r' && end > 0 {
					end-- // the \r before the break is not part of the line
				}
				emit(startLine, startChar, end, t)
				advance(at + 1)
				startLine, startChar = line, char
				continue
			}
			advance(at + 1) // a whole character, whatever its size
		}
		emit(startLine, startChar, char, t)
	}
	return data
}

// loneCR reports whether text[i] is a "\r" not followed by "\n": a line
// break of its own for the client (see LineIndex).
func loneCR(text []byte, i int) bool {
	return text[i] == '\r' && (i+1 == len(text) || text[i+1] != '\n')
}
