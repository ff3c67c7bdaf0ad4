package lsp

import (
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/types"
)

// scopeName is a name a reference at the cursor may use.
type scopeName struct {
	name, kind, typ string
	decl            ast.Node
	// t is the value's type as far as the tree tells (Any when unknown).
	t types.Type
}

// namesInScope returns the names visible at byte offset off, by the
// checker's rules: declared before the cursor, in the cursor's block or
// an enclosing one; a loop's variable inside its body; a skill's
// parameters. A name declared later, or inside a block the cursor is not
// in, is not visible. The tree is the partial one: the statement being
// typed is usually missing from it, and is not visible anyway (a step
// cannot use its own value).
func namesInScope(f *ast.File, info *check.Info, text []byte, off int) []scopeName {
	if f == nil || braceDepth(text[:min(off, len(text))]) == 0 {
		return nil
	}
	var decl ast.Decl
	for _, d := range f.Decls {
		// The declaration the cursor is in (an unclosed one ends at the
		// end of the text). Not merely the last one before the cursor: when
		// the one being typed is missing from the partial tree (a broken
		// header), that would be another task, whose names are not visible.
		if r := d.Rng(); r.Start.Offset <= off && off <= r.End.Offset {
			decl = d
		}
	}
	var out []scopeName
	var body *ast.Block
	switch d := decl.(type) {
	case *ast.Task:
		body = d.Body
	case *ast.Skill:
		body = d.Body
		for _, p := range d.Params {
			out = append(out, scopeName{name: p.Name.Name, kind: "parameter", typ: typeString(p.Type), decl: p, t: typeOf(p.Type)})
		}
	default:
		return nil
	}
	return visibleIn(body, info, off, out)
}

func visibleIn(b *ast.Block, info *check.Info, off int, out []scopeName) []scopeName {
	if b == nil {
		return out
	}
	for _, s := range b.Stmts {
		r := s.Rng()
		if r.End.Offset <= off {
			out = append(out, declared(s, info)...)
			continue
		}
		if r.Start.Offset > off {
			break // declared later
		}
		// The cursor is inside s: its own name is not visible, a loop's
		// variable is in its body, and the body holding the cursor goes on.
		if fs, ok := s.(*ast.ForStmt); ok && fs.Body != nil && fs.Body.Range.Start.Offset <= off {
			t := loopVarType(fs)
			out = append(out, scopeName{name: fs.Var.Name, kind: "loop variable", typ: t.String(), decl: fs, t: t})
		}
		for _, inner := range ast.Bodies(s) {
			if inner != nil && inner.Range.Start.Offset <= off && off < inner.Range.End.Offset {
				return visibleIn(inner, info, off, out)
			}
		}
		break
	}
	return out
}

// declared is the name a statement declares for the statements after it.
func declared(s ast.Stmt, info *check.Info) []scopeName {
	switch s := s.(type) {
	case *ast.InputDecl:
		return []scopeName{{name: s.Name.Name, kind: "input", typ: typeString(s.Type), decl: s, t: typeOf(s.Type)}}
	case *ast.AnchorDecl:
		return []scopeName{{name: s.Name.Name, kind: "anchor", typ: "element", decl: s, t: types.ElementT}}
	case *ast.Step:
		typ, t := "", types.AnyT
		if info != nil {
			if st, ok := info.StepTypes[s]; ok {
				typ, t = st.String(), st
			}
		}
		return []scopeName{{name: s.Name.Name, kind: "step", typ: typ, decl: s, t: t}}
	}
	return nil
}

// typeOf is a written type as the checker's (Any when unknown).
func typeOf(t *ast.TypeExpr) types.Type {
	if t == nil {
		return types.AnyT
	}
	base, ok := types.Lookup(t.Name)
	if !ok {
		return types.AnyT
	}
	if t.Elem != nil {
		return types.ListOf(typeOf(t.Elem))
	}
	return base
}

// loopVarType is the type of a loop's items when its list comes from a
// library function (rows(…) gives elements), Any otherwise: the checker
// keeps no type for it.
func loopVarType(fs *ast.ForStmt) types.Type {
	iter := fs.Iter
	for {
		switch e := iter.(type) {
		case *ast.Slice:
			iter = e.X
			continue
		case *ast.Paren:
			iter = e.X
			continue
		case *ast.Call:
			if sig, ok := signatures()[e.CalleeName()]; ok && sig.Result.Kind == types.List && sig.Result.Elem != nil {
				return *sig.Result.Elem
			}
		}
		return types.AnyT
	}
}

func typeString(t *ast.TypeExpr) string {
	if t == nil {
		return ""
	}
	return t.String()
}

// declSource is the first line of a declaration's source, for the item's
// documentation.
func declSource(text []byte, n ast.Node) string {
	r := n.Rng()
	if r.Start.Offset < 0 || r.End.Offset > len(text) || r.End.Offset < r.Start.Offset {
		return ""
	}
	src := string(text[r.Start.Offset:r.End.Offset])
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		src = src[:i]
	}
	return strings.TrimSpace(src)
}
