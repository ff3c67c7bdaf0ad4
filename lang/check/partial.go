package check

import (
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
)

// CheckPartial checks the tree of a file that has syntax errors, as
// syntax.ParsePartial returns it: the statements that did not parse are
// missing, broken names the ones they would have declared and mentioned
// the names they use. A use of a broken name is not reported as undefined
// (nor a call of one as unknown), and an input or anchor mentioned there
// is not reported as never used: the syntax error already says what is
// wrong there, and the checker's errors elsewhere in the file come out
// with it.
func CheckPartial(f *ast.File, env *Env, broken, mentioned map[string]bool) (*Info, diag.List) {
	return check(f, env, broken, mentioned)
}

// isBroken reports whether name's declaration failed to parse.
func (c *checker) isBroken(name string) bool { return c.broken[name] }
