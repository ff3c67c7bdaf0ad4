package explore

import (
	"slices"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/match"
)

// cand is one action a screen offers.
type cand struct {
	el    *driver.Element
	op    action.Name // click, or type for a field a parameter names
	param string      // the parameter typed, for type
	desc  string      // the target in .cog syntax
	// known is what knowledge says: onPath, ledOn, undone, or 0 for
	// nothing.
	known int
	score int // the model's Likert score 1–5; 0 without a model
	lex   int // words shared with the goal and the parameter names
	order int // page order
}

// step is the action as a path keeps it.
func (c *cand) step() knowledge.Step {
	s := knowledge.Step{Op: string(c.op), Target: c.desc}
	if c.op == action.Type {
		s.Text = "{" + c.param + "}"
	}
	return s
}

// line is the candidate as the model reads it: no values, only names.
func (c *cand) line() string {
	if c.op == action.Type {
		return "type the " + c.param + " into " + c.desc
	}
	s := "click " + c.desc
	if c.el.Text != "" && c.el.Text != c.el.Name && c.el.Name != "" {
		s += " showing " + quoteClip(c.el.Text, 60)
	}
	return s
}

func quoteClip(s string, n int) string { return "\"" + clip(s, n) + "\"" }

// stop words carry no meaning for ranking.
var stop = map[string]bool{
	"a": true, "an": true, "the": true, "from": true, "to": true, "of": true, "in": true, "on": true,
	"and": true, "or": true, "for": true, "with": true, "into": true, "at": true, "by": true, "my": true,
}

// words splits text into lower-case words, without stop words and with a
// plural s dropped, so "Contacts" meets "contact": match's words, the ones
// irreversible actions are judged by.
func words(s string) []string {
	return slices.DeleteFunc(match.Words(s), func(w string) bool { return stop[w] })
}

// overlap counts the words of b that occur in a.
func overlap(a map[string]bool, b []string) int {
	n := 0
	for _, w := range b {
		if a[w] {
			n++
		}
	}
	return n
}

func wordSet(ss ...string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		for _, w := range words(s) {
			m[w] = true
		}
	}
	return m
}

// candidates lists what the screen offers: a click on every visible,
// enabled, actionable element, and typing a parameter into a field whose
// words name it, once per field.
func (e *explorer) candidates(t *driver.Tree, filled map[string]bool) []*cand {
	if e.goalWords == nil {
		e.goalWords = wordSet(e.g.Text)
	}
	goal := e.goalWords
	var out []*cand
	for i, el := range t.Elements {
		if !interactive(el) {
			continue
		}
		elWords := words(strings.Join([]string{el.Name, el.Label, el.Text, el.Placeholder, el.ID, el.Description}, " "))
		c := &cand{el: el, op: action.Click, desc: describe(el), order: i}
		if e.secrets.Holds(c.desc) {
			// Named by a secret shown on the screen: its description
			// would carry it to the journal, knowledge and the trace.
			continue
		}
		if el.Editable {
			c.op, c.param = action.Type, e.paramFor(elWords)
			if c.param == "" || filled[c.desc] {
				continue
			}
			c.lex = overlap(wordSet(c.param), elWords)
		}
		c.lex += overlap(goal, elWords)
		out = append(out, c)
	}
	return out
}

// paramFor is the parameter whose name shares a word with a field's words.
func (e *explorer) paramFor(field []string) string {
	names := make([]string, 0, len(e.o.Params))
	for n := range e.o.Params {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if overlap(wordSet(n), field) > 0 {
			return n
		}
	}
	return ""
}

// know marks candidates with what knowledge says of them on this state:
// a step of the path kept for this command (its replay stopped short, but
// where its steps show they still lead) is best; an action that led on
// before, for any command, and was never undone comes next; one an
// exploration had to come back from is last.
func (e *explorer) know(key string, cs []*cand) error {
	for _, c := range cs {
		if e.pathSteps[c.step()] {
			c.known = onPath
		}
	}
	if e.o.Memory == nil {
		return nil
	}
	ts, err := e.o.Memory.Transitions(e.app, key)
	if err != nil {
		return err
	}
	for _, t := range ts {
		for _, c := range cs {
			if t.Action.Op != string(c.op) || t.Action.Target != c.desc || c.known == onPath {
				continue
			}
			switch {
			case t.Undo == "":
				c.known = ledOn
			case c.known == 0:
				c.known = undone
			}
		}
	}
	return nil
}

// What knowledge says of a candidate (cand.known).
const (
	undone = -1 // an exploration came back from it
	ledOn  = 1  // it led on, never undone
	onPath = 2  // a step of the path kept for this command
)

// order sorts candidates best first: the kept path's steps, then the
// model's score, then what else knowledge says, then shared words, then
// page order.
func order(cs []*cand) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		switch {
		case (a.known == onPath) != (b.known == onPath):
			return a.known == onPath
		case a.score != b.score:
			return a.score > b.score
		case a.known != b.known:
			return a.known > b.known
		case a.lex != b.lex:
			return a.lex > b.lex
		}
		return a.order < b.order
	})
}
