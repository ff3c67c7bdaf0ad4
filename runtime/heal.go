package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/explore"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/redact"
)

// Healing: when a step's target is not on the screen (no element matches
// its description), a run with Options.Heal, or a step inside an explore
// block, explores the app (runtime/explore) until the description anchors
// exactly one visible element, then the step acts as usual. The goal is
// checked by anchoring itself, so exploration stops on the screen where
// the step would find its target, and never on one where it would be
// ambiguous. Exploration takes only actions it can undo, unless the run's
// confirm policy says yes. A path found by healing is kept (Heals) so
// that the workflow can be patched to take it.

// ExploreConfig configures a run's explorations.
type ExploreConfig struct {
	// Model ranks candidates and judges goals no check decides; nil ranks
	// by the goal's words and by knowledge only.
	Model llm.Client
	// Memory is the knowledge explorations read and add to; nil: none.
	Memory explore.Memory
}

// Heal is a path healing found for a step: the steps that made its
// target show. A patch inserts them before the step.
type Heal struct {
	Step  *ast.Step
	Loops []LoopPos
	Path  []knowledge.Step
	// Steps is how many exploration steps it took, detours included.
	Steps int
}

// Heals returns the paths healing found, one per step healed, in the
// order the steps ran.
func (in *Interp) Heals() []Heal { return in.heals }

// ExploreReport is one exploration step, as observers see it: where the
// run was (the step whose target was missing, or the step computing an
// explore<…> dependency) and what the explorer did.
type ExploreReport struct {
	Step  string
	Line  int
	Loops []LoopPos
	// Kind is why the run explored: "heal" (--heal), "block" (an explore
	// block) or "dependency" (explore<…>).
	Kind string
	// Explore is the explorer's step.
	Explore explore.Step
}

// ExploreObserver is an Observer that also wants exploration steps.
type ExploreObserver interface {
	Explored(ExploreReport)
}

// Explored passes an exploration step to the observers that want it.
func (m Observers) Explored(r ExploreReport) {
	for _, o := range m {
		if eo, ok := o.(ExploreObserver); ok {
			eo.Explored(r)
		}
	}
}

// exploreScope is an explore block being run: its goal and the budget it
// has left.
type exploreScope struct {
	stmt *ast.ExploreStmt
	left int
}

// exploreBlock runs an explore block's body with exploration on for its
// steps' missing targets.
func (in *Interp) exploreBlock(ctx context.Context, s *ast.ExploreStmt) error {
	budget := explore.DefaultBudget
	if b := s.Option("budget"); b != nil {
		v, err := in.eval(ctx, b)
		if err != nil {
			return fmt.Errorf("%s: explore budget: %w", s.Range, err)
		}
		n, err := intOf(v)
		if err != nil || n < 1 {
			return fmt.Errorf("%s: explore budget: want a whole number of steps, at least 1", s.Range)
		}
		budget = n
	}
	in.explores = append(in.explores, &exploreScope{stmt: s, left: budget})
	defer func() { in.explores = in.explores[:len(in.explores)-1] }()
	return in.block(ctx, s.Body)
}

