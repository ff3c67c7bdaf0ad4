package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/driver"
)

// ArgRecord is one resolved argument of a step, for the journal.
type ArgRecord struct {
	Name, Value, Source string
}

// StepReport is what an observer learns about one step.
type StepReport struct {
	Step   string
	Line   int
	Source string // the step as written
	Loops  []LoopPos
	// Branches are the branches of the ifs the step ran in, outermost
	// first: "line 5: else if n > 1".
	Branches   []string
	Op         string
	Args       []ArgRecord
	Value      string
	ValueFrom  string // which answerer answered a dependency, if one did
	TokensIn   int    // model tokens the step's dependencies cost
	TokensOut  int
	CostUSD    float64
	ModelCalls int
	ModelTime  time.Duration // waiting for the model, within Duration
	Started    time.Time
	Duration   time.Duration
	Outcome    string // ok, failed, skipped, declined, in_doubt
	Err        error
	Screenshot []byte
	// intended is set once the step's intent was journaled: from then on
	// the step may have taken effect.
	intended bool
	// NoScreenshot says why the screenshot asked for is missing.
	NoScreenshot string
	// Ties are the ties between candidates anchoring settled for the
	// step, by rule and count (ties.go), for a reviewer to check.
	Ties []string
}

// IntentObserver is an Observer that keeps a write-ahead journal: Intent
// gets the step with its resolved arguments before the driver acts, and
// must have made it durable when it returns. An error stops the run
// before the step acts.
type IntentObserver interface {
	Intent(StepReport) error
}

// JournalError is a journal that cannot be written: the run stops before
// the step acts, since nothing could tell afterwards whether it did.
type JournalError struct{ Err error }

func (e *JournalError) Error() string {
	return fmt.Sprintf("the journal cannot be written, so the step was not performed: %v", e.Err)
}

func (e *JournalError) Unwrap() error { return e.Err }

// Observer receives a run's events: the journal implements it.
type Observer interface {
	Step(StepReport)
	IterationDone(loops []LoopPos)
	Interrupted(at Position)
}

// Position is where a run stopped: the last step that finished (empty
// when none did) and the loop iterations it was in.
type Position struct {
	Step  string
	Line  int
	Loops []LoopPos
}

// step runs one step: asks first when asked to, performs the action or
// skill, and records the outcome.
func (in *Interp) step(ctx context.Context, s *ast.Step) error {
	prev := in.current
	in.current = s
	defer func() { in.current = prev }()
	rec := StepReport{Step: s.Name.Name, Line: in.lineOf(s), Source: stepSource(s), Loops: in.position(), Branches: append([]string(nil), in.branches...), Started: time.Now()}
	call, _ := s.Value.(*ast.Call)
	if call != nil {
		rec.Op = call.CalleeName()
	}
	if in.settleSkip(s) {
		rec.Outcome = "skipped"
		in.stats.Skipped++
		in.record(rec)
		return nil
	}
	if go_, err := in.permitted(s); err != nil || !go_ {
		rec.Outcome = "declined"
		in.stats.Skipped++
		in.record(rec)
		return err
	}
	outer := in.used
	in.used = nil
	v, err := in.perform(ctx, s, call, &rec)
	used := in.used
	in.used = outer
	in.tree = nil // whatever the step did, the UI may have changed
	rec.Duration = elapsed(rec.Started)
	if err != nil {
		if rec.intended && !beforeActing(err) && (ctx.Err() != nil || errors.Is(err, driver.ErrGone)) {
			// Stopped hard or the driver went away while acting: the
			// effect may or may not have happened.
			rec.Outcome, rec.Err = "in_doubt", err
			in.record(rec)
			if ctx.Err() != nil {
				return ErrInterrupted
			}
			return &StepError{Step: s, Loops: in.position(), Err: err}
		}
		if ctx.Err() != nil {
			if rec.intended {
				// Stopped while exploring for the target: the step did
				// not act, and its journal entry says so, so a resume
				// runs it (and explores) again instead of asking.
				rec.Outcome, rec.Err = "failed", err
				in.record(rec)
			}
			return ErrInterrupted
		}
		err = in.forgetUsed(used, err)
		rec.Outcome, rec.Err = "failed", err
		in.stats.Failed++
		in.screenshot(ctx, &rec)
		in.record(rec)
		return &StepError{Step: s, Loops: in.position(), Err: err}
	}
	in.set(s.Name.Name, v)
	in.last, in.lastLoops, in.lastLine = s, in.position(), in.lineOf(s)
	rec.Outcome, rec.Value = "ok", render(v)
	in.stats.Steps++
	if in.opts.Screenshots {
		in.screenshot(ctx, &rec)
	}
	in.record(rec)
	return nil
}

