// Command grammargen writes lang/syntax/grammar_gen.go, the fast parser,
// from lang/syntax/grammar.go and the builders beside it. Run it with `go generate ./lang/syntax`;
// it reads and writes in the current directory.
package main

import (
	"fmt"
	"os"

	"github.com/cogflow/cogflow/lang/syntax/internal/grammargen"
)

func main() {
	out, err := grammargen.Generate(".")
	if err == nil {
		err = os.WriteFile("grammar_gen.go", out, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "grammargen:", err)
		os.Exit(1)
	}
}
