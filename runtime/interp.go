// Package runtime runs checked workflows: it evaluates expressions as
// go-cty values, anchors element descriptions on the live UI, performs each
// step through a driver, answers cognitive dependencies through a cascade
// of answerers, and reports every step to an observer (the run journal is one).
//
// The pipeline reads top to bottom in Interp.Run: inputs → declarations →
// steps in order, loops over lists found at run time → summary.
package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/redact"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// Options configure a run.
type Options struct {
	// Inputs are the raw values given for the task's inputs (--input,
	// a CSV row); inputs not given take their defaults.
	Inputs map[string]string
	// Yes confirms `confirm` steps without asking.
	Yes bool
	// StepByStep asks before every step.
	StepByStep bool
	// Prompter talks to the person at the terminal; nil means nobody is
	// there, so confirm steps fail unless Yes is set.
	Prompter Prompter
	// Answerers answer cognitive dependencies, tried in order after the
	// structural one.
	Answerers []dependency.Answerer
	// AllowOrigins widens the URL policy (urlpolicy.go): origins such as
	// "https://example.com", "https://*.example.com" or "*", to which
	// open and new_tab may go with a URL from a model or the page.
	AllowOrigins []string
	// Observer receives every step; nil reports to no one.
	Observer Observer
	// Done tells which loop iterations an earlier, interrupted run already
	// finished, so that a resumed run skips them: it gets the positions of
	// all enclosing loops, innermost last. Nil skips nothing.
	Done func([]LoopPos) bool
	// Broke tells which of those finished iterations ended their loop
	// with break: a resumed run ends the loop there. Nil: none.
	Broke func([]LoopPos) bool
	// FellBack tells which tries an earlier, interrupted run left in their
	// fallback, by the try's line and the loop iterations it was in: a
	// resumed run goes on in the fallback, without running the body
	// again. Nil: none.
	FellBack func(line int, loops []LoopPos) bool
	// IrreversibleWords are the knowledge base's words of actions that
	// cannot be undone (stdlib/kb irreversible): anchoring never settles
	// a tie between identical controls that carry one, and exploring
	// never takes such an action without confirm.
	IrreversibleWords []string
	// Screenshots asks for a screenshot after every step.
	Screenshots bool
	// Stop, once closed, stops the run gracefully: the step in flight
	// finishes (its action, its settling and its journal entry) and the
	// run ends with ErrInterrupted before the next step. Cancelling the
	// context passed to Run instead stops at once; a step whose action was
	// under way is then journaled as in doubt.
	Stop <-chan struct{}
	// Settle tells a resumed run what to do with the step its resumed run
	// left in doubt; nil when there is none.
	Settle *Settle
	// Secrets is the run's set of secrets, shared with the journal, the
	// answerers and the terminal output: the run adds its secret inputs
	// and every text it derives from them (taint.go). Nil: a set of its own.
	Secrets *redact.Set
	// Heal makes a step whose target is not on the screen explore the
	// app for it, as a step in an explore block does, and keeps the path
	// found for a patch (heal.go; cogflow run --heal).
	Heal bool
	// Explore configures every exploration of the run (heal, explore
	// blocks, explore<…> dependencies).
	Explore ExploreConfig
}

// Settle is how a resumed run treats the step left in doubt, found by its
// line and its loop position (each level's variable and index).
type Settle struct {
	Line  int
	Loops []LoopPos
	// Policy is "skip" (outside a loop the step is left out; inside one
	// its item counts as done, which Done reports), "redo" (the step runs
	// again) or "check" (it runs again, then its effect is read back: the
	// field holds the typed text, the page is at the opened URL).
	Policy string
}

// LoopPos is the position in one loop: its variable, the item's index and
// a key identifying the item (its text as the iteration found it), so that
// a resumed run skips the right items even when the list changed. After is
// the item's key when its iteration finished, for items the loop changes
// (a row whose title it rewrites); empty while the iteration runs.
type LoopPos struct {
	Var   string
	Index int
	Key   string
	After string
	// Broke is set in IterationDone when the iteration ended its loop
	// with break.
	Broke bool
}

