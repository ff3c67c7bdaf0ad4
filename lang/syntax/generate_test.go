package syntax

import (
	"bytes"
	"os"
	"testing"

	"github.com/cogflow/cogflow/lang/syntax/internal/grammargen"
)

// TestGeneratedParserIsUpToDate fails when grammar.go or a builder changed
// and `go generate ./lang/syntax` was not run: the fast parser would then
// follow an older grammar than participle.
func TestGeneratedParserIsUpToDate(t *testing.T) {
	want, err := grammargen.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("grammar_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("grammar_gen.go is out of date: run go generate ./lang/syntax")
	}
}