// permitted asks the person before a step when the run is step by step or
// the step is a confirm step. It returns false for "no": the step is
// skipped and the run goes on; "quit" stops the run.
func (in *Interp) permitted(s *ast.Step) (bool, error) {
	need := in.opts.StepByStep || (s.Confirm && !in.opts.Yes)
	if !need {
		return true, nil
	}
	if in.opts.Prompter == nil {
		if s.Confirm {
			return false, fmt.Errorf("%s: step %s needs a confirmation and nobody is at the terminal; run with --yes to confirm it", s.Range, s.Name.Name)
		}
		return true, nil
	}
	q := fmt.Sprintf("line %d: %s\nrun this step? [y]es, [n]o (skip it), [q]uit", s.Range.Start.Line, stepSource(s))
	for {
		answer, err := in.opts.Prompter.Ask(q)
		if err != nil {
			hint := ""
			if s.Confirm {
				hint = " (--yes confirms without asking)"
			}
			return false, fmt.Errorf("%s: step %s: no answer%s: %w", s.Range, s.Name.Name, hint, err)
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return true, nil
		case "n", "no":
			return false, nil
		case "q", "quit":
			return false, ErrInterrupted
		}
	}
}

func (in *Interp) record(rec StepReport) {
	if in.opts.Observer != nil {
		in.opts.Observer.Step(rec)
	}
}

func (in *Interp) screenshot(ctx context.Context, rec *StepReport) {
	png, err := in.drv.Screenshot(ctx)
	if err != nil {
		rec.NoScreenshot = err.Error()
		return
	}
	rec.Screenshot = png
}

// perform evaluates the arguments and runs the action or skill.
func (in *Interp) perform(ctx context.Context, s *ast.Step, call *ast.Call, rec *StepReport) (cty.Value, error) {
	if call == nil {
		return cty.NilVal, fmt.Errorf("a step must perform an action")
	}
	if skill := in.skills[call.CalleeName()]; skill != nil {
		return in.runSkill(ctx, skill, call, rec)
	}
	action := check.Actions[call.CalleeName()]
	if action == nil {
		return cty.NilVal, fmt.Errorf("unknown action %s", call.CalleeName())
	}
	args, err := in.bindArgs(ctx, action, call, rec)
	if err != nil {
		return cty.NilVal, err
	}
	if ir, ok := in.opts.Observer.(IntentObserver); ok {
		if err := ir.Intent(*rec); err != nil {
			return cty.NilVal, &JournalError{Err: err}
		}
	}
	rec.intended = true
	in.ties = nil
	v, err := in.act(ctx, action, args)
	rec.Ties = in.ties
	if err == nil && in.settles(s, "check") {
		err = in.readBack(ctx, action.Name, args)
	}
	return v, err
}

// bindArgs evaluates a call's arguments by parameter name.
func (in *Interp) bindArgs(ctx context.Context, action *check.Action, call *ast.Call, rec *StepReport) (map[string]cty.Value, error) {
	args := map[string]cty.Value{}
	for i, a := range call.Args {
		name := ""
		if a.Name != nil {
			name = a.Name.Name
		} else if i < len(action.Params) {
			name = action.Params[i].Name
		}
		if name == "example" || name == "in_doubt" {
			// example: is the demonstration's value, for a person reading
			// the workflow: the run neither computes nor records it, so a
			// journal never shows it as if the step had used it. in_doubt:
			// is for a resume, which reads it from the workflow.
			continue
		}
		v, err := in.eval(ctx, a.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		args[name] = v
		rec.Args = append(rec.Args, ArgRecord{Name: name, Value: render(v), Source: in.argOrigin(a.Value)})
		ast.Inspect(a.Value, func(x ast.Expr) bool {
			if d, ok := x.(*ast.Dependency); ok && in.lastSource[d] != "" {
				rec.ValueFrom = in.lastSource[d]
				if ans := in.lastAnswer[d]; ans != nil && !ans.Cached {
					rec.TokensIn += ans.TokensIn
					rec.TokensOut += ans.TokensOut
					rec.CostUSD += ans.CostUSD
					rec.ModelCalls += ans.Calls
					rec.ModelTime += ans.Latency
				}
			}
			return true
		})
		if err := in.checkURLArg(action, name, a.Value, v); err != nil {
			// A safety rule's refusal: no try's fallback takes over.
			return nil, StopsRun(err)
		}
	}
	return args, nil
}

// sourceOf says where an argument's value comes from, for the journal.
func sourceOf(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StringLit, *ast.NumberLit, *ast.BoolLit, *ast.ListLit:
		return "literal"
	case *ast.Ref:
		return "ref " + e.Name
	case *ast.Dependency:
		return "dependency " + e.Sub.Name
	case *ast.Call:
		if n := e.CalleeName(); n != "" {
			if check.ElementRoles[n] {
				return "element"
			}
			return "function " + n
		}
		return "method"
	}
	return "expression"
}

