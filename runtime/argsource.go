package runtime

import "github.com/cogflow/cogflow/lang/ast"

// argOrigin says where an argument's value came from, for the journal
// and the reports read from it. It refines sourceOf with what only the
// running interpreter knows: a reference that names an input is the
// input, not an earlier step, and a dependency written as the argument
// was answered by a particular answerer (structural, cache, llm, ask).
// Call it after the argument was evaluated.
func (in *Interp) argOrigin(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Paren:
		return in.argOrigin(e.X) // (who) is still the input
	case *ast.Ref:
		if _, ok := in.info.Refs[e].(*ast.InputDecl); ok {
			return "input " + e.Name
		}
	case *ast.Dependency:
		if src := in.lastSource[e]; src != "" {
			return "answer " + src
		}
	}
	if constant(e) {
		// -300, "a" + "b", ["x", "y"]: written in the workflow, whatever
		// the operators around the literals.
		return "literal"
	}
	if _, ok := e.(*ast.ListLit); ok {
		return "expression" // a list holding a reference is not a literal
	}
	return sourceOf(e)
}

// constant reports whether e is made of literals and operators only: no
// reference, call, member or dependency, so its value is the workflow's.
func constant(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x.(type) {
		case *ast.StringLit, *ast.NumberLit, *ast.BoolLit, *ast.ListLit, *ast.Unary, *ast.Binary, *ast.Paren, *ast.Index, *ast.Slice:
			return ok
		}
		ok = false
		return false
	})
	return ok
}
