package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
)

// Control flow: if, else if, else and repeat, and the element tests
// conditions use.

// ifStmt runs the first branch whose condition holds, or the else branch.
// Each condition is judged on the screen as it is now.
func (in *Interp) ifStmt(ctx context.Context, s *ast.IfStmt) error {
	line := s.Range.Start.Line
	head := "if "
	for c := s; c != nil; c = c.ElseIf {
		label := head + printer.ExprString(c.Cond)
		ok, err := in.condition(ctx, c.Cond)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", c.Cond.Rng(), label, err)
		}
		if ok {
			return in.branch(ctx, line, label, c.Then)
		}
		if c.Else != nil {
			return in.branch(ctx, line, "else", c.Else)
		}
		head = "else if "
	}
	return nil
}

// condition evaluates an if's condition on a fresh observation.
func (in *Interp) condition(ctx context.Context, e ast.Expr) (bool, error) {
	in.tree = nil
	v, err := in.eval(ctx, e)
	if err != nil {
		return false, err
	}
	if v.Type() != cty.Bool || v.IsNull() || !v.IsKnown() {
		return false, fmt.Errorf("the condition is not true or false")
	}
	return v.True(), nil
}

// branch runs the body of the branch taken; the steps in it report it in
// StepReport.Branches.
func (in *Interp) branch(ctx context.Context, line int, label string, b *ast.Block) error {
	in.branches = append(in.branches, fmt.Sprintf("line %d: %s", line, label))
	in.vars = append(in.vars, map[string]cty.Value{})
	err := in.block(ctx, b)
	in.vars = in.vars[:len(in.vars)-1]
	in.branches = in.branches[:len(in.branches)-1]
	return err
}

// RepeatVar is the variable name a repeat's iterations have in loop
// positions (journal, resume): a keyword, so no loop variable has it.
const RepeatVar = "repeat"

// repeat runs its body the number of times its count gives now: a whole
// number from 0 to check.MaxRepeat. Each iteration is a loop position,
// journaled and skipped on resume like a for loop's.
func (in *Interp) repeat(ctx context.Context, r *ast.RepeatStmt) error {
	v, err := in.eval(ctx, r.Count)
	if err != nil {
		return fmt.Errorf("%s: repeat: %w", r.Range, err)
	}
	n, err := repeatCount(v)
	if err != nil {
		return fmt.Errorf("%s: repeat: %w", r.Range, err)
	}
	for i := 0; i < n; i++ {
		pos := LoopPos{Var: RepeatVar, Index: i}
		if in.opts.Done != nil && in.opts.Done(append(in.position(), pos)) {
			in.stats.Skipped++
			continue
		}
		if in.stopping(ctx) {
			return ErrInterrupted
		}
		in.loops = append(in.loops, pos)
		in.vars = append(in.vars, map[string]cty.Value{})
		err := in.block(ctx, r.Body)
		in.vars = in.vars[:len(in.vars)-1]
		if err == nil {
			in.stats.Iterations++
			if in.opts.Observer != nil {
				in.opts.Observer.IterationDone(in.position())
			}
		}
		in.loops = in.loops[:len(in.loops)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

func repeatCount(v cty.Value) (int, error) {
	if v.Type() != cty.Number || v.IsNull() || !v.IsKnown() {
		return 0, fmt.Errorf("the count is not a number")
	}
	f, _ := v.AsBigFloat().Float64()
	if f != math.Trunc(f) || f < 0 || f > check.MaxRepeat {
		return 0, fmt.Errorf("the count is %s; it must be a whole number from 0 to %d", render(v), check.MaxRepeat)
	}
	return int(f), nil
}

// elementPredicate evaluates exists(e) and visible(e): anchoring without
// waiting and without failing when nothing matches. exists is true when
// the description picks one element now, visible when that element is
// also shown. A description several elements match equally well is an
// error, never a guess.
func (in *Interp) elementPredicate(ctx context.Context, e *ast.Call) (cty.Value, error) {
	name := e.CalleeName()
	if len(e.Args) != 1 {
		return cty.NilVal, fmt.Errorf("%s takes one element", name)
	}
	v, err := in.eval(ctx, e.Args[0].Value)
	if err != nil {
		return cty.NilVal, err
	}
	el, err := asElem(v)
	if err != nil {
		return cty.NilVal, fmt.Errorf("%s: %w", name, err)
	}
	live, err := in.anchorElement(ctx, el)
	var anchorErr *AnchorError
	switch {
	case err == nil:
	case errors.As(err, &anchorErr) && !anchorErr.Ambiguous && !anchorErr.Empty:
		return cty.False, nil
	default:
		return cty.NilVal, fmt.Errorf("%s: %w", name, err)
	}
	if name == "visible" {
		return cty.BoolVal(live.Visible), nil
	}
	return cty.True, nil
}
