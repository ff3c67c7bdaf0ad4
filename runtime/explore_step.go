package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/explore"
)

// exploreDependency evaluates explore<"goal">(inputs…): the run explores
// the app until the element the goal means shows, and the dependency's
// value is that element. When an input is an element description, the
// goal is deterministic: that description anchors exactly one visible
// element (by the rules a step anchors with). Otherwise the explorer's
// model judges when the goal is reached, and the answerers choose the
// element on the screen reached, as for match_element.
func (in *Interp) exploreDependency(ctx context.Context, e *ast.Dependency) (cty.Value, error) {
	fail := func(err error) (cty.Value, error) {
		return cty.NilVal, fmt.Errorf("explore<%q>: %w", e.Description.Value, err)
	}
	var target *Elem
	var words []string
	vals := make([]cty.Value, len(e.Inputs))
	for i, a := range e.Inputs {
		v, err := in.eval(ctx, a.Value)
		if err != nil {
			return cty.NilVal, err
		}
		vals[i] = v
		if el, err := asElem(v); err == nil && el.Desc != nil {
			if target == nil {
				target = el
			}
			words = append(words, el.Desc.String())
			continue
		}
		if !v.IsNull() && v.IsKnown() {
			words = append(words, in.secrets.String(render(v)))
		}
	}
	goal := explore.Goal{Text: e.Description.Value}
	if len(words) > 0 {
		goal.Text += " (" + strings.Join(words, ", ") + ")"
	}
	if target != nil {
		goal.Check = in.shows(ctx, target)
	} else if in.opts.Explore.Model == nil {
		// The run's configuration, not the screen: a try does not fall back.
		v, err := fail(errors.New("no input is an element description, so a model must judge when the goal is reached, " +
			"and none is configured: give an element input (e.g. explore<\"…\">(button(name: \"Import\"))) or configure a model"))
		return v, StopsRun(err)
	}
	command := e.Description.Value
	if in.task.Goal != nil {
		command = in.task.Goal.Value + ": " + command
	}
	res, err := in.explore(ctx, "dependency", goal, explore.DefaultBudget, command)
	if err != nil {
		var x *exploringError
		if errors.As(err, &x) {
			return cty.NilVal, err
		}
		return fail(err)
	}
	if !res.Reached {
		return fail(errors.New("the goal was not reached"))
	}
	if target != nil {
		live, err := in.anchorElement(ctx, target)
		if err != nil {
			return fail(err)
		}
		return elemVal(&Elem{Desc: target.Desc, Live: live, Origin: "explore"}), nil
	}
	// The model judged the goal reached. The element explored last only
	// led to this screen (a menu that a second click would close); the
	// one the goal means is chosen on it as match_element chooses.
	req, err := in.requestWith(ctx, e, vals)
	if err != nil {
		return fail(err)
	}
	req.Sub = "match_element"
	return in.answer(ctx, e, req)
}
