package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

func init() {
	register("textDocument/documentSymbol", documentSymbol, func(caps map[string]any) {
		caps["documentSymbolProvider"] = map[string]any{"label": "cogflow"}
	})
	register("textDocument/foldingRange", foldingRange, func(caps map[string]any) { caps["foldingRangeProvider"] = true })
}

// The protocol's symbol kinds that the outline uses.
const (
	symKindModule    = 2  // task
	symKindNamespace = 3  // a control-flow block
	symKindProperty  = 7  // anchor
	symKindField     = 8  // input
	symKindFunction  = 12 // skill
	symKindVariable  = 13 // step, parameter, loop variable
)

// DocumentSymbol is one entry of the outline, with the entries inside it.
type DocumentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          Range            `json:"range"`
	SelectionRange Range            `json:"selectionRange"`
	Children       []DocumentSymbol `json:"children,omitempty"`
}

// documentSymbol is the outline: tasks and skills, and in each its
// inputs, anchors, steps and control-flow blocks, nested as written.
func documentSymbol(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	d, err := requestedDocument(s, params)
	if err != nil {
		return nil, err
	}
	return navDocumentSymbols(d), nil
}

// navDocumentSymbols is the document's outline.
func navDocumentSymbols(d *Document) []DocumentSymbol {
	out := []DocumentSymbol{}
	if d.File == nil {
		return out
	}
	for _, decl := range d.File.Decls {
		switch decl := decl.(type) {
		case *ast.Task:
			if decl.Name.Name == "" {
				continue
			}
			sym := navSymbol(d, decl.Name.Name, "", symKindModule, decl.Range, decl.Name.Range)
			if decl.Goal != nil {
				sym.Detail = decl.Goal.Value
			}
			sym.Children = navSymbols(d, decl.Body)
			out = append(out, sym)
		case *ast.Skill:
			if decl.Name.Name == "" {
				continue
			}
			sym := navSymbol(d, decl.Name.Name, "skill", symKindFunction, decl.Range, decl.Name.Range)
			for _, prm := range decl.Params {
				if prm != nil && prm.Name.Name != "" && prm.Type != nil {
					sym.Children = append(sym.Children, navSymbol(d, prm.Name.Name, prm.Type.String(), symKindVariable, prm.Range, prm.Name.Range))
				}
			}
			sym.Children = append(sym.Children, navSymbols(d, decl.Body)...)
			out = append(out, sym)
		}
	}
	return out
}

func navSymbol(d *Document, name, detail string, kind int, rng, sel ast.Range) DocumentSymbol {
	return DocumentSymbol{Name: name, Detail: detail, Kind: kind, Range: d.Range(rng), SelectionRange: d.Range(sel)}
}

// navSymbols lists the outline entries of a block's statements.
func navSymbols(d *Document, b *ast.Block) []DocumentSymbol {
	if b == nil {
		return nil
	}
	var out []DocumentSymbol
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ast.InputDecl:
			if st.Name.Name != "" && st.Type != nil {
				out = append(out, navSymbol(d, st.Name.Name, "input "+st.Type.String(), symKindField, st.Range, st.Name.Range))
			}
		case *ast.AnchorDecl:
			if st.Name.Name != "" {
				out = append(out, navSymbol(d, st.Name.Name, "anchor "+navShort(printer.ExprString(st.Value)), symKindProperty, st.Range, st.Name.Range))
			}
		case *ast.Step:
			if st.Name.Name != "" {
				out = append(out, navSymbol(d, st.Name.Name, navShort(printer.ExprString(st.Value)), symKindVariable, st.Range, st.Name.Range))
			}
		case *ast.IfStmt:
			out = append(out, navIfSymbols(d, st)...)
		case *ast.TryStmt:
			sym := navBlockSymbol(d, st, "try", st.Body)
			if st.Fallback != nil {
				fb := navBlockSymbol(d, st, "fallback", st.Fallback)
				fb.Range, fb.SelectionRange = d.Range(st.Fallback.Range), navFirstWord(d, st.Fallback.Range)
				sym.Children = append(sym.Children, fb)
			}
			out = append(out, sym)
		default:
			if bodies := ast.Bodies(st); len(bodies) == 1 {
				sym := navBlockSymbol(d, st, navStmtTitle(d, st), bodies[0])
				out = append(out, sym)
			}
		}
	}
	return out
}

