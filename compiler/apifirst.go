package compiler

import "github.com/cogflow/cogflow/lang/ast"

// apiRewrite is one rule of the API-first stage (AXIS): it replaces, in the
// emitted file, a run of UI steps that one direct call performs (a GET
// form's query typed and submitted → open of the form's URL; a menu path
// clicked through → menu_path) by that call, when the demonstration's snapshots
// prove the two equivalent. A replaced run leaves a comment on the new
// step citing the original steps and their trace events. A rule that is not
// sure keeps the UI steps: API-first is an optimization, never a change of
// meaning.
type apiRewrite struct {
	name string
	run  func(c *compiler, f *ast.File)
}

// apiRewrites are the API-first stage's rules, in the order they run. Each
// lives in its own file (apifirst_*.go) and adds itself in an init.
var apiRewrites []apiRewrite

// apiFirst runs the API-first rules unless opts.NoAPIFirst or a literal
// compilation (which replays the demonstration as it was) says not to.
func (c *compiler) apiFirst(f *ast.File, opts Options) {
	if f == nil || opts.NoAPIFirst || opts.Literal {
		return
	}
	for _, r := range apiRewrites {
		r.run(c, f)
	}
}
