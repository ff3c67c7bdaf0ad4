package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// The errors a caller of Run tells apart (errors.Is, errors.As): a step
// that failed, with its position (*StepError); an element no description
// matched (*AnchorError, inside a StepError); an interrupted run
// (*InterruptedError, errors.Is ErrInterrupted); the browser or device
// gone (driver.ErrGone, inside a StepError when a step was acting).

// ErrInterrupted is returned when the run's context was cancelled (Ctrl-C)
// between steps; the observer has been told where. Run returns it as an
// *InterruptedError, which says where.
var ErrInterrupted = errors.New("interrupted")

// InterruptedError is a run stopped before its end (Stop closed, the
// context cancelled): At is the last step that finished and its loop
// items. errors.Is(err, ErrInterrupted) holds for it.
type InterruptedError struct {
	At Position
}

// Error is ErrInterrupted's text, as journals have always said; At tells
// where.
func (e *InterruptedError) Error() string { return ErrInterrupted.Error() }

// Is reports whether target is ErrInterrupted.
func (e *InterruptedError) Is(target error) bool { return target == ErrInterrupted }

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

// Position is where the step stands in the source: file, line and column
// of its start and end (its String is file:line:col).
func (e *StepError) Position() ast.Range { return e.Step.Range }

// StepName is the failed step's name ("op4").
func (e *StepError) StepName() string { return e.Step.Name.Name }

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
	// Why says, for an ambiguity among elements that look alike, why
	// cogflow does not take the first (runtime/match, ties.go).
	Why string
}

func (e *AnchorError) Error() string {
	var b strings.Builder
	if e.Ambiguous {
		fmt.Fprintf(&b, "%s is ambiguous: several elements match about equally well", e.Locator)
		if e.Why != "" {
			b.WriteString("; " + e.Why)
		}
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