// anchorTarget anchors a step's target (anchorShown) and, when nothing
// matches it and the step may explore, explores for it.
func (in *Interp) anchorTarget(ctx context.Context, e *Elem, timeout time.Duration) (*driver.Element, error) {
	live, err := in.anchorShown(ctx, e, timeout)
	var miss *AnchorError
	if err == nil || e.Desc == nil || !errors.As(err, &miss) || miss.Ambiguous || miss.Empty {
		return live, err
	}
	var scope *exploreScope
	if n := len(in.explores); n > 0 {
		scope = in.explores[n-1]
	}
	if scope == nil && !in.opts.Heal {
		return nil, err
	}
	kind, budget, command := "heal", explore.DefaultBudget, ""
	if in.task.Goal != nil {
		command = in.task.Goal.Value
	}
	if scope != nil {
		if scope.left == 0 {
			// The explorer reads a budget of 0 as its default: a block
			// that spent its budget explores no more.
			return nil, exploreFailed(err, fmt.Errorf("explore: the budget of the explore block at line %d is spent",
				scope.stmt.Range.Start.Line), nil)
		}
		kind, budget, command = "block", scope.left, scope.stmt.Goal.Value
	}
	if in.current != nil {
		command += ": " + stepSource(in.current)
	}
	goal := explore.Goal{Text: e.Desc.String() + " shows on the screen", Check: in.shows(ctx, e)}
	res, xerr := in.explore(ctx, kind, goal, budget, command)
	if scope != nil {
		scope.left = max(scope.left-budgetUsed(res.Steps), 0)
	}
	if xerr != nil {
		return nil, exploreFailed(err, xerr, res.Steps)
	}
	if !res.Reached {
		return nil, exploreFailed(err, errors.New("explore: the goal was not reached"), res.Steps)
	}
	// The step acts as usual, on the screen exploration left: anchored
	// again, by the same rules, so it can still fail.
	in.tree = nil
	live, err = in.anchorShown(ctx, e, timeout)
	if err != nil {
		return nil, err
	}
	// A step of a library skill is in another file: a path inserted into
	// the workflow before a step of that name and line would land on
	// some other step, or nowhere; it is not kept for a patch.
	if scope == nil && in.current != nil && len(res.Path) > 0 && !in.healed(in.current) && in.current.Range.Filename == in.task.Range.Filename {
		in.heals = append(in.heals, Heal{Step: in.current, Loops: in.position(), Path: res.Path, Steps: len(res.Steps)})
	}
	return live, nil
}

// healed reports whether a path was kept for the step already (a step in
// a loop heals at every iteration; one patch is enough).
func (in *Interp) healed(s *ast.Step) bool {
	for _, h := range in.heals {
		if h.Step == s {
			return true
		}
	}
	return false
}

// shows is the goal of exploring for e: its description anchors exactly
// one visible element on the screen, by the rules a step anchors with
// (an ambiguity is not the goal). A tie it settles is not noted: the step
// notes it when it anchors its target on the screen reached.
func (in *Interp) shows(ctx context.Context, e *Elem) func(*driver.Tree) (bool, error) {
	return func(t *driver.Tree) (bool, error) {
		in.tree = t
		ties := in.ties
		el, err := in.anchorElement(ctx, e)
		in.tree, in.ties = nil, ties
		var miss *AnchorError
		if errors.As(err, &miss) {
			return false, nil
		}
		if err != nil {
			return false, err
		}
		return el.Visible, nil
	}
}

// explore runs one exploration for the current step, telling observers
// of each step it takes.
func (in *Interp) explore(ctx context.Context, kind string, g explore.Goal, budget int, command string) (explore.Result, error) {
	j := &exploreJournal{in: in, kind: kind}
	if s := in.current; s != nil {
		j.step, j.line = s.Name.Name, s.Range.Start.Line
	}
	j.loops = in.position()
	o := explore.Options{Budget: budget, Command: command, Memory: in.opts.Explore.Memory, Model: in.redacted(in.opts.Explore.Model),
		IrreversibleWords: in.opts.IrreversibleWords, Confirm: in.confirmExplore, OnStep: j.onStep}
	res, err := explore.Explore(ctx, in.drv, g, o)
	j.flush()
	in.tree = nil // exploring changed the screen
	if err != nil && (ctx.Err() != nil || errors.Is(err, driver.ErrGone)) {
		// Never swallowed: the step stops as an interrupted or gone one,
		// marked as stopped before it acted.
		return res, &exploringError{err: err}
	}
	return res, err
}

// redacted is the exploring model as the run may ask it: the explorer
// leaves fields' values out of its prompts, but a screen can show a
// secret elsewhere (a title, a greeting, a link's name), so every prompt
// passes through the run's secrets first. Nil stays nil.
func (in *Interp) redacted(m llm.Client) llm.Client {
	if m == nil || in.secrets.Len() == 0 {
		return m
	}
	return redactedModel{m: m, secrets: in.secrets}
}

type redactedModel struct {
	m       llm.Client
	secrets *redact.Set
}

// Complete implements llm.Client: the request's messages redacted.
func (r redactedModel) Complete(ctx context.Context, req llm.Request) (*llm.Response, error) {
	msgs := make([]llm.Message, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = llm.Message{Role: m.Role, Content: r.secrets.String(m.Content)}
	}
	req.Messages = msgs
	return r.m.Complete(ctx, req)
}

