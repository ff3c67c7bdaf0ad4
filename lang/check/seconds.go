package check

import (
	"strconv"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
)

// MaxWaitSeconds bounds wait(seconds) and every step's timeout: a day.
// A longer wait is a mistake (a missing unit, an extra digit), and an
// infinite one would never end.
const MaxWaitSeconds = 86400

// secondsLiteral checks a literal number of seconds — wait's until, any
// step's timeout — written as n or -n: it must be from 0 to
// MaxWaitSeconds (a timeout more than 0). A computed one is checked when
// the step runs.
func (c *checker) secondsLiteral(callee string, p Param, e ast.Expr) {
	if !(p.Name == "timeout" || (callee == string(action.Wait) && p.Name == "until")) {
		return
	}
	sign, rng := 1.0, e.Rng()
	if u, ok := e.(*ast.Unary); ok && u.Op == "-" {
		sign, e = -1, u.X
	}
	n, ok := e.(*ast.NumberLit)
	if !ok {
		return
	}
	f, err := strconv.ParseFloat(n.Raw, 64)
	if err != nil {
		return // out of range (1e999): the literal's own check reports it
	}
	f *= sign
	switch {
	case p.Name == "timeout" && f <= 0:
		c.diags.Errorf(rng, "%s's timeout must be more than 0 seconds, not %s", callee, signed(sign, n.Raw))
	case f < 0 || f > MaxWaitSeconds:
		c.diags.Errorf(rng, "%s's %s must be from 0 to %d seconds, not %s", callee, p.Name, MaxWaitSeconds, signed(sign, n.Raw))
	}
}

func signed(sign float64, raw string) string {
	if sign < 0 {
		return "-" + raw
	}
	return raw
}
