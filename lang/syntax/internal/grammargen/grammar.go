// Package grammargen compiles the participle grammar of .cog files (the
// struct tags in lang/syntax/grammar.go) into a recursive-descent parser in
// Go that fills the same structs without reflection or backtracking. The
// grammar stays the one definition: participle interprets it (and writes
// every syntax error), the generated code runs it fast on well-formed files.
//
// Only the subset of participle's tag language the grammar uses is known
// here (sequences, "|", groups with ? * +, "literals", token type names,
// @ and @@ captures); anything else is an error, so that a grammar change
// the generator cannot follow fails `go generate` rather than parsing
// differently.
package grammargen

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"strconv"
	"strings"
)

// A node is one element of a struct's grammar expression.
type node interface{}

type (
	seqNode   []node
	altNode   []node
	groupNode struct {
		x    node
		mode byte // '?', '*' or '+'
	}
	litNode  struct{ value string } // a token whose text is value
	kindNode struct{ kind string }  // a token of a type, by its lexer symbol name
	capNode  struct {               // @x: what x matches goes into field
		field *field
		x     node
	}
	structNode struct{ name string } // @@: the field's struct type
)

// field is a struct field the grammar captures into.
type field struct {
	name string
	typ  string // Go type as written: *gIdent, []*gStmt, string, *string, bool
}

// grammarStruct is one participle grammar struct.
type grammarStruct struct {
	name        string
	pos, endPos bool     // has Pos / EndPos fields participle fills
	fields      []*field // the fields the grammar captures into, in order
	expr        node
	nullable    bool // the expression can match no token
	first       set  // the tokens it can begin with
}

// readGrammar extracts the grammar structs from the syntax tree of
// grammar.go: every struct type with parser tags, in source order.
func readGrammar(fset *token.FileSet, f *ast.File) ([]*grammarStruct, error) {
	var out []*grammarStruct
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			s, err := readStruct(fset, ts.Name.Name, st)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", ts.Name.Name, err)
			}
			out = append(out, s)
		}
	}
	return out, nil
}

func readStruct(fset *token.FileSet, name string, st *ast.StructType) (*grammarStruct, error) {
	s := &grammarStruct{name: name}
	var toks []tagToken
	for _, fl := range st.Fields.List {
		typ := exprString(fset, fl.Type)
		for _, n := range fl.Names {
			tag := ""
			if fl.Tag != nil {
				raw, err := strconv.Unquote(fl.Tag.Value)
				if err != nil {
					return nil, err
				}
				tag = reflect.StructTag(raw).Get("parser")
			}
			switch {
			case tag == "" && n.Name == "Pos" && typ == "lexer.Position":
				s.pos = true
			case tag == "" && n.Name == "EndPos" && typ == "lexer.Position":
				s.endPos = true
			case tag == "":
				return nil, fmt.Errorf("field %s has no parser tag", n.Name)
			default:
				f := &field{name: n.Name, typ: typ}
				s.fields = append(s.fields, f)
				ft, err := lexTag(tag, f)
				if err != nil {
					return nil, fmt.Errorf("field %s: %w", n.Name, err)
				}
				toks = append(toks, ft...)
			}
		}
	}
	tp := &tagParser{toks: toks}
	expr, err := tp.alt()
	if err != nil {
		return nil, err
	}
	if tp.i < len(tp.toks) {
		return nil, fmt.Errorf("unexpected %q in the grammar", tp.toks[tp.i].text)
	}
	s.expr = expr
	return s, nil
}

func exprString(fset *token.FileSet, e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + exprString(fset, e.X)
	case *ast.ArrayType:
		return "[]" + exprString(fset, e.Elt)
	case *ast.SelectorExpr:
		return exprString(fset, e.X) + "." + e.Sel.Name
	}
	return fmt.Sprintf("unsupported type at %s", fset.Position(e.Pos()))
}

// Struct tags. As in participle, the tags of a struct's fields form one
// expression; a capture belongs to the field whose tag holds its '@'.

type tagToken struct {
	text  string // "@@", "@", a quoted literal, a name, or one of ( ) | ? * +
	field *field
}

func lexTag(tag string, f *field) ([]tagToken, error) {
	var out []tagToken
	for i := 0; i < len(tag); {
		c := tag[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '@' && i+1 < len(tag) && tag[i+1] == '@':
			out = append(out, tagToken{"@@", f})
			i += 2
		case strings.IndexByte("@()|?*+", c) >= 0:
			out = append(out, tagToken{string(c), f})
			i++
		case c == '"':
			j := i + 1
			for j < len(tag) && tag[j] != '"' {
				if tag[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(tag) {
				return nil, fmt.Errorf("unterminated literal in %q", tag)
			}
			out = append(out, tagToken{tag[i : j+1], f})
			i = j + 1
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
			j := i
			for j < len(tag) && (tag[j] == '_' || 'a' <= tag[j] && tag[j] <= 'z' || 'A' <= tag[j] && tag[j] <= 'Z' || '0' <= tag[j] && tag[j] <= '9') {
				j++
			}
			out = append(out, tagToken{tag[i:j], f})
			i = j
		default:
			return nil, fmt.Errorf("the generator does not know %q in %q", string(c), tag)
		}
	}
	return out, nil
}

type tagParser struct {
	toks []tagToken
	i    int
}

func (p *tagParser) peek() string {
	if p.i < len(p.toks) {
		return p.toks[p.i].text
	}
	return ""
}

func (p *tagParser) alt() (node, error) {
	var alts altNode
	for {
		s, err := p.seq()
		if err != nil {
			return nil, err
		}
		alts = append(alts, s)
		if p.peek() != "|" {
			break
		}
		p.i++
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return alts, nil
}

func (p *tagParser) seq() (node, error) {
	var s seqNode
	for p.peek() != "" && p.peek() != "|" && p.peek() != ")" {
		t, err := p.term()
		if err != nil {
			return nil, err
		}
		s = append(s, t)
	}
	switch len(s) {
	case 0:
		return nil, fmt.Errorf("empty alternative")
	case 1:
		return s[0], nil
	}
	return s, nil
}

// term is an element with its modifier: as in participle, `@x?` is
// (@x)?, the modifier applying to the capture.
func (p *tagParser) term() (node, error) {
	t, err := p.bare()
	if err != nil {
		return nil, err
	}
	if m := p.peek(); m == "?" || m == "*" || m == "+" {
		p.i++
		return &groupNode{x: t, mode: m[0]}, nil
	}
	return t, nil
}

func (p *tagParser) bare() (node, error) {
	tok := p.toks[p.i]
	p.i++
	switch {
	case tok.text == "@@":
		name := strings.TrimLeft(tok.field.typ, "[]*")
		return &capNode{field: tok.field, x: &structNode{name: name}}, nil
	case tok.text == "@":
		if p.i >= len(p.toks) {
			return nil, fmt.Errorf("@ at the end of the tag")
		}
		x, err := p.bare()
		if err != nil {
			return nil, err
		}
		return &capNode{field: tok.field, x: x}, nil
	case tok.text == "(":
		x, err := p.alt()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, fmt.Errorf("group not closed")
		}
		p.i++
		return x, nil
	case strings.HasPrefix(tok.text, `"`):
		v, err := strconv.Unquote(tok.text)
		if err != nil {
			return nil, err
		}
		return &litNode{value: v}, nil
	case tok.text[0] == '_' || 'A' <= tok.text[0] && tok.text[0] <= 'Z' || 'a' <= tok.text[0] && tok.text[0] <= 'z':
		return &kindNode{kind: tok.text}, nil
	}
	return nil, fmt.Errorf("unexpected %q", tok.text)
}
