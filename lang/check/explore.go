package check

import (
	"math"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// Bounds of an explore block's budget: the exploration steps it may take
// when it says nothing, and the most it may ask for. Each step is an
// action on the app and often a model call, so the bound stays small.
const (
	DefaultExploreBudget = 20
	MaxExploreBudget     = 200
)

// exploreStmt checks an explore block: a goal that says something, the
// one option budget: (a whole number written in the file, so that the cost
// of a run is known before it starts), and a body of steps.
func (c *checker) exploreStmt(s *ast.ExploreStmt) {
	if s.Goal == nil || strings.TrimSpace(s.Goal.Value) == "" {
		rng := s.Range
		if s.Goal != nil {
			rng = s.Goal.Range
		}
		c.diags.Errorf(rng, `the goal of explore is empty; say what the exploration must reach, as in explore "the Import contacts screen" { … }`)
	}
	seen := false
	for _, a := range s.Options {
		switch {
		case a.Name == nil:
			c.diags.Errorf(a.Range, "after the goal, explore takes only budget: N (the most exploration steps, default %d)", DefaultExploreBudget)
			continue
		case a.Name.Name != "budget":
			c.diags.Errorf(a.Name.Range, "explore has no option %s; it takes budget: N (the most exploration steps, default %d)", a.Name.Name, DefaultExploreBudget)
			continue
		case seen:
			c.diags.Errorf(a.Name.Range, "budget: is given twice")
		}
		seen = true
		c.expr(a.Value)
		n, ok := a.Value.(*ast.NumberLit)
		if !ok {
			c.diags.Errorf(a.Value.Rng(), "budget: needs a whole number from 1 to %d written as a number, so that the most a run may spend is known before it starts", MaxExploreBudget)
			continue
		}
		if v, err := strconv.ParseFloat(n.Raw, 64); err != nil || v != math.Trunc(v) || v < 1 || v > MaxExploreBudget {
			c.diags.Errorf(n.Range, "budget: needs a whole number from 1 to %d, not %s", MaxExploreBudget, n.Raw)
		}
	}
	if !hasStep(s.Body) {
		c.diags.Errorf(s.Range, "explore needs steps in its body: the exploration looks for the targets of those steps when they are not on the screen")
	}
	// The body runs to its end or the run fails, so what it declares is
	// visible after it, as at the top level.
	c.block(s.Body, false)
}

// hasStep reports whether a block holds a step, directly or in a nested
// body.
func hasStep(b *ast.Block) bool {
	for _, s := range b.Stmts {
		if _, ok := s.(*ast.Step); ok {
			return true
		}
		for _, inner := range ast.Bodies(s) {
			if hasStep(inner) {
				return true
			}
		}
	}
	return false
}
