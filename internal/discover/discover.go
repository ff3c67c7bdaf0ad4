// Package discover proposes skills for a site or app and lets only
// validated ones into the project's library (AXIS): it explores the app
// (runtime/explore), asks the model for skills from the trajectory, checks
// each proposal statically (parse, checker, signature) and dynamically (the
// skill run through package cogflow once per generated parameter set, the
// final state checked), and writes the ones that pass, with their
// validation history, to <project>/skills/<driver>/. It also re-validates
// and lists stored skills. It sits above package cogflow, whose Run it
// drives, so it is not under runtime/.
package discover

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/explore"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib/kb"
	"github.com/cogflow/cogflow/stdlib/skills"
)

// Modes of the exploration that collects the trajectory.
const (
	// Follower follows a task the person described: the model judges
	// when it is done.
	Follower = "follower"
	// Explorer surveys the app with no task, until the budget is used or
	// nothing is left to try.
	Explorer = "explorer"
)

// surveyGoal is the goal of explorer mode: its words rank candidates, and
// the model reads it.
const surveyGoal = "Survey the site: open each of its pages once and find its searches, forms and tables"

// Options configure a discovery.
type Options struct {
	Driver string // the driver's name: browser
	// Start is the page the exploration and every validation run start
	// from.
	Start string
	// Task, when set, is followed (follower mode); "" surveys (explorer).
	Task   string
	Budget int // exploration steps; 0: explore.DefaultBudget
	// Model proposes the skills and ranks exploration's candidates.
	Model     llm.Client
	ModelName string // "": config.DefaultTextModel
	// Mutate allows exploring with irreversible actions and validating
	// mutating skills: the target was named safe, or the person said yes.
	Mutate bool
	// Safe, when set, is the target named safe: irreversible exploration
	// steps and mutating skills act only on the pages it accepts (a link
	// may lead elsewhere). Nil with Mutate: anywhere (the person said yes).
	Safe func(url string) bool
	// Knowledge is the project's knowledge base: the checker's, and its
	// irreversible words. Nil: the default.
	Knowledge *kb.KB
	// ProjectDir receives the accepted skills (<ProjectDir>/skills/<driver>);
	// "": nothing is written.
	ProjectDir string
	// OnStep sees each exploration step.
	OnStep func(explore.Step)
}

// Report is what a discovery did.
type Report struct {
	Mode       string
	Steps      int  // exploration steps taken
	Reached    bool // follower mode: the task was carried out
	ModelCalls int  // exploration's model calls, plus the proposal's
	Trajectory Trajectory
	// Verdicts has one entry per proposal, in the model's order.
	Verdicts []Verdict
	// Written are the files written for accepted skills.
	Written []string
}

// Discover explores from o.Start, asks the model for skills, validates
// them and writes the accepted ones.
func Discover(ctx context.Context, d driver.Driver, o Options) (*Report, error) {
	if o.Model == nil {
		return nil, errors.New("discover: a model proposes the skills: configure one (cogflow.hcl or OPENAI_API_KEY)")
	}
	if o.Knowledge == nil {
		o.Knowledge = kb.Default()
	}
	rep := &Report{Mode: Explorer}
	model := &counting{Client: o.Model}
	defer func() { rep.ModelCalls = model.n }()
	o.Model = model
	w := &watcher{Driver: d}
	if _, err := w.Do(ctx, driver.Action{Op: action.Open, Text: o.Start}); err != nil {
		return nil, fmt.Errorf("discover: opening %s: %w", o.Start, err)
	}
	goal := explore.Goal{Text: surveyGoal, Check: func(*driver.Tree) (bool, error) { return false, nil }}
	if o.Task != "" {
		rep.Mode, goal = Follower, explore.Goal{Text: o.Task}
	}
	eo := explore.Options{Budget: o.Budget, Model: o.Model, ModelName: o.ModelName, OnStep: o.OnStep,
		IrreversibleWords: o.Knowledge.Irreversible}
	if o.Mutate {
		eo.Confirm = func(context.Context, *driver.Element, string) bool { return o.Safe == nil || o.Safe(w.at()) }
	}
	res, err := explore.Explore(ctx, w, goal, eo)
	var budget *explore.BudgetError
	var dead *explore.DeadEndError
	switch {
	case errors.As(err, &budget):
		rep.Steps = len(budget.Steps)
	case errors.As(err, &dead):
		rep.Steps = len(dead.Steps)
	case err != nil:
		return nil, fmt.Errorf("discover: exploring: %w", err)
	default:
		rep.Steps, rep.Reached = len(res.Steps), res.Reached
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	rep.Trajectory = w.trajectory()
	if len(rep.Trajectory.Visits) == 0 {
		return nil, errors.New("discover: the exploration saw no screen")
	}
	props, bad, err := propose(ctx, o, rep)
	if err != nil {
		return nil, err
	}
	for _, e := range bad {
		rep.Verdicts = append(rep.Verdicts, Verdict{Name: "?", Why: []string{e.Error()}})
	}
	props, over := limitProposals(props)
	rep.Verdicts = append(rep.Verdicts, over...)
	t := Target{Driver: d, Start: o.Start, Mutate: o.Mutate, Safe: o.Safe, Knowledge: o.Knowledge}
	named := map[string]bool{}
	for _, p := range props {
		c, why := Static(p, o.Driver, o.Knowledge)
		if named[p.Name] {
			c, why = nil, []string{fmt.Sprintf("an earlier proposal has the name %q", p.Name)}
		}
		named[p.Name] = true
		if c == nil {
			rep.Verdicts = append(rep.Verdicts, Verdict{Name: p.Name, Why: append([]string{"static validation failed"}, why...)})
			continue
		}
		v := Dynamic(ctx, c, t)
		if v.Accepted && o.ProjectDir != "" {
			paths, err := Write(o.ProjectDir, c, v, o.Start)
			if err != nil {
				// Validated, but not stored: it is not in the library.
				v.Accepted, v.Why = false, append(v.Why, err.Error())
			}
			rep.Written = append(rep.Written, paths...)
		}
		rep.Verdicts = append(rep.Verdicts, v)
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
	}
	return rep, nil
}

// MaxProposals is the most proposals of one reply that are validated: each
// takes up to MaxSets runs per body, and a reply is not to keep the
// validation going for hours.
const MaxProposals = 20

// limitProposals keeps the first MaxProposals proposals; the others get
// a verdict saying they were not validated.
func limitProposals(props []Proposal) ([]Proposal, []Verdict) {
	if len(props) <= MaxProposals {
		return props, nil
	}
	var over []Verdict
	for _, p := range props[MaxProposals:] {
		over = append(over, Verdict{Name: p.Name, Why: []string{fmt.Sprintf("not validated: the model proposed %d skills, and only the first %d are validated", len(props), MaxProposals)}})
	}
	return props[:MaxProposals], over
}

// counting counts the requests made to a model: exploration's (which an
// exploration that used its budget up does not report) and the proposal.
type counting struct {
	llm.Client
	mu sync.Mutex
	n  int
}

func (c *counting) Complete(ctx context.Context, r llm.Request) (*llm.Response, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.Client.Complete(ctx, r)
}

// at is the address of the screen seen last: where exploration's next
// action happens.
func (w *watcher) at() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if n := len(w.t.Visits); n > 0 {
		return w.t.Visits[n-1].URL
	}
	return ""
}

