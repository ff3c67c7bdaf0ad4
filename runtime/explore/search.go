package explore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/redact"
)

// maxLessons bounds the model calls spent on lessons after a success.
const maxLessons = 3

// explorer is one exploration's state.
type explorer struct {
	d            driver.Driver
	g            Goal
	o            Options
	app, command string
	budget       int
	n            int // budget used
	steps        []Step
	calls        int
	lessons      []string               // what earlier explorations learned
	seen         []knowledge.Transition // transitions this exploration caused
	wrong        []wrongBranch
	goalWords    map[string]bool // the goal's words, once
	emitted      int             // steps OnStep was told of
	// secrets are the values of the secret Params: a screen may show one
	// (a text echoing what was typed), and no prompt may carry it.
	secrets *redact.Set
	// pathSteps are the steps of the path kept for the command, when its
	// replay stopped short.
	pathSteps map[knowledge.Step]bool
	// prefix are the steps of the kept path replayed before the replay
	// stopped, and prefixBefore the screens they acted on: the search
	// starts where they led, so the path it finds begins with them.
	prefix       []knowledge.Step
	prefixBefore []*driver.Tree
	prefixFound  *driver.Element // the element the last replayed step acted on
}

// wrongBranch is an action exploration had to undo, and why.
type wrongBranch struct {
	branch []string
	why    string
}

// frame is a screen on the current path of the search.
type frame struct {
	tree   *driver.Tree
	key    string          // stateKey of tree, for knowledge
	sig    string          // signature of tree, for the search
	filled map[string]bool // fields typed into on the way here, by description
	cands  []*cand         // ranked, best first
	next   int             // the next candidate to try
	via    *cand           // the action that led here; nil for the first screen
	viaT   int             // its transition in explorer.seen
	// hopeless says why no candidate of this screen is worth trying.
	hopeless string
}

