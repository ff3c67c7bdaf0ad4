package match

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Anchoring: finding the element a description means. Every attribute the
// description gives must hold for the element (rules.go has the rule of
// each); among the candidates that satisfy all of them the best must
// stand clearly above the next one. An unclear choice is no choice: the
// caller reports it with the candidates, and never acts on a guess.

const (
	roleWeight  = 2.0
	indexWeight = 1.0
	// minMargin is how far (as a share of the possible score) the winner
	// must stand above the runner-up; less is an ambiguity.
	minMargin = 0.15
	// hiddenShare is what an invisible candidate keeps of its score: what
	// a person cannot see ranks below what they can.
	hiddenShare = 0.5
	// Listed is how many candidates an Outcome keeps for a message.
	Listed = 5
)

// MinScore is the least score of an element that satisfies its
// description: any satisfying element scores above 0.
const MinScore = 1e-9

// notMatching marks a contradiction found without explaining it.
const notMatching = "does not match"

// Description is what an element description says that anchoring
// compares: the role its constructor names ("" or "element" name none),
// its attributes (id, name, text, …; others, such as css, are the
// driver's to filter on and are ignored here) and its index (-1 when not
// given). Where it lies (within:) is the caller's choice of candidates.
type Description struct {
	Role  string
	Attrs map[string]string
	Index int
}

// Candidate is one element a description is compared with: its attributes
// and its position among its siblings as index: counts it (its list item
// index, a cell's column, a row's row; -1 when it has none).
type Candidate struct {
	Attrs    trace.Attributes
	Position int
}

// Place is an element's position among its siblings as index: counts
// it, from where the driver placed it: its list item index when it is in
// a list, else a cell's column, else a row's row; -1 when it is nowhere.
func Place(inList bool, listIndex int, inCell bool, column, row int) int {
	switch {
	case inList:
		return listIndex
	case inCell && column >= 0:
		return column
	case inCell:
		return row
	}
	return -1
}

// Matcher is a description prepared for comparing with many candidates.
type Matcher struct {
	d  Description
	ws []want
	// irreversible are the knowledge base's words of actions that
	// cannot be undone (SetIrreversible), beside the built-in ones.
	irreversible []string
}

// New prepares a description.
func New(d Description) *Matcher { return &Matcher{d: d, ws: wants(d.Attrs)} }

// Describes reports whether the description says anything at all about
// its element; element() does not, and anchoring it would pick anything.
func (m *Matcher) Describes() bool {
	return (m.d.Role != "" && m.d.Role != "element") || len(m.d.Attrs) > 0 || m.d.Index >= 0
}

// RoleAgrees reports whether an element of the role can satisfy the
// description: the first thing Judge checks, which a caller may ask
// before it builds the Candidate.
func (m *Matcher) RoleAgrees(role string) bool {
	return m.d.Role == "" || m.d.Role == "element" || strings.EqualFold(role, m.d.Role)
}

// Judge rates a candidate. One that satisfies every attribute gets a
// score in (0, 1] and no reason. One that contradicts an attribute gets a
// reason: with explain, which attribute it fails, and as its score the
// share of the description it satisfies (for ordering near misses in a
// message); without, a bare marker and no score — the hot path stops at
// the first contradiction.
func (m *Matcher) Judge(c *Candidate, explain bool) (float64, string) {
	var got, total float64
	why := ""
	fail := func(reason func() string) bool {
		if why == "" {
			why = notMatching
			if explain {
				why = reason()
			}
		}
		return !explain
	}
	el := &c.Attrs
	if m.d.Role != "" && m.d.Role != "element" {
		total += roleWeight
		if m.RoleAgrees(el.Role) {
			got += roleWeight
		} else if fail(func() string { return fmt.Sprintf("it is a %s, not a %s", roleName(el.Role), m.d.Role) }) {
			return 0, why
		}
	}
	for _, w := range m.ws {
		total += w.weight
		switch w.agree(el) {
		case equals:
			got += w.weight
		case contains:
			got += w.weight * containsShare
		default:
			if fail(func() string { return w.mismatch(el) }) {
				return 0, why
			}
			// A value that shares the words asked for is the likelier slip.
			got += w.weight * w.likeness(el) / 2
		}
	}
	if m.d.Index >= 0 {
		total += indexWeight
		if p := c.Position; p == m.d.Index {
			got += indexWeight
		} else if fail(func() string {
			if p < 0 {
				return "it has no index"
			}
			return fmt.Sprintf("its index is %d", p)
		}) {
			return 0, why
		}
	}
	s := 1.0
	if total > 0 {
		// Otherwise the description gives only what the driver filtered
		// on already (css, xpath): every candidate satisfies it.
		s = got / total
	}
	if !el.Visible {
		s *= hiddenShare
	}
	return s, why
}

