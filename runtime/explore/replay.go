package explore

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/knowledge"
)

var paramRef = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_ ]*)\}`)

// fill puts the parameters' values in for their {name}s.
func fill(text string, params map[string]string) (string, error) {
	var missing string
	out := paramRef.ReplaceAllStringFunc(text, func(m string) string {
		name := m[1 : len(m)-1]
		v, ok := params[name]
		if !ok {
			missing = name
		}
		return v
	})
	if missing != "" {
		return "", fmt.Errorf("the path types the parameter %q, which the command does not give", missing)
	}
	return out, nil
}

// replay repeats the path knowledge keeps for the command, with no model:
// ok reports that it reached the goal. A step whose target is not on the
// screen, or a path that ends short of the goal, ends the replay with a
// note; exploring goes on from where it stopped.
func (e *explorer) replay(ctx context.Context) (Result, bool, error) {
	p, ok, err := e.o.Memory.Path(e.app, e.command)
	if err != nil {
		return Result{}, false, fmt.Errorf("explore: reading the path of %q: %w", e.command, err)
	}
	if !ok || len(p.Steps) == 0 {
		return Result{}, false, nil
	}
	e.pathSteps = map[knowledge.Step]bool{}
	for _, s := range p.Steps {
		e.pathSteps[s] = true
	}
	var found *driver.Element
	var before []*driver.Tree
	for i, s := range p.Steps {
		t, err := e.d.Observe(ctx)
		if err != nil {
			return Result{}, false, e.driverErr(ctx, "observe", err)
		}
		before = append(before, t)
		a := driver.Action{Op: action.Name(s.Op)}
		// The steps replayed so far lead to where the search starts: the
		// path it finds goes on from them.
		e.prefix, e.prefixBefore, e.prefixFound = p.Steps[:i], before[:i], found
		if s.Target != "" {
			if a.Target, err = anchor(t, s.Target); err != nil {
				e.record(Step{Direction: Replay, Op: s.Op, Target: s.Target, Note: "replay stopped: " + err.Error()})
				return Result{}, false, nil
			}
			// The path kept may hold an action a person confirmed once:
			// taking it again needs a confirmation again.
			if why := e.refused(ctx, a.Target); why != "" {
				e.record(Step{Direction: Replay, Op: "skip", Target: s.Target, Note: "replay stopped: " + why})
				return Result{}, false, nil
			}
			found = a.Target
		}
		if a.Text, err = fill(s.Text, e.o.Params); err != nil {
			e.record(Step{Direction: Replay, Op: s.Op, Target: s.Target, Note: "replay stopped: " + err.Error()})
			return Result{}, false, nil
		}
		if m := paramRef.FindStringSubmatch(s.Text); m != nil && slices.Contains(e.o.Secrets, m[1]) {
			a.Secret = true
		}
		e.record(Step{N: i + 1, Direction: Replay, Op: s.Op, Target: s.Target})
		if _, err := e.d.Do(ctx, a); err != nil {
			return Result{}, false, e.driverErr(ctx, fmt.Sprintf("replay step %d %s %s", i+1, s.Op, s.Target), err)
		}
	}
	t, err := e.d.Observe(ctx)
	if err != nil {
		return Result{}, false, e.driverErr(ctx, "observe", err)
	}
	ok, err = e.reached(ctx, t)
	if err != nil {
		return Result{}, false, err
	}
	if !ok {
		e.prefix, e.prefixBefore, e.prefixFound = p.Steps, before, found
		e.steps[len(e.steps)-1].Note = joinNote(e.steps[len(e.steps)-1].Note, "the replayed path did not reach the goal; exploring")
		return Result{}, false, nil
	}
	e.steps[len(e.steps)-1].Reached = true
	return Result{Reached: true, Found: found, Path: p.Steps, Before: before, Replayed: true}, true, nil
}
