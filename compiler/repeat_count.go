package compiler

// The repeat-count stage: a run of identical steps done as many times as
// a number the screen named becomes `repeat` that number.

import (
	"fmt"
	"strconv"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

// repeatCounts replaces, in the task's top-level steps, each run of two or
// more identical steps (the same action on the same element, with the
// same values) whose count is a number the screen showed before the run
// ("Click the button 3 times") by `repeat parse_number(PROGRAM) { step }`,
// PROGRAM reading that number as the screen search reads any value (the
// instruction area first; a number found only by coincidence is no
// evidence, screen.go). Another instance then does it as many times as it
// names. Key presses are left alone: how many an arrow key needs depends
// on where the control started (key_run.go), not on a number to copy.
func (c *compiler) repeatCounts(f *ast.File) {
	if c.literal || f == nil {
		return
	}
	for _, d := range f.Decls {
		task, ok := d.(*ast.Task)
		if !ok {
			continue
		}
		task.Body.Stmts = c.foldRepeats(task.Body.Stmts)
	}
}

// foldRepeats returns stmts with each run of identical steps whose count
// the screen named made a repeat.
func (c *compiler) foldRepeats(stmts []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for i := 0; i < len(stmts); i++ {
		n := c.sameSteps(stmts, i)
		if n < 2 {
			out = append(out, stmts[i])
			continue
		}
		op := c.stepOp(stmts[i])
		count, ok := c.screenValue(op, strconv.Itoa(n))
		if !ok || usesAny(stmts[i+n:], stmts[i+1:i+n]) {
			out = append(out, stmts[i])
			continue
		}
		first := stmts[i].(*ast.Step)
		r := &ast.RepeatStmt{Count: call("parse_number", count), Body: &ast.Block{Stmts: []ast.Stmt{first}}}
		r.StmtMeta = first.StmtMeta
		first.StmtMeta = ast.StmtMeta{Comments: ast.Comments{Trailing: first.Comments.Trailing}}
		r.Comments.Leading = append(r.Comments.Leading, ast.Comment{Text: fmt.Sprintf("# Demonstrated %d times: the number the screen named.", n)})
		r.Comments.Trailing = nil
		out = append(out, r)
		i += n - 1
	}
	return out
}

// sameSteps is how many steps from stmts[i] on are the same action on the
// same element with the same values (1 when stmts[i] is not a step of an
// op that may repeat).
func (c *compiler) sameSteps(stmts []ast.Stmt, i int) int {
	op := c.stepOp(stmts[i])
	if op < 0 || c.infos[op].Action == action.Key || c.infos[op].Target == nil {
		return 1
	}
	want := printer.ExprString(stepCall(stmts[i].(*ast.Step).Value))
	n := 1
	for k := i + 1; k < len(stmts); k++ {
		o := c.stepOp(stmts[k])
		if o < 0 || c.infos[o].Action != c.infos[op].Action || printer.ExprString(stepCall(stmts[k].(*ast.Step).Value)) != want {
			break
		}
		n++
	}
	return n
}

// stepOp is the op a step emitted as opN came from, or -1.
func (c *compiler) stepOp(s ast.Stmt) int {
	st, ok := s.(*ast.Step)
	if !ok || !isStepName(st.Name.Name) {
		return -1
	}
	n, err := strconv.Atoi(st.Name.Name[2:])
	if err != nil || n < 1 || n > len(c.infos) {
		return -1
	}
	return n - 1
}

// usesAny reports whether a statement of later refers to a step of
// removed: folding them into a repeat would hide them.
func usesAny(later, removed []ast.Stmt) bool {
	names := map[string]bool{}
	for _, s := range removed {
		if st, ok := s.(*ast.Step); ok {
			names[st.Name.Name] = true
		}
	}
	used := false
	for _, s := range later {
		walkStmtExprs(s, func(e ast.Expr) {
			ast.Inspect(e, func(x ast.Expr) bool {
				if r, ok := x.(*ast.Ref); ok && names[r.Name] {
					used = true
				}
				return !used
			})
		})
	}
	return used
}