// Interp runs one task.
type Interp struct {
	task    *ast.Task
	skills  map[string]*ast.Skill
	info    *check.Info
	drv     driver.Driver
	opts    Options
	fns     map[string]function.Function
	vars    []map[string]cty.Value
	secrets *redact.Set
	loops   []LoopPos
	// branches are the if branches being run, outermost first.
	branches []string
	tree     *driver.Tree // the last observation, dropped after every action
	ties     []string     // the ties anchoring settled in the current step (ties.go)
	stats    Stats
	ctx      context.Context // the run's context, for the function library
	current  *ast.Step       // the step being run
	last     *ast.Step       // the last step that finished
	// lastLoops is where last finished: its loop iterations; lastLine
	// the line it is reported at (lineOf).
	lastLoops []LoopPos
	lastLine  int
	// callLine is the line of the workflow's step that called the library
	// skill being run, 0 outside one (lineOf).
	callLine int
	// lastSource records which answerer answered each dependency.
	lastSource map[*ast.Dependency]string
	lastAnswer map[*ast.Dependency]*dependency.Answer
	urls       *urlPolicy // built at the first URL nobody wrote
	// used lists the answers the running step's own arguments used, so
	// that the step, if it fails, forgets them (forget.go).
	used []usedAnswer
	// explores are the explore blocks being run, innermost last; heals
	// the paths healing found (heal.go).
	explores []*exploreScope
	heals    []Heal
}

// Stats count what a run did.
type Stats struct {
	Steps, Failed, Skipped, Iterations int
	// Explored counts exploration steps (heal.go), replays included.
	Explored int
}

// New prepares a run of the task of file; info must come from checking
// the file.
func New(file *ast.File, task *ast.Task, info *check.Info, drv driver.Driver, opts Options) *Interp {
	if opts.Secrets == nil {
		opts.Secrets = redact.New()
	}
	in := &Interp{task: task, info: info, drv: drv, opts: opts, vars: []map[string]cty.Value{{}}, secrets: opts.Secrets,
		skills: skillsOf(file, info, DriverOf(task)), lastSource: map[*ast.Dependency]string{}, lastAnswer: map[*ast.Dependency]*dependency.Answer{}}
	return in
}

// skillsOf returns the skills a task of file run by driverName may call,
// by name: the library skills of that driver the checker found the file
// calling (info.LibraryByDriver: another task of the file may run on a
// driver whose library has a skill of the same name) and the file's own,
// which hide library skills of the same name.
func skillsOf(file *ast.File, info *check.Info, driverName string) map[string]*ast.Skill {
	skills := map[string]*ast.Skill{}
	if info != nil {
		for name, s := range info.LibraryByDriver[driverName] {
			skills[name] = s
		}
	}
	for _, d := range file.Decls {
		if s, ok := d.(*ast.Skill); ok {
			skills[s.Name.Name] = s
		}
	}
	return skills
}

// Run executes the task. It returns an *InterruptedError (errors.Is
// ErrInterrupted) when ctx is cancelled or Stop closed, a *StepError when
// a step fails, and nil when every step ran.
func (in *Interp) Run(ctx context.Context) (Stats, error) {
	in.ctx = ctx
	in.fns = funcs.Library(navigator{in: in, ctx: ctx})
	if err := in.bindInputs(); err != nil {
		return in.stats, err
	}
	err := in.block(ctx, in.task.Body)
	if errors.Is(err, context.Canceled) || errors.Is(err, ErrInterrupted) {
		at := Position{Loops: in.position()}
		if in.last != nil {
			at.Step, at.Line, at.Loops = in.last.Name.Name, in.lastLine, in.lastLoops
		}
		if in.opts.Observer != nil {
			in.opts.Observer.Interrupted(at)
		}
		return in.stats, &InterruptedError{At: at}
	}
	return in.stats, err
}

// Secrets returns the run's secrets: its secret inputs and the texts it
// derived from them, longest first.
func (in *Interp) Secrets() []string { return in.secrets.Values() }

// stopping reports whether the run was asked to stop, gracefully (Stop)
// or at once (the context): checked between steps, never within one. A
// graceful stop waits for the loop item in flight to finish too: a resume
// does an unfinished item again from its start, which would repeat the
// effects of its finished steps.
func (in *Interp) stopping(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	if len(in.loops) > 0 {
		return false
	}
	select {
	case <-in.opts.Stop:
		return true
	default:
		return false
	}
}

