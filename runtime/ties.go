package runtime

import (
	"context"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/match"
)

// A tie settled by the screen (runtime/match, ties.go: case, nesting,
// twins) is a choice the run made that a description did not: the step's
// report and its journal line say so (StepReport.Ties), by the rule and
// how many were tied — never an element's words, which may show what a
// secret input typed.

// screen gives anchoring the whole observation, observed once and only
// when a tie between look-alike candidates asks what surrounds them; nil
// (nothing to compare, so twins stay ambiguous) when it cannot be had.
func (in *Interp) screen(ctx context.Context) func() []*driver.Element {
	var els []*driver.Element
	done := false
	return func() []*driver.Element {
		if !done {
			done = true
			if t, err := in.observe(ctx); err == nil {
				els = t.Elements
			}
		}
		return els
	}
}

// noteTie keeps, for the step's report, how anchoring settled a tie.
func (in *Interp) noteTie(out match.Outcome) {
	if out.Settled == "" {
		return
	}
	in.ties = append(in.ties, tieNote(out))
}

// tieNote is a settled tie as a report reads it: "twins: 2 tied, the
// first taken".
func tieNote(out match.Outcome) string {
	what := map[string]string{
		"case":    "the one written as the description writes it",
		"nesting": "the one control among elements nested in each other",
		"twins":   "the first of identical siblings",
	}[out.Settled]
	return fmt.Sprintf("%s: %d tied, %s taken", out.Settled, out.Tied, what)
}