// navIfSymbols gives an if one entry per branch: "if …", "else if …",
// "else", each holding its steps.
func navIfSymbols(d *Document, s *ast.IfStmt) []DocumentSymbol {
	sym := navBlockSymbol(d, s, navStmtTitle(d, s), s.Then)
	sym.Range = d.Range(s.Range)
	for x := s; x != nil; x = x.ElseIf {
		if x != s && x.Then != nil {
			br := navBlockSymbol(d, x, "else if "+navShort(printer.ExprString(x.Cond)), x.Then)
			sym.Children = append(sym.Children, br)
		}
		if x.Else != nil {
			br := navBlockSymbol(d, x, "else", x.Else)
			br.Range, br.SelectionRange = d.Range(x.Else.Range), navFirstWord(d, x.Else.Range)
			sym.Children = append(sym.Children, br)
		}
	}
	return []DocumentSymbol{sym}
}

// navBlockSymbol is a control-flow statement's entry, titled by its first
// line, holding its body's entries.
func navBlockSymbol(d *Document, st ast.Node, title string, body *ast.Block) DocumentSymbol {
	sym := DocumentSymbol{Name: title, Kind: symKindNamespace, Range: d.Range(st.Rng()), SelectionRange: navFirstWord(d, st.Rng())}
	sym.Children = navSymbols(d, body)
	return sym
}

// navStmtTitle is a control-flow statement's head as written: its line
// up to the block's brace, e.g. `for row in rows(table(name: "Orders"))`.
func navStmtTitle(d *Document, st ast.Stmt) string {
	line := strings.TrimSpace(navLine(d, st.Rng().Start.Line))
	line = strings.TrimSpace(strings.TrimSuffix(line, "{"))
	if line == "" {
		line = "block"
	}
	return navShort(line)
}

// navFirstWord is the range of the word a statement starts with (its
// keyword), the part an editor highlights when the entry is picked.
func navFirstWord(d *Document, r ast.Range) Range {
	end := r.Start.Offset
	for end < len(d.Text) && end < r.End.Offset && d.Text[end] >= 'a' && d.Text[end] <= 'z' {
		end++
	}
	if end == r.Start.Offset && end < r.End.Offset {
		end++ // a block's "{"
	}
	return Range{Start: d.Lines.Position(r.Start.Offset), End: d.Lines.Position(end)}
}

// navShort cuts a detail to one short line.
func navShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return s
}

// FoldingRange is a range of lines an editor can fold.
type FoldingRange struct {
	StartLine uint32 `json:"startLine"`
	EndLine   uint32 `json:"endLine"`
	Kind      string `json:"kind,omitempty"`
}

// foldingRange folds every block (tasks, skills, loops, branches) from the
// line of its "{" to the line before its "}", which stays visible, and
// every run of two or more full-line comments.
func foldingRange(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	d, err := requestedDocument(s, params)
	if err != nil {
		return nil, err
	}
	f := &navFolder{d: d, out: []FoldingRange{}}
	if d.File == nil {
		return f.out, nil
	}
	for _, decl := range d.File.Decls {
		switch decl := decl.(type) {
		case *ast.Task:
			f.comments(decl.Comments.Leading)
			f.block(decl.Body)
		case *ast.Skill:
			f.comments(decl.Comments.Leading)
			f.block(decl.Body)
		}
	}
	f.comments(d.File.Tail)
	return f.out, nil
}

type navFolder struct {
	d   *Document
	out []FoldingRange
}

func (f *navFolder) block(b *ast.Block) {
	if b == nil {
		return
	}
	r := f.d.Range(b.Range)
	if r.End.Line > r.Start.Line+1 {
		f.out = append(f.out, FoldingRange{StartLine: r.Start.Line, EndLine: r.End.Line - 1, Kind: "region"})
	}
	for _, st := range b.Stmts {
		f.comments(st.Meta().Comments.Leading)
		for _, body := range ast.Bodies(st) {
			f.block(body)
		}
	}
	f.comments(b.Tail)
}

// comments folds each run of comments on consecutive lines.
func (f *navFolder) comments(cs []ast.Comment) {
	for i := 0; i < len(cs); {
		j := i
		for j+1 < len(cs) && cs[j+1].Range.Start.Line == cs[j].Range.Start.Line+1 {
			j++
		}
		if j > i {
			f.out = append(f.out, FoldingRange{StartLine: uint32(cs[i].Range.Start.Line - 1), EndLine: uint32(cs[j].Range.Start.Line - 1), Kind: "comment"})
		}
		i = j + 1
	}
}
