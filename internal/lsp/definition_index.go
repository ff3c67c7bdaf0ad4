package lsp

import (
	"github.com/cogflow/cogflow/lang/ast"
)

// navIndex is what the reading features (hover, definition, references,
// rename, signature help) know of one document: every name as declared
// and as used, every call and dependency, each with the task or skill it
// is in. It is built from the partial tree and the checker's Info.Refs,
// so a file with a syntax error elsewhere still answers, and a name
// resolves exactly as `cogflow check` resolved it.
type navIndex struct {
	d      *Document
	occs   []navOcc
	calls  []navCall
	deps   []*ast.Dependency
	steps  []*ast.Step
	skills map[string]*ast.Skill
}

// navOcc is one occurrence of a declared name: its declaration, or a use.
type navOcc struct {
	id ast.Ident
	// decl is the declaration: *ast.InputDecl, *ast.AnchorDecl, *ast.Step,
	// *ast.ForStmt (its loop variable), *ast.Param, *ast.Skill or *ast.Task.
	decl   ast.Node
	isDecl bool
	owner  ast.Decl // the task or skill it is in (the declaration itself for a top-level name)
}

// navCall is a call, with the task or skill it is in.
type navCall struct {
	call  *ast.Call
	owner ast.Decl
}

// newNavIndex walks the document's tree. It is cheap (one pass, no
// allocation per expression beyond the slices), so every request builds
// its own rather than sharing a cache that could outlive its document.
func newNavIndex(d *Document) *navIndex {
	ix := &navIndex{d: d, skills: map[string]*ast.Skill{}}
	if d.File == nil {
		return ix
	}
	for _, decl := range d.File.Decls {
		if s, ok := decl.(*ast.Skill); ok && ix.skills[s.Name.Name] == nil {
			ix.skills[s.Name.Name] = s
		}
	}
	for _, decl := range d.File.Decls {
		switch decl := decl.(type) {
		case *ast.Task:
			ix.add(decl.Name, decl, true, decl)
			ix.block(decl.Body, decl)
		case *ast.Skill:
			ix.add(decl.Name, decl, true, decl)
			for _, p := range decl.Params {
				if p != nil {
					ix.add(p.Name, p, true, decl)
				}
			}
			ix.block(decl.Body, decl)
		}
	}
	return ix
}

func (ix *navIndex) add(id ast.Ident, decl ast.Node, isDecl bool, owner ast.Decl) {
	if id.Name == "" || !id.Range.Start.IsValid() {
		return
	}
	ix.occs = append(ix.occs, navOcc{id: id, decl: decl, isDecl: isDecl, owner: owner})
}

func (ix *navIndex) block(b *ast.Block, owner ast.Decl) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.InputDecl:
			ix.add(s.Name, s, true, owner)
		case *ast.AnchorDecl:
			ix.add(s.Name, s, true, owner)
		case *ast.Step:
			ix.add(s.Name, s, true, owner)
			ix.steps = append(ix.steps, s)
		case *ast.ForStmt:
			ix.add(s.Var, s, true, owner)
		}
		for _, e := range ast.Exprs(s) {
			ix.expr(e, owner)
		}
		for _, body := range ast.Bodies(s) {
			ix.block(body, owner)
		}
	}
}

func (ix *navIndex) expr(e ast.Expr, owner ast.Decl) {
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Ref:
			if ix.d.Info != nil {
				if decl, ok := ix.d.Info.Refs[x]; ok {
					ix.add(x.Ident, decl, false, owner)
				}
			}
		case *ast.Call:
			ix.calls = append(ix.calls, navCall{call: x, owner: owner})
			if r, ok := x.Fun.(*ast.Ref); ok && ix.skills[r.Name] != nil {
				ix.add(r.Ident, ix.skills[r.Name], false, owner)
			}
		case *ast.Dependency:
			ix.deps = append(ix.deps, x)
		}
		return true
	})
}

// contains reports whether offset off is inside r or just at its end
// (a cursor right after a name is on it, as editors place it).
func navContains(r ast.Range, off int) bool {
	return r.Start.IsValid() && r.Start.Offset <= off && off <= r.End.Offset
}

// occAt returns the occurrence of a name at off, or nil.
func (ix *navIndex) occAt(off int) *navOcc {
	var best *navOcc
	for i := range ix.occs {
		o := &ix.occs[i]
		if navContains(o.id.Range, off) && (best == nil || o.id.Range.Start.Offset > best.id.Range.Start.Offset) {
			best = o // the later one wins at a boundary: `a,b` with the cursor on b's start
		}
	}
	return best
}

// uses returns every occurrence of decl, its declaration included.
func (ix *navIndex) uses(decl ast.Node) []navOcc {
	var out []navOcc
	for _, o := range ix.occs {
		if o.decl == decl {
			out = append(out, o)
		}
	}
	return out
}

// callAt returns the innermost call whose range holds off, or nil.
func (ix *navIndex) callAt(off int) *navCall {
	var best *navCall
	for i := range ix.calls {
		c := &ix.calls[i]
		if navContains(c.call.Range, off) && (best == nil || c.call.Range.Start.Offset >= best.call.Range.Start.Offset) {
			best = c
		}
	}
	return best
}

// calleeAt returns the call whose callee name is at off, or nil.
func (ix *navIndex) calleeAt(off int) *ast.Call {
	for _, c := range ix.calls {
		if r, ok := c.call.Fun.(*ast.Ref); ok && navContains(r.Range, off) {
			return c.call
		}
	}
	return nil
}

// depHeadAt returns the dependency whose head — [main.]sub<"description"> —
// holds off, or nil; its inputs are other expressions.
func (ix *navIndex) depHeadAt(off int) *ast.Dependency {
	for _, dep := range ix.deps {
		head := dep.Sub.Range
		if dep.Main != nil {
			head = head.Span(dep.Main.Range)
		}
		if dep.Description != nil {
			head = head.Span(dep.Description.Range)
		}
		if navContains(head, off) {
			return dep
		}
	}
	return nil
}

// stepOf returns the step whose statement holds off, or nil.
func (ix *navIndex) stepOf(off int) *ast.Step {
	for _, s := range ix.steps {
		if navContains(s.Range, off) {
			return s
		}
	}
	return nil
}

// declIdent is the name a declaration declares.
func navDeclIdent(n ast.Node) ast.Ident {
	switch n := n.(type) {
	case *ast.InputDecl:
		return n.Name
	case *ast.AnchorDecl:
		return n.Name
	case *ast.Step:
		return n.Name
	case *ast.ForStmt:
		return n.Var
	case *ast.Param:
		return n.Name
	case *ast.Skill:
		return n.Name
	case *ast.Task:
		return n.Name
	}
	return ast.Ident{}
}

// declKind names what a declaration declares, in the checker's words.
func navDeclKind(n ast.Node) string {
	switch n.(type) {
	case *ast.InputDecl:
		return "input"
	case *ast.AnchorDecl:
		return "anchor"
	case *ast.Step:
		return "step"
	case *ast.ForStmt:
		return "loop variable"
	case *ast.Param:
		return "parameter"
	case *ast.Skill:
		return "skill"
	case *ast.Task:
		return "task"
	}
	return "name"
}
