package runtime

import (
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/match"
)

// The rules of anchoring live in runtime/match, where the compiler asks
// them too; these adapt a Locator and live elements to them.

// matcher prepares the locator's description for comparing.
func (l *Locator) matcher() *match.Matcher {
	return match.New(match.Description{Role: l.Role, Attrs: l.Attrs, Index: l.Index})
}

// candidateOf is a live element as the matching model reads it.
func candidateOf(el *driver.Element) match.Candidate {
	return match.Candidate{Attrs: el.Attributes(), Position: position(el)}
}

// score rates how well el matches l, in [0, 1]: 0 when it contradicts
// an attribute, at least minScore when it satisfies them all.
func score(l *Locator, el *driver.Element) float64 {
	c := candidateOf(el)
	return l.matcher().Score(&c)
}

// minScore is the least score of an element that satisfies its
// description.
const minScore = match.MinScore

// describesSomething reports whether a locator says anything at all about
// its element; element() does not, and anchoring it would pick anything.
func describesSomething(l *Locator) bool { return l.matcher().Describes() }

// normalize folds case and collapses spaces: how names are compared.
func normalize(s string) string { return match.Normalize(s) }

// position is an element's place among its siblings, as index: counts
// it: its list item index, a cell's column, a row's row; -1 when the
// driver placed it nowhere.
func position(el *driver.Element) int {
	var listIndex, column, row int
	if el.List != nil {
		listIndex = el.List.Index
	}
	if el.Cell != nil {
		column, row = el.Cell.Column, el.Cell.Row
	}
	return match.Place(el.List != nil, listIndex, el.Cell != nil, column, row)
}
