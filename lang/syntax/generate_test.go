package syntax

import (
	"bytes"
	"os"
	"slices"
	"strings"
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

// TestKeywordsAreTheGrammarsWords: a word the grammar gives a meaning
// ("if", "repeat", …) must be in Keywords, so that it cannot also name a
// step or be read as a value, and Keywords holds nothing else.
func TestKeywordsAreTheGrammarsWords(t *testing.T) {
	words, err := grammargen.Words(".")
	if err != nil {
		t.Fatal(err)
	}
	var keywords []string
	for k := range Keywords {
		keywords = append(keywords, k)
	}
	slices.Sort(keywords)
	if !slices.Equal(words, keywords) {
		t.Errorf("the grammar's words are %s; Keywords has %s", strings.Join(words, " "), strings.Join(keywords, " "))
	}
}
