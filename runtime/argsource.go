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
	case *ast.Ref:
		if _, ok := in.info.Refs[e].(*ast.InputDecl); ok {
			return "input " + e.Name
		}
	case *ast.Dependency:
		if src := in.lastSource[e]; src != "" {
			return "answer " + src
		}
	}
	return sourceOf(e)
}
