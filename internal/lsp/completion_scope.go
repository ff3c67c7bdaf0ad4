package lsp

import (
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
)

// scopeName is a name a reference at the cursor may use.
type scopeName struct {
	name, kind, typ string
	decl            ast.Node
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
		if d.Rng().Start.Offset <= off {
			decl = d // the last declaration that starts before the cursor
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
			out = append(out, scopeName{name: p.Name.Name, kind: "parameter", typ: typeString(p.Type), decl: p})
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
			out = append(out, scopeName{name: fs.Var.Name, kind: "loop variable", typ: "element", decl: fs})
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
		return []scopeName{{name: s.Name.Name, kind: "input", typ: typeString(s.Type), decl: s}}
	case *ast.AnchorDecl:
		return []scopeName{{name: s.Name.Name, kind: "anchor", typ: "element", decl: s}}
	case *ast.Step:
		typ := ""
		if info != nil {
			if t, ok := info.StepTypes[s]; ok {
				typ = t.String()
			}
		}
		return []scopeName{{name: s.Name.Name, kind: "step", typ: typ, decl: s}}
	}
	return nil
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
