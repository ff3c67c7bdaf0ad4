package check

import (
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/suggest"
	"github.com/cogflow/cogflow/lang/types"
)

type symKind int

const (
	symInput symKind = iota
	symAnchor
	symStep
	symLoopVar
	symParam
)

func (k symKind) String() string {
	return [...]string{"input", "anchor", "step", "loop variable", "parameter"}[k]
}

// symbol is a declared name in a task or skill.
type symbol struct {
	kind symKind
	typ  types.Type
	decl ast.Node
	name ast.Ident
	// secret names the secret input this value carries or was computed
	// from, "" when it carries none.
	secret string
	used   bool
	// loop is the for, repeat, while, if or try whose body declared it (nil at the top
	// level); used to explain why it is not visible after it.
	loop ast.Stmt
}

// funcState tracks names while one task or skill is checked. Names are
// unique in the whole task, but visible only after their declaration and
// inside the block that declares them.
type funcState struct {
	what   string
	all    map[string]*symbol // every name declared so far, for duplicates and hints
	scopes []map[string]*symbol
	order  []*symbol
	// pending holds every name the body declares, by position, so that a
	// reference to a later step can say so instead of "undefined".
	pending map[string]ast.Ident
}

func newFuncState(what string, body *ast.Block) *funcState {
	// Sized for the body up front: compiled workflows run to thousands of
	// steps, and growing these maps step by step shows in the check time.
	n := len(body.Stmts)
	f := &funcState{what: what, all: make(map[string]*symbol, n), scopes: []map[string]*symbol{make(map[string]*symbol, n)},
		pending: make(map[string]ast.Ident, n), order: make([]*symbol, 0, n)}
	f.collect(body)
	return f
}

func (f *funcState) collect(b *ast.Block) {
	for _, s := range b.Stmts {
		var id ast.Ident
		switch s := s.(type) {
		case *ast.InputDecl:
			id = s.Name
		case *ast.AnchorDecl:
			id = s.Name
		case *ast.Step:
			id = s.Name
		case *ast.ForStmt:
			id = s.Var
			f.collect(s.Body)
		default:
			for _, b := range ast.Bodies(s) {
				f.collect(b)
			}
			continue
		}
		if _, dup := f.pending[id.Name]; !dup {
			f.pending[id.Name] = id
		}
	}
}

func (f *funcState) push() { f.scopes = append(f.scopes, map[string]*symbol{}) }

func (f *funcState) pop(loop ast.Stmt) {
	for _, s := range f.scopes[len(f.scopes)-1] {
		if s.loop == nil {
			s.loop = loop
		}
	}
	f.scopes = f.scopes[:len(f.scopes)-1]
}

// declare adds a name to the innermost scope, reporting a duplicate.
func (f *funcState) declare(c *checker, id ast.Ident, s *symbol) {
	s.name = id
	if prev, ok := f.all[id.Name]; ok {
		c.diags.Errorf(id.Range, "%s is already declared in %s at line %d (as %s)", id.Name, f.what, prev.name.Range.Start.Line, prev.kind)
		return
	}
	f.all[id.Name] = s
	f.scopes[len(f.scopes)-1][id.Name] = s
	f.order = append(f.order, s)
}

// lookup finds a visible name.
func (f *funcState) lookup(name string) *symbol {
	for i := len(f.scopes) - 1; i >= 0; i-- {
		if s, ok := f.scopes[i][name]; ok {
			return s
		}
	}
	return nil
}

func (f *funcState) visibleNames() []string {
	var out []string
	for _, sc := range f.scopes {
		for n := range sc {
			out = append(out, n)
		}
	}
	return out
}

// ref resolves a reference, marking the symbol used, or reports why it
// cannot be seen from here.
func (c *checker) ref(r *ast.Ref) *symbol {
	if s := c.fn.lookup(r.Name); s != nil {
		s.used = true
		c.info.Refs[r] = s.decl
		return s
	}
	switch {
	case c.current != nil && c.current.Name.Name == r.Name:
		c.diags.Errorf(r.Range, "step %s cannot use its own value", r.Name)
	case c.fn.all[r.Name] != nil && c.fn.all[r.Name].loop != nil:
		s := c.fn.all[r.Name]
		line := s.loop.Rng().Start.Line
		switch s.loop.(type) {
		case *ast.IfStmt:
			c.diags.Errorf(r.Range, "%s is declared inside a branch of the if at line %d and is not visible after it", r.Name, line)
		case *ast.RepeatStmt:
			c.diags.Errorf(r.Range, "%s is declared inside the repeat at line %d and is not visible after it", r.Name, line)
		case *ast.WhileStmt:
			c.diags.Errorf(r.Range, "%s is declared inside the %s at line %d and is not visible after it", r.Name, s.loop.(*ast.WhileStmt).Keyword(), line)
		case *ast.TryStmt:
			if t := s.loop.(*ast.TryStmt); t.Fallback.Range.Start.Before(r.Range.Start) && r.Range.Start.Before(t.Fallback.Range.End) {
				c.diags.Errorf(r.Range, "%s is declared in the body of the try at line %d and is not visible in its fallback, which runs when the body stopped, perhaps before %s", r.Name, line, r.Name)
				break
			}
			c.diags.Errorf(r.Range, "%s is declared inside the try at line %d and is not visible after it: the try's body may stop before it, and only one of body and fallback ends the try", r.Name, line)
		default:
			if s.kind == symLoopVar {
				c.diags.Errorf(r.Range, "%s is the variable of the loop at line %d and is not visible after it", r.Name, line)
			} else {
				c.diags.Errorf(r.Range, "%s is declared inside the loop at line %d and is not visible after it", r.Name, line)
			}
		}
	case c.declaredLater(r):
		// reported by declaredLater
	case c.isCallable(r.Name):
		c.diags.Errorf(r.Range, "%s is called, not used as a value: write %s(…)", r.Name, r.Name)
	default:
		d := c.diags.Errorf(r.Range, "undefined name %s", r.Name)
		hint(d, r.Name, c.fn.visibleNames())
	}
	return nil
}

// declaredLater reports a reference to a name declared further down.
func (c *checker) declaredLater(r *ast.Ref) bool {
	if id, ok := c.fn.pending[r.Name]; ok && r.Range.Start.Before(id.Range.Start) {
		c.diags.Errorf(r.Range, "%s is declared later, at line %d; a step can only use what comes before it", r.Name, id.Range.Start.Line)
		return true
	}
	return false
}

// hint gives a diagnostic its "did you mean" suggestion when a close
// name exists.
func hint(d *diag.Diagnostic, name string, candidates []string) {
	if near := suggest.Closest(name, candidates, 3); len(near) > 0 {
		d.Suggestion = "did you mean " + orList(near) + "?"
	}
}

// reportUnused warns about inputs and anchors that nothing refers to.
func (c *checker) reportUnused() {
	for _, s := range c.fn.order {
		if s.used {
			continue
		}
		switch s.kind {
		case symInput:
			c.diags.Warnf(s.name.Range, "input %s is never used", s.name.Name)
		case symAnchor:
			c.diags.Warnf(s.name.Range, "anchor %s is never used", s.name.Name)
		}
	}
}