func (w *watcher) trajectory() Trajectory {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Trajectory{Visits: append([]Visit(nil), w.t.Visits...)}
}

// proposeSystem tells the model what to answer.
const proposeSystem = `You propose reusable skills for an app, from the trajectory of an agent exploring it.
A skill is written in the cogflow language, for example:

skill wiki_search(query: text) {
  s1 = open("http://host/wiki")
  s2 = type(textbox(name: "Search"), query)
  s3 = click(button(name: "Search"))
}

Steps are name = action(arguments); actions include open(url), click(element), type(element, text),
set_value(element, text), submit_form(element), enter(element), select_text(element), wait(text).
Elements are role(name: "…", id: "…"), as the trajectory shows them. Text joins with +;
urlquery(text) escapes a value for an address's query.
Answer with JSON only: {"skills": [ … ]}, each skill an object with
- "name": lower_case name; "description": one sentence;
- "params": [{"name": …, "type": "text"|"number"|"bool"|"url"|"secret"}] (secret for passwords, PINs);
- "parameter_sets": at least 3 objects of realistic values, one value per parameter, all different;
- "steps": the skill declaration doing it through the user interface;
- "api": the same skill (same name and parameters) as direct calls where one exists, such as open of the
  URL a GET form would load, or "" when there is none;
- "effect": "read_only" or "mutating" (it changes stored data: submits, saves, sends, deletes);
- "final_state": what holds after a run, with {param} for a parameter's value (never a secret one):
  {"url_contains": "…", "shows": ["text on the screen"], "elements": ["role(name: \"…\")"]}.
Propose only skills the trajectory shows the app supports.`

// propose asks the model for skills from the trajectory.
func propose(ctx context.Context, o Options, rep *Report) ([]Proposal, []error, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "Driver: %s\nStart: %s\n", o.Driver, o.Start)
	if rep.Mode == Follower {
		fmt.Fprintf(&b, "The agent followed the task %q (carried out: %v).\n", o.Task, rep.Reached)
	} else {
		b.WriteString("The agent surveyed the app with no task.\n")
	}
	if lib := skills.Stdlib().All(o.Driver); len(lib) > 0 {
		b.WriteString("Skills the driver ships, which steps may call:\n")
		for _, s := range lib {
			fmt.Fprintf(&b, "- %s: %s\n", s.Example(), s.Description())
		}
	}
	b.WriteString("Trajectory:\n")
	b.WriteString(rep.Trajectory.String())
	b.WriteString("Propose the skills.")
	name := o.ModelName
	if name == "" {
		name = config.DefaultTextModel
	}
	resp, err := o.Model.Complete(ctx, llm.Request{Model: name, Messages: []llm.Message{
		{Role: "system", Content: proposeSystem}, {Role: "user", Content: b.String()}}})
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, fmt.Errorf("discover: asking the model for skills: %w", err)
	}
	props, bad, err := parseAnswer(resp.Text)
	if err != nil {
		return nil, nil, fmt.Errorf("discover: %w", err)
	}
	return props, bad, nil
}