// runSkill runs a skill's steps in a scope of their own; its value is its
// last step's.
func (in *Interp) runSkill(ctx context.Context, skill *ast.Skill, call *ast.Call, rec *StepReport) (cty.Value, error) {
	scope := map[string]cty.Value{}
	for i, p := range skill.Params {
		var arg *ast.Arg
		for j, a := range call.Args {
			if (a.Name == nil && j == i) || (a.Name != nil && a.Name.Name == p.Name.Name) {
				arg = a
			}
		}
		if arg == nil {
			return cty.NilVal, fmt.Errorf("skill %s: no value for %s", skill.Name.Name, p.Name.Name)
		}
		v, err := in.eval(ctx, arg.Value)
		if err != nil {
			return cty.NilVal, fmt.Errorf("skill %s: %s: %w", skill.Name.Name, p.Name.Name, err)
		}
		scope[p.Name.Name] = v
		rec.Args = append(rec.Args, ArgRecord{Name: p.Name.Name, Value: render(v), Source: in.argOrigin(arg.Value)})
	}
	if in.callLine == 0 && in.current != nil && skill.Range.Filename != in.task.Range.Filename {
		in.callLine = in.lineOf(in.current)
		defer func() { in.callLine = 0 }()
	}
	saved := in.vars
	in.vars = []map[string]cty.Value{scope}
	defer func() { in.vars = saved }()
	if err := in.block(ctx, skill.Body); err != nil {
		return cty.NilVal, err
	}
	result := cty.NullVal(cty.DynamicPseudoType)
	if n := len(skill.Body.Stmts); n > 0 {
		if last, ok := skill.Body.Stmts[n-1].(*ast.Step); ok {
			result, _ = in.get(last.Name.Name)
		}
	}
	return result, nil
}

// lineOf is the line a run reports step s at, and a resume finds it by:
// its own, but for a step of a library skill (another file, whose line
// numbers would be taken for the workflow's) the line of the workflow's
// step that called the skill.
func (in *Interp) lineOf(s *ast.Step) int { return in.lineAt(s.Range) }

// lineAt is lineOf for any statement's range r (a try is found by its line
// too).
func (in *Interp) lineAt(r ast.Range) int {
	if in.callLine != 0 && r.Filename != in.task.Range.Filename {
		return in.callLine
	}
	return r.Start.Line
}

// act performs one action through the driver.
func (in *Interp) act(ctx context.Context, spec *check.Action, args map[string]cty.Value) (cty.Value, error) {
	a := driver.Action{Op: spec.Name}
	var target *Elem
	if spec.Name == action.Wait {
		// wait looks for its element until it appears: anchoring it
		// before waiting would fail on what is not there yet.
		if e, err := asElem(args["until"]); err == nil {
			if err := namedOptions(&a, args); err != nil {
				return cty.NilVal, err
			}
			if waitCounts(args) {
				return cty.NullVal(cty.DynamicPseudoType), in.waitCount(ctx, a, e, args)
			}
			return cty.NullVal(cty.DynamicPseudoType), in.wait(ctx, a, e, args["until"])
		}
	}
	if u := args["until"]; spec.Name == action.Wait && u != cty.NilVal && !u.IsNull() && u.Type() == cty.Number {
		if _, err := seconds(string(action.Wait), u); err != nil {
			return cty.NilVal, err
		}
	}
	// The options first: the step's timeout also bounds the look for its
	// target (anchorShown).
	if err := namedOptions(&a, args); err != nil {
		return cty.NilVal, err
	}
	for _, p := range spec.Params {
		v, ok := args[p.Name]
		if !ok || v.IsNull() || p.NamedOnly {
			continue // named-only arguments are options of the step: namedOptions
		}
		if err := in.fill(ctx, &a, p.Name, v, &target); err != nil {
			return cty.NilVal, err
		}
	}
	if spec.Name == action.SetViewport {
		a.Text, a.Number = viewportText(args), 0
	}
	switch spec.Name {
	case action.Wait:
		return cty.NullVal(cty.DynamicPseudoType), in.wait(ctx, a, target, args["until"])
	case action.Assert:
		return cty.NullVal(cty.DynamicPseudoType), in.assert(ctx, a, target, args)
	}
	if err := fillOptions(&a, args); err != nil {
		return cty.NilVal, err
	}
	if err := fillAndroidArgs(&a, args); err != nil {
		return cty.NilVal, err
	}
	if a.Target != nil && a.Target.Secret && a.Text != "" && secretParam(spec) != "" && !in.secrets.Holds(a.Text) {
		// A plain text typed into a password field is a secret from now
		// on: the step's record is written after this, and the journal
		// takes it out of what it wrote before (run_started's inputs). The
		// intent journaled before act holds no argument values.
		if err := in.learnSecret(a.Text); err != nil {
			return cty.NilVal, err
		}
	}
	a.Secret = in.secrets.Holds(a.Text) || holdsSecret(a, in.secrets.Holds)
	res, err := in.drv.Do(ctx, a)
	if err != nil {
		return cty.NilVal, err
	}
	if res.Secret {
		in.secrets.Derive(res.Text)
	}
	switch {
	case spec.Result.Kind == types.Element && target != nil:
		return elemVal(target), nil
	case spec.Result.Kind == types.Text:
		return cty.StringVal(res.Text), nil
	case spec.Result.Kind == types.Window && res.Window != nil:
		return windowVal(res.Window), nil
	case spec.Name == action.ReadTable:
		return tableVal(res.Table), nil
	case spec.Name == action.ContentQuery:
		return rowsVal(res.Rows), nil
	case spec.Result.Kind == types.List: // multi_select: what it selected
		return args["targets"], nil
	}
	return cty.NullVal(cty.DynamicPseudoType), nil
}

