package runtime

import "github.com/cogflow/cogflow/lang/ast"

// CheckInput says whether raw, the text given for a declared input (with
// --input, from an environment variable, a file or a CSV cell), is a value
// of the input's type. It binds nothing: the command line calls it for
// every input before a driver starts, so that a bad value is reported as a
// usage error rather than as a failed run after the browser started. The
// error does not name the input; the caller knows where the value came from.
func CheckInput(decl *ast.InputDecl, raw string) error {
	_, err := parseInput(raw, typeOf(decl.Type))
	return err
}
