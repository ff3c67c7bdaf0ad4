package synth

import (
	"slices"
	"strings"
	"testing"
)

// index of the first candidate whose program starts with prefix, or -1.
func rankOf(cands []*Program, prefix string) int {
	return slices.IndexFunc(cands, func(p *Program) bool { return strings.HasPrefix(p.String(), prefix) })
}

// rankCases are demonstrations that several programs fit.
var rankCases = []struct {
	name     string
	sources  []Source
	output   string
	best     string
	worse    []string // programs that also fit but must rank lower
	excluded []string // programs that must not be proposed at all
}{
	{
		name: "suffix replacement over the bare word and concatenation", sources: src("op2", "report.txt"), output: "report.md",
		best:     `replace(op2, ".txt", ".md")`,
		worse:    []string{`replace(op2, "txt", "md")`, `regex("\\pL+", op2) + ".md"`},
		excluded: []string{`"report.md"`},
	},
	{
		name: "regex_replace over replacing the word", sources: src("op2", "John Smith"), output: "J. Smith",
		best:     `regex_replace(op2, "^(\\pL)\\pL*", "$1.")`,
		worse:    []string{`replace(op2, "John", "J.")`},
		excluded: []string{"substr("},
	},
	{
		name: "a pattern over a fixed cut", sources: src("op2", "Order #4711 shipped"), output: "4711",
		best:     `regex("[0-9]+", op2)`,
		excluded: []string{"substr(", `trim_prefix(op2, "Order #")`},
	},
	{
		name: "a field over a cut in the middle of words", sources: src("op2", "red,green,blue,black"), output: "blue",
		best:     `split(",", op2)[2]`,
		excluded: []string{"substr(", `regex("green`},
	},
	{
		name: "a source over an equal constant", sources: src("op2", "12.5", "op3", "3"), output: "37.5",
		best:     "parse_number(op2) * parse_number(op3)",
		excluded: []string{"parse_number(op2) * 3"},
	},
	{
		name: "the next number over a percentage", sources: src("op2", "2"), output: "3",
		best:  "parse_number(op2) + 1",
		worse: []string{"parse_number(op2) * 1.5"},
	},
	{
		name: "a number is computed, not edited", sources: src("op3", "12.5"), output: "25",
		best:     "parse_number(op3) * 2",
		excluded: []string{"replace("},
	},
	{
		name: "delimiters replaced everywhere", sources: src("op2", "a;b;c"), output: "a, b, c",
		best: `replace(op2, ";", ", ")`,
	},
	{
		name: "lower case, then spaces replaced", sources: src("op2", "Hello World Notes"), output: "hello-world-notes",
		best: `replace(lower(op2), " ", "-")`,
	},
	{
		name: "the first source wins a tie", sources: src("keyword", "Kilimanjaro", "op2", "Kilimanjaro"), output: "Kilimanjaro",
		best: "keyword",
	},
}

func TestRankingPrefersGeneralPrograms(t *testing.T) {
	for _, c := range rankCases {
		t.Run(c.name, func(t *testing.T) {
			cands := allCandidates(c.output, c.sources, Options{})
			if len(cands) == 0 {
				t.Fatal("no candidates")
			}
			if cands[0].String() != c.best {
				t.Errorf("best %s, want %s", cands[0], c.best)
			}
			if p, _ := Synthesize(c.output, c.sources, Options{}); p == nil || p.String() != cands[0].String() {
				t.Errorf("Synthesize gives %v, allCandidates ranks %s first", p, cands[0])
			}
			for _, w := range c.worse {
				if i := rankOf(cands, w); i <= 0 {
					t.Errorf("%s: rank %d, want a candidate ranked after the best", w, i)
				}
			}
			for _, x := range c.excluded {
				if i := rankOf(cands, x); i >= 0 {
					t.Errorf("%s was proposed (rank %d)", cands[i], i)
				}
			}
		})
	}
}

func TestOptions(t *testing.T) {
	sources := src("op2", "Order #4711 shipped")
	if p, ok := Synthesize("4711", sources, Options{Families: []string{"substr", "split"}}); ok {
		t.Errorf("families restricted to substr and split gave %s", p)
	}
	p, ok := Synthesize("4711", sources, Options{Families: []string{"regex_replace", "regex"}})
	if !ok || p.Family != "regex" {
		t.Errorf("restricted to regex: %v, %v", p, ok)
	}
	// The price-times-quantity sentence needs six operations.
	out, two := "Total: 37.50 EUR", src("op2", "12.50", "op3", "3")
	if _, ok := Synthesize(out, two, Options{MaxCost: 3}); ok {
		t.Error("a budget of 3 operations admitted a 6-operation program")
	}
	if p, ok := Synthesize(out, two, Options{}); !ok || p.Cost != 6 {
		t.Errorf("default budget: %v, %v", p, ok)
	}
	if got := familyNames(); len(got) < 8 || got[0] != "identity" {
		t.Errorf("familyNames() = %v", got)
	}
}

func TestProgramAccessors(t *testing.T) {
	p, ok := Synthesize("Trip plan - Kilimanjaro", src("op2", "Trip plan", "keyword", "Kilimanjaro"), Options{})
	if !ok {
		t.Fatal("no program")
	}
	if got := p.Refs(); !slices.Equal(got, []string{"op2", "keyword"}) {
		t.Errorf("Refs() = %v", got)
	}
	if p.Cost != 2 || p.Constants != 1 || p.Penalty != 0 {
		t.Errorf("cost %d, constants %d, penalty %d", p.Cost, p.Constants, p.Penalty)
	}
	if _, err := p.Eval(map[string]string{"op2": "x"}); err == nil || !strings.Contains(err.Error(), "keyword") {
		t.Errorf("missing source: error %v", err)
	}
	q, _ := Synthesize("4711", src("op2", "Order #4711 shipped"), Options{})
	if _, err := q.Eval(map[string]string{"op2": "no number here"}); err == nil {
		t.Error("a pattern that does not match must be an error, not a guess")
	}
}

// TestPruningKeepsTheBest: Synthesize skips families that cannot beat the
// best cost found; it must still find what the full search ranks first.
func TestPruningKeepsTheBest(t *testing.T) {
	for _, c := range synthCases {
		cands := allCandidates(c.output, c.sources, Options{})
		p, ok := Synthesize(c.output, c.sources, Options{})
		if !ok || len(cands) == 0 || p.String() != cands[0].String() {
			t.Errorf("%s: Synthesize gives %v, the full search %v", c.name, p, cands[0])
		}
	}
}

// familyNames returns the names of the program families, simplest first.
func familyNames() []string {
	names := make([]string, len(families))
	for i, f := range families {
		names[i] = f.name
	}
	return names
}
