// Package explore searches an app for a goal, forward and backward (after
// AutoTask): it ranks the actions a screen offers, takes the best, checks
// whether the goal now holds, undoes an action that led nowhere (the back
// key, closing a menu, clearing a field) and tries the next one, within a
// step budget. What it learns goes to knowledge (runtime/knowledge): the
// transitions it saw, the path that reached the goal, which the next
// exploration of the same command replays without a model, and short
// lessons drawn from wrong branches.
package explore

import (
	"context"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
)

// DefaultBudget is how many forward and back steps an exploration may take
// when Options.Budget is 0.
const DefaultBudget = 20

// Goal is what an exploration must reach.
type Goal struct {
	// Text says the goal in words; the model reads it, and its words rank
	// candidates when there is no model.
	Text string
	// Check decides whether a screen shows the goal reached, with no
	// model. Nil: the model judges completion, and exploring without a
	// model is an error.
	Check func(*driver.Tree) (bool, error)
}

// Memory is the knowledge an exploration reads and adds to. The store of
// runtime/knowledge implements it; tests may keep it in memory.
type Memory interface {
	Transitions(app, from string) ([]knowledge.Transition, error)
	AddTransition(knowledge.Transition) error
	Path(app, command string) (knowledge.Path, bool, error)
	SavePath(knowledge.Path) error
	AddLesson(knowledge.Lesson) error
	Lessons(app, command string) ([]knowledge.Lesson, error)
}

// Options tune an exploration.
type Options struct {
	// Budget bounds the forward and back steps; 0 means DefaultBudget.
	// Replayed steps do not count.
	Budget int
	// App names the app or site for knowledge (an Android package, a site
	// origin); empty: taken from the first screen's URL.
	App string
	// Command is the command as a person gave it; with App it keys the
	// path knowledge keeps. Empty: Goal.Text.
	Command string
	// Params are the values the command carries, by name. A field whose
	// words name a parameter gets its value typed; the path keeps {name}.
	// Values never reach the model, the journal or knowledge.
	Params map[string]string
	// Secrets names the Params that are secrets: typed with
	// driver.Action.Secret so the driver neither logs nor shows them.
	Secrets []string
	// Memory is the knowledge read and written; nil explores from nothing
	// and remembers nothing.
	Memory Memory
	// Model ranks candidates and judges progress and completion; nil ranks
	// by knowledge and by the words of the goal only, and needs Goal.Check.
	Model llm.Client
	// ModelName is the model the requests name (cogflow.hcl's
	// text_model); empty: config.DefaultTextModel.
	ModelName string
	// Confirm is asked before an irreversible action (submit, delete,
	// send, pay, …); nil or false: the action is never taken.
	Confirm func(ctx context.Context, e *driver.Element, why string) bool
	// IrreversibleWords add to the words that mark an action irreversible
	// (the knowledge base's, a project's own).
	IrreversibleWords []string
	// OnStep sees every step once, as soon as it is complete (the
	// journal): when the next one begins, or the exploration ends.
	OnStep func(Step)
}

// Directions of a Step.
const (
	Forward = "forward" // an action toward the goal
	Back    = "back"    // an undo of the last forward action
	Replay  = "replay"  // a step of a path knowledge kept
)

// Step is one step of an exploration, as the journal shows it.
type Step struct {
	// N counts the steps that used the budget, from 1; a step that did not
	// act (a skipped irreversible action) repeats the last N. Replayed
	// steps use no budget: N is their place in the path.
	N         int
	Direction string // Forward, Back or Replay
	Op        string // click, type, back, key, clear, skip, …
	Target    string // the element in .cog syntax, e.g. `button(name: "Import")`
	Reached   bool   // the goal held after this step
	Note      string // why: the model's score, "no change", "seen before", …
}

// String is the step on one line, for errors and logs.
func (s Step) String() string {
	t := fmt.Sprintf("%d %s %s", s.N, s.Direction, s.Op)
	if s.Target != "" {
		t += " " + s.Target
	}
	if s.Note != "" {
		t += " (" + s.Note + ")"
	}
	return t
}

// Result is what an exploration did.
type Result struct {
	Reached bool
	// Found is the element the last forward or replayed step acted on.
	Found *driver.Element
	// Path is the way to the goal without the detours that were undone:
	// what a replay or a recorded trace repeats.
	Path []knowledge.Step
	// Before holds, for each step of Path, the screen it acted on: what a
	// trace of the path records (TraceOf).
	Before []*driver.Tree
	// Steps are all the steps, detours included.
	Steps []Step
	// ModelCalls counts the requests made to the model.
	ModelCalls int
	// Replayed says the path came from knowledge and needed no search.
	Replayed bool
}

// BudgetError is the error of an exploration that used its budget up.
type BudgetError struct {
	Budget int
	Steps  []Step
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("explore: the budget of %d steps is used up without reaching the goal; steps tried: %s",
		e.Budget, listSteps(e.Steps))
}

// DeadEndError is the error of an exploration that tried every candidate
// it could reach and found no way to the goal.
type DeadEndError struct {
	Steps []Step
}

func (e *DeadEndError) Error() string {
	return "explore: every candidate was tried and none reached the goal; steps tried: " + listSteps(e.Steps)
}

func listSteps(steps []Step) string {
	if len(steps) == 0 {
		return "none"
	}
	parts := make([]string, len(steps))
	for i, s := range steps {
		parts[i] = s.String()
	}
	return strings.Join(parts, "; ")
}

// Explore carries a command out on the driver's current screen: first by
// replaying the path knowledge keeps for it, else (or when the replay does
// not reach the goal) by searching. A cancelled ctx ends it with ctx's
// error unchanged.
func Explore(ctx context.Context, d driver.Driver, g Goal, o Options) (Result, error) {
	if g.Check == nil && o.Model == nil {
		return Result{}, fmt.Errorf("explore: goal %q needs a model to judge when it is reached, or a check", g.Text)
	}
	e := newExplorer(d, g, o)
	res, err := e.run(ctx)
	e.flush()
	res.Steps = e.steps
	res.ModelCalls = e.calls
	return res, err
}
