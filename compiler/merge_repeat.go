package compiler

// A step one demonstration did as a `repeat` of a count the screen named
// and another did once, as its own screen named (the repeat-count stage
// leaves one step alone): the same step (the merge stage, merge.go).

import (
	"strconv"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/trace"
)

// joinRepeats gives each single step the key of another demonstration's
// `repeat` of that step when the repeat's count, read on the step's own
// screen, is 1; alignment then puts them in one column, which writes the
// repeat (repeatOf). Without
// this, "1 time" and "4 times" would be two kinds of instance told apart
// by nothing, and an instance asking for 3 would click once and report ok.
func (m *merger) joinRepeats() {
	for _, d := range m.demos {
		for _, it := range d.items {
			if it.op < 0 || len(it.stmts) != 1 {
				continue // a longer run the demonstration's own count would have folded
			}
			for _, e := range m.demos {
				if r := e.repeatFor(it, m.opSnap(d, it.op)); r != nil {
					it.key = r.key
					break
				}
			}
		}
	}
}

// repeatFor is d's repeat of it's step alone whose count, read on s (it's
// screen), is how many times it was done; nil when d has none.
func (d *mergeDemo) repeatFor(it *mergeItem, s *trace.Snapshot) *mergeItem {
	if d == it.demo || s == nil {
		return nil
	}
	for _, r := range d.items {
		rs, ok := r.stmts[0].(*ast.RepeatStmt)
		if !ok || len(r.stmts) != 1 || len(rs.Body.Stmts) != 1 || d.stmtKey(rs.Body.Stmts[0]) != it.exact {
			continue
		}
		count, ok := rs.Count.(*ast.Call)
		if !ok || count.CalleeName() != "parse_number" || len(count.Args) != 1 {
			continue
		}
		got, err := evalOnSnapshot(count.Args[0].Value, s)
		if n, perr := strconv.ParseFloat(got, 64); err == nil && perr == nil && n == float64(len(it.stmts)) {
			return r
		}
	}
	return nil
}

// repeatOf is the repeat of a column that joins a repeat with runs of
// its step (joinRepeats); nil for any other column.
func repeatOf(c *column) *mergeItem {
	var rep *mergeItem
	steps := false
	for _, it := range c.at {
		if it == nil {
			continue
		}
		if _, ok := it.stmts[0].(*ast.RepeatStmt); ok {
			rep = it
		} else {
			steps = true
		}
	}
	if !steps {
		return nil
	}
	return rep
}
