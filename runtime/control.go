package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

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
		if skipped, stop := in.skipDone(pos); stop {
			return nil
		} else if skipped {
			continue
		}
		if in.stopping(ctx) {
			return ErrInterrupted
		}
		if stop, err := in.iteration(ctx, pos, r.Body); stop || err != nil {
			return err
		}
	}
	return nil
}

// errBreak and errContinue carry break and continue from the statement
// up to the innermost loop, which ends or goes on to its next iteration.
// The checker allows them only inside a loop body.
var (
	errBreak    = errors.New("break outside a loop")
	errContinue = errors.New("continue outside a loop")
)

// loopJump separates a loop body's break or continue from its errors: the
// iteration finished normally, and jumped says how.
func loopJump(err error) (rest, jumped error) {
	if err == errBreak || err == errContinue {
		return nil, err
	}
	return err, nil
}

// while runs a while or until loop: before each iteration the condition is
// judged on a fresh look at the screen; while runs the body as long as it
// holds, until as long as it does not. A loop that would run more than its
// max: iterations (check.DefaultLoopMax when not given) or past its
// within: seconds (check.DefaultLoopWithin) is an error, never a silent
// exit. Each iteration is a loop position ("while" or "until"), journaled
// and skipped on resume like a repeat's.
func (in *Interp) while(ctx context.Context, w *ast.WhileStmt) error {
	kw := w.Keyword()
	label := kw + " " + printer.ExprString(w.Cond)
	limit, err := in.loopOption(ctx, w, "max", check.DefaultLoopMax, check.MaxRepeat)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", w.Range, label, err)
	}
	within, err := in.loopOption(ctx, w, "within", check.DefaultLoopWithin, check.MaxLoopWithin)
	if err != nil {
		return fmt.Errorf("%s: %s: %w", w.Range, label, err)
	}
	start := time.Now()
	for i := 0; ; i++ {
		pos := LoopPos{Var: kw, Index: i}
		if i < limit {
			if skipped, stop := in.skipDone(pos); stop {
				return nil
			} else if skipped {
				continue
			}
		}
		if in.stopping(ctx) {
			return ErrInterrupted
		}
		ok, err := in.condition(ctx, w.Cond)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", w.Cond.Rng(), label, err)
		}
		if ok == w.Until {
			return nil
		}
		if i >= limit {
			return fmt.Errorf("%s: the %s loop at line %d ran its %d iterations and its condition still says go on; raise the bound with max: (as in %s, max: %d { … }) if more are expected", w.Range, kw, w.Range.Start.Line, limit, label, min(2*limit, check.MaxRepeat))
		}
		if time.Since(start) > time.Duration(within)*time.Second {
			return fmt.Errorf("%s: the %s loop at line %d ran for more than its %d seconds (%d iterations) and its condition still says go on; raise the limit with within: (as in %s, within: %d { … })", w.Range, kw, w.Range.Start.Line, within, i, label, 2*within)
		}
		if stop, err := in.iteration(ctx, pos, w.Body); stop || err != nil {
			return err
		}
	}
}

// loopOption evaluates a while's max: or within:, a whole number from 1 to
// most, or gives def when the option is absent.
func (in *Interp) loopOption(ctx context.Context, w *ast.WhileStmt, name string, def, most int) (int, error) {
	e := w.Option(name)
	if e == nil {
		return def, nil
	}
	v, err := in.eval(ctx, e)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	if v.Type() != cty.Number || v.IsNull() || !v.IsKnown() {
		return 0, fmt.Errorf("%s: is not a number", name)
	}
	f, _ := v.AsBigFloat().Float64()
	if f != math.Trunc(f) || f < 1 || f > float64(most) {
		return 0, fmt.Errorf("%s: is %s; it must be a whole number from 1 to %d", name, render(v), most)
	}
	return int(f), nil
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

// skipDone skips an iteration an earlier, interrupted run finished:
// skipped says so, and stop that the iteration ended its loop with break.
func (in *Interp) skipDone(pos LoopPos) (skipped, stop bool) {
	if in.opts.Done == nil || !in.opts.Done(append(in.position(), pos)) {
		return false, false
	}
	in.stats.Skipped++
	return true, in.broke(pos)
}

// iteration runs one iteration of a repeat, while or until body at pos,
// in a scope of its own, and journals it when it finishes; stop says the
// body broke out of its loop.
func (in *Interp) iteration(ctx context.Context, pos LoopPos, body *ast.Block) (stop bool, err error) {
	in.loops = append(in.loops, pos)
	in.vars = append(in.vars, map[string]cty.Value{})
	err, jumped := loopJump(in.block(ctx, body))
	in.vars = in.vars[:len(in.vars)-1]
	if err == nil {
		in.iterationDone(jumped)
	}
	in.loops = in.loops[:len(in.loops)-1]
	return jumped == errBreak, err
}