// confirmExplore is the run's confirm policy applied to an action
// exploration cannot undo: --yes allows it, a person at the terminal is
// asked, and with nobody there it is not taken.
func (in *Interp) confirmExplore(_ context.Context, el *driver.Element, why string) bool {
	if in.opts.Yes {
		return true
	}
	if in.opts.Prompter == nil {
		return false
	}
	where := ""
	if s := in.current; s != nil {
		where = fmt.Sprintf("line %d, step %s: ", s.Range.Start.Line, s.Name.Name)
	}
	q := fmt.Sprintf("%sexploring would click %s, which may not be undone (%s)\ndo it? [y]es, [n]o (try something else)", where, describe(el), why)
	for {
		answer, err := in.opts.Prompter.Ask(q)
		if err != nil {
			return false
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return true
		case "n", "no":
			return false
		}
	}
}

// exploreJournal reports exploration steps to the observers. The explorer
// tells a step again when its note changes (the screen did not change,
// the goal was reached): only its last form is reported.
type exploreJournal struct {
	in         *Interp
	kind, step string
	line       int
	loops      []LoopPos
	pending    *explore.Step
}

// onStep receives the explorer's steps; a step told again replaces the
// pending one.
func (j *exploreJournal) onStep(s explore.Step) {
	if p := j.pending; p != nil && (p.N != s.N || p.Direction != s.Direction || p.Op != s.Op || p.Target != s.Target) {
		j.flush()
	}
	j.pending = &s
}

// flush reports the pending step, if any.
func (j *exploreJournal) flush() {
	if j.pending == nil {
		return
	}
	j.in.stats.Explored++
	if eo, ok := j.in.opts.Observer.(ExploreObserver); ok {
		eo.Explored(ExploreReport{Step: j.step, Line: j.line, Loops: j.loops, Kind: j.kind, Explore: *j.pending})
	}
	j.pending = nil
}

// budgetUsed counts the steps that used an exploration's budget.
func budgetUsed(steps []explore.Step) int {
	n := 0
	for _, s := range steps {
		if s.Direction != explore.Replay && s.Op != "skip" {
			n++
		}
	}
	return n
}

// exploringError is an interruption, or a driver gone, while exploring
// for a step's target: before the step's own action, so the step is not
// in doubt.
type exploringError struct{ err error }

func (e *exploringError) Error() string { return "while exploring for the target: " + e.err.Error() }
func (e *exploringError) Unwrap() error { return e.err }

// beforeActing reports whether a step's error came before its action did
// anything: exploring for its target was stopped.
func beforeActing(err error) bool {
	var x *exploringError
	return errors.As(err, &x)
}

// ExploreError is a step whose target was missing and exploring did not
// make it show: the anchor's error, and what exploration tried.
type ExploreError struct {
	Anchor  error // the *AnchorError of the miss, or the error anchoring gave
	Explore error // why exploring stopped: its budget, a dead end, a failure
	Steps   []explore.Step
}

// Error says the anchor's error, then what exploring tried.
func (e *ExploreError) Error() string {
	var b strings.Builder
	b.WriteString(e.Anchor.Error())
	fmt.Fprintf(&b, "\nexploring for it (%d steps) did not make it show: %s", len(e.Steps), firstLine(e.Explore.Error()))
	for _, s := range e.Steps {
		fmt.Fprintf(&b, "\n  explored: %s", s)
	}
	return b.String()
}

// Unwrap gives both errors: a try block still sees an anchor miss.
func (e *ExploreError) Unwrap() []error { return []error{e.Anchor, e.Explore} }

func exploreFailed(anchor, xerr error, steps []explore.Step) error {
	var x *exploringError
	if errors.As(xerr, &x) {
		return xerr
	}
	return &ExploreError{Anchor: anchor, Explore: xerr, Steps: steps}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "; steps tried:")
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Explored implements ExploreObserver: one journal line per exploration
// step.
func (r *JournalObserver) Explored(x ExploreReport) {
	s := x.Explore
	r.keep(r.W.Explore(journal.ExploreEvent{Task: r.Task, Step: x.Step, Line: x.Line, Loop: loopPositions(x.Loops), Kind: x.Kind,
		N: s.N, Direction: s.Direction, Op: s.Op, Target: s.Target, Reached: s.Reached, Note: s.Note}))
}
