package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// The errors a caller of Run tells apart (errors.Is, errors.As): a step
// that failed (StepError), an element no description matched
// (AnchorError, inside a StepError), an interrupted run (ErrInterrupted);
// driver.ErrGone is the browser or device gone.

// ErrInterrupted is returned when the run's context was cancelled (Ctrl-C)
// between steps; the recorder has been told where.
var ErrInterrupted = errors.New("interrupted")

// StepError is a step that failed, with where it stands in the source.
type StepError struct {
	Step  *ast.Step
	Loops []LoopPos
	Err   error
}

func (e *StepError) Error() string {
	return fmt.Sprintf("%s: step %s failed: %v", e.Step.Range, e.Step.Name.Name, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

// AnchorError says why no element could be chosen, with the best
// candidates so a person can fix the description.
type AnchorError struct {
	Locator   string
	Ambiguous bool
	// Candidates are the tied elements of an ambiguity, or the near misses
	// of a failed match, best first.
	Candidates []Candidate
	// Empty says the description gives nothing to match (element()).
	Empty bool
}

func (e *AnchorError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "%s is ambiguous: several elements match about equally well", e.Locator)
	} else {
		fmt.Fprintf(&b, "no element matches %s", e.Locator)
	}
	switch {
	case e.Empty:
		b.WriteString(": the description gives no attribute to look for")
	case len(e.Candidates) == 0:
		b.WriteString(" (no element on the screen comes close)")
	case !e.Ambiguous:
		b.WriteString("; the nearest elements, each failing an attribute the description gives:")
	}
	for _, c := range e.Candidates {
		fmt.Fprintf(&b, "\n  %3.0f%%  %s", c.Score*100, describe(c.El))
		if c.Why != "" {
			fmt.Fprintf(&b, " — %s", c.Why)
		}
	}
	if e.Ambiguous {
		b.WriteString("\n  add an attribute that tells them apart: id, text, index, or within: the list, row or dialog it is in")
	}
	return b.String()
}