// Score rates how well a candidate matches, in [0, 1]: 0 when it
// contradicts an attribute, at least MinScore when it satisfies them all.
func (m *Matcher) Score(c *Candidate) float64 {
	if !m.Describes() {
		return 0
	}
	s, why := m.Judge(c, false)
	if why != "" {
		return 0
	}
	return s
}

// Scored is a candidate (by its index among those given) with its score.
// For a candidate that contradicts the description, Why says which
// attribute it fails, and Score is the share of the description it does
// satisfy.
type Scored struct {
	Index int
	Score float64
	Why   string
}

// Outcome is what Choose decided.
type Outcome struct {
	// Winner is the index of the chosen candidate, -1 when none is.
	Winner int
	// Empty says the description gives nothing to match (element()).
	Empty bool
	// Ambiguous says several candidates satisfy the description about
	// equally well.
	Ambiguous bool
	// Why says, for an ambiguity among candidates that look alike (twins
	// not settled), why cogflow does not take the first.
	Why string
	// Settled names the rule that settled a tie ("case", "nesting",
	// "twins"; ties.go), "" when the winner stood clear; Tied is how many
	// candidates were tied then.
	Settled string
	Tied    int
	// Candidates are, with no winner, the tied candidates of an ambiguity
	// or the near misses of a failed match, best first, at most Listed.
	Candidates []Scored
}

// Choose picks the clear winner among n candidates that satisfy every
// attribute of the description; at fills c with candidate i. A caller on
// a hot path may run the same loops itself with Judge, Settle and Missed.
func (m *Matcher) Choose(n int, at func(i int, c *Candidate)) Outcome {
	return m.ChooseAround(n, at, nil)
}

// ChooseAround is Choose that can settle twins: around says what
// surrounds candidate i (Settle), asked only of tied candidates.
func (m *Matcher) ChooseAround(n int, at func(i int, c *Candidate), around func(i int) (Around, bool)) Outcome {
	if !m.Describes() {
		return Outcome{Winner: -1, Empty: true}
	}
	var c Candidate
	var ranked []Scored
	for i := 0; i < n; i++ {
		at(i, &c)
		if s, why := m.Judge(&c, false); why == "" {
			ranked = append(ranked, Scored{Index: i, Score: s})
		}
	}
	if len(ranked) > 0 {
		return m.Settle(ranked, at, around)
	}
	// The failure path only: say what each near miss fails.
	var missed []Scored
	for i := 0; i < n; i++ {
		at(i, &c)
		if s, why := m.Judge(&c, true); s > 0 {
			missed = append(missed, Scored{Index: i, Score: s, Why: why})
		}
	}
	return Missed(missed)
}

// Decide chooses among the candidates that satisfy a description (judged
// without a reason), in any order: the best one when it stands clearly
// above the next, else an ambiguity. ranked must not be empty; Decide
// sorts it.
func Decide(ranked []Scored) Outcome {
	if len(ranked) > 1 {
		sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].Score > ranked[j].Score })
		if ranked[0].Score-ranked[1].Score < minMargin {
			return Outcome{Winner: -1, Ambiguous: true, Candidates: best(ranked)}
		}
	}
	return Outcome{Winner: ranked[0].Index}
}

// Missed is the outcome when no candidate satisfies the description:
// the near misses (judged with explain, score above 0), best first.
func Missed(missed []Scored) Outcome {
	return Outcome{Winner: -1, Candidates: best(missed)}
}

// best keeps the highest-scoring candidates for a message.
func best(cs []Scored) []Scored {
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].Score > cs[j].Score })
	return cs[:min(len(cs), Listed)]
}

// Compares reports whether anchoring compares the attribute (whether it
// takes part in scoring); the others are the driver's to filter on.
func Compares(attr string) bool {
	_, ok := attrRules[attr]
	return ok
}

func roleName(r string) string {
	if r == "" {
		return "generic element"
	}
	return r
}

// Normalize folds case and collapses spaces: how names are compared.
func Normalize(s string) string {
	if normalized(s) {
		return s // most names are: no allocation
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func normalize(s string) string { return Normalize(s) }
