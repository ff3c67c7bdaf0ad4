package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
)

// TestNvimSyntaxWords keeps Neovim's syntax file in step with the
// language: its keywords are exactly lang/syntax.Keywords and its element
// constructors exactly lang/check.ElementRoles, so that a word added to
// the language is coloured (or this test names it).
func TestNvimSyntaxWords(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "editor-support", "nvim", "syntax", "cog.vim"))
	if err != nil {
		t.Fatal(err)
	}
	// `exe 'syn match cogRepeat +\<\%(for\|in\)' . s:nodep . '+'` and
	// `exe 'syn match cogDeclare +\<anchor' . s:nodep …`
	keywordRe := regexp.MustCompile(`(?m)^exe 'syn match cog\w+ \+\\<(?:\\%\()?([a-z_\\|]+?)(?:\\\))?' \. s:nodep`)
	elementRe := regexp.MustCompile(`(?m)^syn match cogElement ".*?\\<\\%\(([a-z_\\|]+)\\\)\\ze`)
	words := func(alternatives string) []string { return strings.Split(alternatives, `\|`) }

	var keywords []string
	for _, m := range keywordRe.FindAllStringSubmatch(string(src), -1) {
		keywords = append(keywords, words(m[1])...)
	}
	var elements []string
	if m := elementRe.FindStringSubmatch(string(src)); m != nil {
		elements = words(m[1])
	}
	for _, tc := range []struct {
		what string
		got  []string
		want map[string]bool
	}{
		{"keywords (lang/syntax.Keywords)", keywords, syntax.Keywords},
		{"element constructors (lang/check.ElementRoles)", elements, check.ElementRoles},
	} {
		want := make([]string, 0, len(tc.want))
		for w := range tc.want {
			want = append(want, w)
		}
		sort.Strings(want)
		got := slices.Clone(tc.got)
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("syntax/cog.vim's %s:\n got %v\nwant %v", tc.what, got, want)
		}
	}
}