// fill sets the driver action's field for one argument.
func (in *Interp) fill(ctx context.Context, a *driver.Action, param string, v cty.Value, target **Elem) error {
	if param == "files" {
		return nil // upload's files: fillOptions
	}
	if param == "path" && a.Op == action.MenuPath {
		return fillPath(a, v) // options_pattern.go
	}
	if v.Type().Equals(types.ElementCapsule) {
		e, err := asElem(v)
		if err != nil {
			return err
		}
		live, err := in.anchorTarget(ctx, e, a.Timeout)
		if err != nil {
			return err
		}
		switch {
		case a.Target == nil:
			a.Target, *target = live, e
		default:
			a.Target2 = live
		}
		return nil
	}
	if v.Type().IsListType() {
		for _, item := range v.AsValueSlice() {
			e, err := asElem(item)
			if err != nil {
				return err
			}
			live, err := in.anchorElement(ctx, e)
			if err != nil {
				return err
			}
			a.Targets = append(a.Targets, live)
		}
		return nil
	}
	switch v.Type() {
	case cty.Number:
		f, _ := v.AsBigFloat().Float64()
		a.Number = f
	case cty.String:
		if param == "data" && a.Op == action.Intent {
			a.Data = v.AsString() // intent's data URI; its action is Text
			break
		}
		if param == "activity" && a.Text != "" {
			// launch(app, activity:) — the driver takes "pkg/activity",
			// the form of `am start -n` and of a recorded start.
			a.Text += "/" + v.AsString()
			break
		}
		a.Text = v.AsString()
	case cty.Bool:
		a.Text = fmt.Sprint(v.True())
	default:
		if w, ok := asWindow(v); ok {
			a.Text = w.Title
		}
	}
	return nil
}

// wait waits a number of seconds, until an element can be anchored, or
// until a text appears, within the action timeout.
func (in *Interp) wait(ctx context.Context, a driver.Action, target *Elem, until cty.Value) error {
	if target == nil {
		_, err := in.drv.Do(ctx, a)
		return err
	}
	deadline := time.Now().Add(waitLimit)
	if a.Timeout > 0 {
		deadline = time.Now().Add(a.Timeout)
	}
	for {
		in.tree = nil
		_, err := in.anchorElement(ctx, target)
		var anchorErr *AnchorError
		if err == nil || !errors.As(err, &anchorErr) || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return ErrInterrupted
		case <-time.After(waitPoll):
		}
	}
}

// waitLimit and waitPoll bound wait(element): the driver reports UI changes
// as they settle after actions, but an element that appears on its own
// (a timer, a push) needs looking for again.
const (
	waitLimit = 10 * time.Second
	waitPoll  = 100 * time.Millisecond
)

// assert stops the run unless its condition holds.
func (in *Interp) assert(ctx context.Context, a driver.Action, target *Elem, args map[string]cty.Value) error {
	msg := "assertion failed"
	if m, ok := args["message"]; ok && !m.IsNull() {
		msg = m.AsString()
	}
	cond := args["condition"]
	switch {
	case target != nil:
		return nil // fill resolved it, or failed already
	case cond.Type() == cty.Bool:
		if cond.False() {
			return errors.New(msg)
		}
		return nil
	case cond.Type() == cty.String:
		tree, err := in.observe(ctx)
		if err != nil {
			return err
		}
		for _, el := range tree.Elements {
			if strings.Contains(normalize(el.Text+" "+el.Value), normalize(cond.AsString())) {
				return nil
			}
		}
		return fmt.Errorf("%s: %q is not on the screen", msg, cond.AsString())
	}
	return nil
}