// id tells states apart for cycle detection: a field typed into makes a
// new state although the screen's key stays.
func (f *frame) id() string {
	ks := make([]string, 0, len(f.filled))
	for k := range f.filled {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return f.sig + "|" + strings.Join(ks, ",")
}

func newExplorer(d driver.Driver, g Goal, o Options) *explorer {
	e := &explorer{d: d, g: g, o: o, app: o.App, command: o.Command, budget: o.Budget, secrets: redact.New()}
	for _, name := range o.Secrets {
		e.secrets.Add(o.Params[name])
	}
	if e.budget <= 0 {
		e.budget = DefaultBudget
	}
	if e.command == "" {
		e.command = g.Text
	}
	return e
}

func (e *explorer) run(ctx context.Context) (Result, error) {
	t, err := e.d.Observe(ctx)
	if err != nil {
		return Result{}, e.driverErr(ctx, "observe", err)
	}
	if e.app == "" {
		e.app = knowledge.AppOf(t)
	}
	if e.o.Memory != nil {
		res, ok, err := e.replay(ctx)
		if err != nil || ok {
			return res, err
		}
		if t, err = e.d.Observe(ctx); err != nil {
			return Result{}, e.driverErr(ctx, "observe", err)
		}
		ls, err := e.o.Memory.Lessons(e.app, e.command)
		if err != nil {
			return Result{}, fmt.Errorf("explore: reading lessons: %w", err)
		}
		for _, l := range ls {
			e.lessons = append(e.lessons, l.Text)
		}
	}
	return e.search(ctx, t)
}

// search is the depth-first search: forward on the best untried candidate,
// back when a screen has nothing left worth trying or leads to a screen
// seen before.
func (e *explorer) search(ctx context.Context, t *driver.Tree) (Result, error) {
	root := &frame{tree: t, key: stateKey(t), sig: signature(t), filled: map[string]bool{}, viaT: -1}
	if ok, err := e.reached(ctx, t); err != nil || ok {
		if err != nil {
			return Result{}, err
		}
		return e.success(ctx, []*frame{root})
	}
	if err := e.enter(ctx, root, true); err != nil {
		return Result{}, err
	}
	stack := []*frame{root}
	visited := map[string]bool{root.id(): true}
	for {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		top := stack[len(stack)-1]
		c := e.pick(ctx, top)
		if c == nil {
			if len(stack) == 1 {
				return Result{}, &DeadEndError{Steps: e.steps}
			}
			why := top.hopeless
			if why == "" {
				why = "no untried candidate left"
			}
			if err := e.undo(ctx, top, stack[:len(stack)-1], why); err != nil {
				return Result{}, err
			}
			stack = stack[:len(stack)-1]
			continue
		}
		child, err := e.forward(ctx, top, c)
		if err != nil || child == nil {
			if err != nil {
				return Result{}, err
			}
			continue
		}
		if ok, err := e.reached(ctx, child.tree); err != nil || ok {
			if err != nil {
				return Result{}, err
			}
			e.steps[len(e.steps)-1].Reached = true
			return e.success(ctx, append(stack, child))
		}
		if visited[child.id()] {
			if err := e.undo(ctx, child, stack, "it leads to a screen seen before"); err != nil {
				return Result{}, err
			}
			continue
		}
		visited[child.id()] = true
		if err := e.enter(ctx, child, false); err != nil {
			return Result{}, err
		}
		stack = append(stack, child)
	}
}

// enter lists and ranks a screen's candidates. With a model, a screen
// (other than the first) whose best candidate scores below progressScore
// is judged to make no progress.
func (e *explorer) enter(ctx context.Context, f *frame, first bool) error {
	f.cands = e.candidates(f.tree, f.filled)
	if f.via != nil && f.via.op == action.Click {
		// The element just clicked, still there, would only close what it
		// opened (a menu button toggles): that is an undo, not a way on.
		f.cands = slices.DeleteFunc(f.cands, func(c *cand) bool { return c.op == action.Click && c.desc == f.via.desc })
	}
	if err := e.know(f.key, f.cands); err != nil {
		return fmt.Errorf("explore: reading knowledge: %w", err)
	}
	if e.o.Model != nil && len(f.cands) > 0 {
		scored, err := e.rank(ctx, f.tree, f.cands)
		if err != nil {
			return err
		}
		best := 0
		for _, c := range f.cands {
			best = max(best, c.score)
		}
		// An answer with no score in it says nothing of progress: the
		// screen is then searched by knowledge and words alone.
		if !first && scored > 0 && best < progressScore {
			f.hopeless = fmt.Sprintf("the model judges no progress: best score %d", best)
		}
	}
	order(f.cands)
	return nil
}

// pick is the frame's next candidate worth trying; an irreversible one is
// skipped unless Confirm allows it.
func (e *explorer) pick(ctx context.Context, f *frame) *cand {
	if f.hopeless != "" {
		return nil
	}
	for f.next < len(f.cands) {
		c := f.cands[f.next]
		f.next++
		if why := e.refused(ctx, c.el); why != "" {
			e.record(Step{N: e.n, Direction: Forward, Op: "skip", Target: c.desc, Note: why})
			continue
		}
		return c
	}
	return nil
}

// refused says why acting on el is not allowed: it is irreversible and
// Confirm did not allow it; "" when it may be acted on. Every action the
// exploration takes on an element it chose or found again (a forward
// step, a replayed one, one repeated on the way back) asks it.
func (e *explorer) refused(ctx context.Context, el *driver.Element) string {
	why := Irreversible(el, e.o.IrreversibleWords...)
	if why == "" || e.o.Confirm != nil && e.o.Confirm(ctx, el, why) {
		return ""
	}
	return "irreversible, not confirmed: " + why
}

// forward takes a candidate and returns the screen it led to, or nil when
// the screen did not change (nothing to undo, try the next candidate).
func (e *explorer) forward(ctx context.Context, top *frame, c *cand) (*frame, error) {
	t, err := e.act(ctx, Forward, c.op, c.el, c.desc, c.param, scoreNote(c))
	if err != nil {
		return nil, err
	}
	filled := top.filled
	if c.op == action.Type {
		filled = map[string]bool{c.desc: true}
		for k := range top.filled {
			filled[k] = true
		}
	}
	key, sig := stateKey(t), signature(t)
	if c.op != action.Type && sig == top.sig {
		e.steps[len(e.steps)-1].Note = joinNote(e.steps[len(e.steps)-1].Note, "the screen did not change")
		top.tree = t
		e.refresh(top)
		return nil, nil
	}
	e.seen = append(e.seen, knowledge.Transition{App: e.app, From: top.key, Action: c.step(), To: key, Count: 1})
	return &frame{tree: t, key: key, sig: sig, filled: filled, via: c, viaT: len(e.seen) - 1}, nil
}

func scoreNote(c *cand) string {
	var parts []string
	switch c.known {
	case onPath:
		parts = append(parts, "knowledge: on the path kept for this command")
	case ledOn:
		parts = append(parts, "knowledge: led on before")
	}
	if c.score > 0 {
		parts = append(parts, fmt.Sprintf("model score %d", c.score))
	}
	if c.lex > 0 {
		parts = append(parts, fmt.Sprintf("%d goal words", c.lex))
	}
	return strings.Join(parts, ", ")
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// act performs one budgeted step and observes the screen after it.
func (e *explorer) act(ctx context.Context, dir string, op action.Name, el *driver.Element, desc, param, note string) (*driver.Tree, error) {
	if e.n >= e.budget {
		return nil, &BudgetError{Budget: e.budget, Steps: e.steps}
	}
	e.n++
	a := driver.Action{Op: op, Target: el}
	if op == action.Type {
		a.Text, a.Secret = e.o.Params[param], slices.Contains(e.o.Secrets, param)
	}
	if op == action.Key {
		a.Text = param
	}
	e.record(Step{N: e.n, Direction: dir, Op: string(op), Target: desc, Note: note})
	if _, err := e.d.Do(ctx, a); err != nil {
		return nil, e.driverErr(ctx, fmt.Sprintf("step %d %s %s", e.n, op, desc), err)
	}
	t, err := e.d.Observe(ctx)
	if err != nil {
		return nil, e.driverErr(ctx, "observe", err)
	}
	return t, nil
}

func (e *explorer) driverErr(ctx context.Context, what string, err error) error {
	if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return ctx.Err()
	}
	return fmt.Errorf("explore: %s: %w", what, err)
}

// record adds a step. OnStep is told of the step before it once it is
// complete: the screen it led to judged, its note and Reached final.
func (e *explorer) record(s Step) {
	e.flush()
	e.steps = append(e.steps, s)
}

// flush tells OnStep of the complete steps it has not seen: all but the
// last one, or all of them when the exploration is over.
func (e *explorer) flush() {
	for ; e.emitted < len(e.steps); e.emitted++ {
		if e.o.OnStep != nil {
			e.o.OnStep(e.steps[e.emitted])
		}
	}
}

// reached checks the goal on a screen.
func (e *explorer) reached(ctx context.Context, t *driver.Tree) (bool, error) {
	if e.g.Check != nil {
		ok, err := e.g.Check(t)
		if err != nil {
			return false, fmt.Errorf("explore: checking the goal: %w", err)
		}
		return ok, nil
	}
	ok, why, err := e.judgeReached(ctx, t)
	if err == nil && len(e.steps) > 0 {
		e.steps[len(e.steps)-1].Note = joinNote(e.steps[len(e.steps)-1].Note, "model: "+why)
	}
	return ok, err
}

// success keeps what the exploration learned and returns the path.
func (e *explorer) success(ctx context.Context, stack []*frame) (Result, error) {
	res := Result{Reached: true, Path: slices.Clone(e.prefix), Before: slices.Clone(e.prefixBefore), Found: e.prefixFound}
	for i, f := range stack[1:] {
		res.Path = append(res.Path, f.via.step())
		res.Before = append(res.Before, stack[i].tree)
		res.Found = f.via.el
	}
	if e.o.Memory == nil {
		return res, nil
	}
	now := time.Now()
	for _, t := range e.seen {
		t.Seen = now
		if err := e.o.Memory.AddTransition(t); err != nil {
			return res, fmt.Errorf("explore: reached the goal, but saving knowledge failed: %w", err)
		}
	}
	if len(res.Path) > 0 {
		p := knowledge.Path{App: e.app, Command: e.command, Steps: res.Path, Saved: now}
		if err := e.o.Memory.SavePath(p); err != nil {
			return res, fmt.Errorf("explore: reached the goal, but saving the path failed: %w", err)
		}
	}
	if tm, ok := e.o.Memory.(TaskMemory); ok && e.command != "" {
		if err := tm.SaveTask(e.task(now)); err != nil {
			return res, fmt.Errorf("explore: reached the goal, but saving the command failed: %w", err)
		}
	}
	if e.o.Model == nil {
		return res, nil
	}
	for i, w := range e.wrong {
		if i == maxLessons {
			break
		}
		text, err := e.lesson(ctx, w.branch, w.why)
		if err != nil {
			return res, fmt.Errorf("explore: reached the goal, but asking for a lesson failed: %w", err)
		}
		if text == "" {
			continue
		}
		if err := e.o.Memory.AddLesson(knowledge.Lesson{App: e.app, Command: e.command, Text: text, Saved: now}); err != nil {
			return res, fmt.Errorf("explore: reached the goal, but saving a lesson failed: %w", err)
		}
	}
	return res, nil
}
