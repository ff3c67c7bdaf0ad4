// Package vscode_test checks the VS Code extension's static files against
// the language they describe: the grammar's word lists against the Go
// tables that define the language, and every snippet against the checker.
// The grammar's scopes themselves are tested by vscode-tmgrammar-test
// (make test-editors).
package vscode_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// wordList matches a grammar rule that is one alternation of words,
// (?<![A-Za-z0-9_])(?:a|b|c)(?![A-Za-z0-9_]), and captures the words;
// callee matches the begin of a call of one of a list of words, that
// alternation captured and followed by the opening parenthesis.
var (
	wordList = regexp.MustCompile(`^\(\?<!\[A-Za-z0-9_\]\)\(\?:([a-z_|]+)\)\(\?!\[A-Za-z0-9_\]\)$`)
	callee   = regexp.MustCompile(`^\(\(\?<!\[A-Za-z0-9_\]\)\(\?:([a-z_|]+)\)\(\?!\[A-Za-z0-9_\]\)\)\\s\*\(\\\(\)$`)
)

// grammarWords returns, by scope name, the words of every rule of the
// grammar that is a word list, wherever it is nested.
func grammarWords(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("syntaxes/cogflow.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	var g any
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatalf("syntaxes/cogflow.tmLanguage.json: %v", err)
	}
	out := map[string][]string{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			name, _ := v["name"].(string)
			match, _ := v["match"].(string)
			if m := wordList.FindStringSubmatch(match); m != nil && name != "" {
				out[name] = append(out[name], strings.Split(m[1], "|")...)
			}
			begin, _ := v["begin"].(string)
			captures, _ := v["beginCaptures"].(map[string]any)
			first, _ := captures["1"].(map[string]any)
			if m := callee.FindStringSubmatch(begin); m != nil && first["name"] != nil {
				name := first["name"].(string)
				out[name] = append(out[name], strings.Split(m[1], "|")...)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(g)
	for k := range out {
		slices.Sort(out[k])
		out[k] = slices.Compact(out[k])
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestGrammarVocabulary keeps the grammar's lists of actions, element
// constructors, functions, types and keywords equal to the language's:
// a new action or function added in Go and not here fails this test.
func TestGrammarVocabulary(t *testing.T) {
	got := grammarWords(t)

	var actions []string
	for _, a := range action.All() {
		actions = append(actions, a.String())
	}
	var functions []string
	for _, f := range funcs.Names() {
		if !check.ElementRoles[f] { // cell(…) is the constructor; .cell(…) a method
			functions = append(functions, f)
		}
	}
	functions = append(functions, keys(check.ElementPredicates)...)
	var basic []string
	for _, n := range types.Names() {
		if n != "list" {
			basic = append(basic, n)
		}
	}
	tests := []struct {
		scope string
		want  []string
	}{
		{"support.function.action.cogflow", actions},
		{"support.class.element.cogflow", keys(check.ElementRoles)},
		{"support.function.builtin.cogflow", functions},
		{"support.type.primitive.cogflow", basic},
		{"keyword.other.cogflow", keys(syntax.Keywords)},
	}
	for _, tt := range tests {
		t.Run(tt.scope, func(t *testing.T) {
			want := slices.Clone(tt.want)
			slices.Sort(want)
			want = slices.Compact(want)
			if !slices.Equal(got[tt.scope], want) {
				t.Errorf("the grammar's %s words differ from the language's\n got: %v\nwant: %v\nmissing: %v\nextra: %v",
					tt.scope, got[tt.scope], want, minus(want, got[tt.scope]), minus(got[tt.scope], want))
			}
		})
	}
}

// minus lists the words of a that b lacks.
func minus(a, b []string) []string {
	var out []string
	for _, w := range a {
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

// The grammar repeats the keywords inside other rules: a name is never a
// keyword (?!…), and an unclosed call ends where a statement begins
// (?=^\s*(?:…)). Each copy must list the language's keywords, so that a
// keyword added in lang/syntax fails here, not in someone's editor.
var (
	notKeyword     = regexp.MustCompile(`\(\?!\(\?<!\[A-Za-z0-9_\]\)\(\?:([a-z_|]+)\)\(\?!\[A-Za-z0-9_\]\)\)`)
	statementStart = regexp.MustCompile(`\^\\s\*\(\?:\(\?<!\[A-Za-z0-9_\]\)\(\?:([a-z_|]+)\)\(\?!\[A-Za-z0-9_\]\)`)
)

// TestGrammarKeywordCopies checks every copy of the keyword lists inside
// the grammar's rules against syntax.Keywords.
func TestGrammarKeywordCopies(t *testing.T) {
	data, err := os.ReadFile("syntaxes/cogflow.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	var g any
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	var patterns []string // every match, begin and end of the grammar
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range []string{"match", "begin", "end"} {
				if s, ok := v[k].(string); ok {
					patterns = append(patterns, s)
				}
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(g)

	// Keywords that never begin a statement.
	inside := map[string]bool{"in": true, "true": true, "false": true, "else": true, "fallback": true}
	var starts []string
	for k := range syntax.Keywords {
		if !inside[k] {
			starts = append(starts, k)
		}
	}
	tests := []struct {
		name string
		re   *regexp.Regexp
		want []string
		min  int // copies the grammar has today, so that the test cannot pass by finding none
	}{
		{"names are not keywords", notKeyword, keys(syntax.Keywords), 6},
		{"statements begin with these keywords", statementStart, starts, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := slices.Sorted(slices.Values(tt.want))
			n := 0
			for _, p := range patterns {
				for _, m := range tt.re.FindAllStringSubmatch(p, -1) {
					n++
					got := strings.Split(m[1], "|")
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Errorf("a copy differs from the language's keywords in %s\nmissing: %v\nextra: %v", p, minus(want, got), minus(got, want))
					}
				}
			}
			if n < tt.min {
				t.Errorf("%d copies found, want at least %d", n, tt.min)
			}
		})
	}
}