func (in *Interp) block(ctx context.Context, b *ast.Block) error {
	for _, s := range b.Stmts {
		if in.stopping(ctx) {
			return ErrInterrupted
		}
		var err error
		switch s := s.(type) {
		case *ast.AnchorDecl:
			err = in.anchor(ctx, s)
		case *ast.Step:
			err = in.step(ctx, s)
		case *ast.ForStmt:
			err = in.loop(ctx, s)
		case *ast.IfStmt:
			err = in.ifStmt(ctx, s)
		case *ast.RepeatStmt:
			err = in.repeat(ctx, s)
		case *ast.WhileStmt:
			err = in.while(ctx, s)
		case *ast.TryStmt:
			err = in.try(ctx, s)
		case *ast.ExploreStmt:
			err = in.exploreBlock(ctx, s)
		case *ast.JumpStmt:
			err = errBreak
			if s.Continue {
				err = errContinue
			}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (in *Interp) set(name string, v cty.Value) { in.vars[len(in.vars)-1][name] = v }

func (in *Interp) get(name string) (cty.Value, bool) {
	for i := len(in.vars) - 1; i >= 0; i-- {
		if v, ok := in.vars[i][name]; ok {
			return v, true
		}
	}
	return cty.NilVal, false
}

func (in *Interp) anchor(ctx context.Context, a *ast.AnchorDecl) error {
	v, err := in.eval(ctx, a.Value)
	if err != nil {
		return fmt.Errorf("%s: anchor %s: %w", a.Range, a.Name.Name, err)
	}
	if e, err := asElem(v); err == nil {
		e.Origin = "anchor " + a.Name.Name
	}
	in.set(a.Name.Name, v)
	return nil
}

// loop runs a for loop over the list its expression gives now.
func (in *Interp) loop(ctx context.Context, f *ast.ForStmt) error {
	list, err := in.eval(ctx, f.Iter)
	if err != nil {
		return fmt.Errorf("%s: for %s: %w", f.Range, f.Var.Name, err)
	}
	if !list.Type().IsListType() && !list.Type().IsTupleType() {
		return fmt.Errorf("%s: for %s: not a list", f.Range, f.Var.Name)
	}
	items := list.AsValueSlice()
	for i, item := range items {
		pos := LoopPos{Var: f.Var.Name, Index: i, Key: in.itemKey(ctx, item)}
		if skipped, stop := in.skipDone(pos); stop {
			return nil
		} else if skipped {
			continue
		}
		if in.stopping(ctx) {
			return ErrInterrupted
		}
		in.loops = append(in.loops, pos)
		in.vars = append(in.vars, map[string]cty.Value{f.Var.Name: item})
		err, jumped := loopJump(in.block(ctx, f.Body))
		in.vars = in.vars[:len(in.vars)-1]
		if err == nil {
			in.stats.Iterations++
			if in.opts.Observer != nil {
				done := append([]LoopPos(nil), in.loops...)
				done[len(done)-1].Broke = jumped == errBreak
				if _, notElem := asElem(item); notElem == nil {
					// The body may have changed the item's text: record
					// how it looks now too, so a resume knows it.
					done[len(done)-1].After = in.itemKey(ctx, item)
				}
				in.opts.Observer.IterationDone(done)
			}
		}
		in.loops = in.loops[:len(in.loops)-1]
		if err != nil {
			return err
		}
		if jumped == errBreak {
			return nil
		}
	}
	return nil
}

// itemKey identifies a loop item by its text, best effort.
func (in *Interp) itemKey(ctx context.Context, item cty.Value) string {
	if e, err := asElem(item); err == nil {
		if live, err := in.anchorElement(ctx, e); err == nil {
			return truncate(strings.Join(strings.Fields(elementText(live)), " "), 80)
		}
		return ""
	}
	return truncate(render(item), 80)
}

// position says where the run is, for the observers.
func (in *Interp) position() []LoopPos { return append([]LoopPos(nil), in.loops...) }

// broke reports whether the finished iteration pos of the innermost loop
// being entered ended its loop with break in an earlier run.
func (in *Interp) broke(pos LoopPos) bool {
	return in.opts.Broke != nil && in.opts.Broke(append(in.position(), pos))
}

// iterationDone reports the iteration just finished; jumped is how its
// body ended.
func (in *Interp) iterationDone(jumped error) {
	in.stats.Iterations++
	if in.opts.Observer != nil {
		p := in.position()
		p[len(p)-1].Broke = jumped == errBreak
		in.opts.Observer.IterationDone(p)
	}
}

// observe returns the current UI, observing once per action at most.
func (in *Interp) observe(ctx context.Context) (*driver.Tree, error) {
	if in.tree != nil {
		return in.tree, nil
	}
	t, err := in.drv.Observe(ctx)
	if err != nil {
		return nil, err
	}
	in.tree = t
	return t, nil
}

// stepSource renders a step as written, for prompts and journals.
func stepSource(s *ast.Step) string {
	src := s.Name.Name + " = " + printer.ExprString(s.Value)
	if s.Confirm {
		src = "confirm " + src
	}
	return src
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// elapsed is time since start rounded for journals.
func elapsed(start time.Time) time.Duration { return time.Since(start).Round(time.Microsecond) }
