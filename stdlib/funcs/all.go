package funcs

import (
	"errors"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/types"
)

// Matcher is the optional part of a Navigator that all() needs: the
// elements a description matches, rather than the one it anchors to. It
// is a separate interface so that navigators without it (tests' fakes,
// drivers that cannot enumerate) keep compiling; all() then fails loudly.
type Matcher interface {
	// All returns every visible element the description desc (an element
	// value built by a constructor, not yet anchored) matches, in the
	// screen's order. None is an error naming the description.
	All(desc any) ([]any, error)
}

// allFunc builds all(description): the elements of a kind, so that a step
// can pick the n-th of them ("the 3rd checkbox") by a position it reads
// from the screen: nth(all(checkbox(within: form(id: "f"))), 3).
func allFunc(nav Navigator) function.Function {
	return build("all", function.Spec{
		Description: "Returns every visible element the description matches, in the screen's order (the checkboxes of a form: all(checkbox(within: form(id: \"f\")))).",
		Params:      []function.Parameter{param("description", types.ElementCapsule, "An element description such as checkbox(within: …).")},
		Type:        function.StaticReturnType(elementList),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			m, ok := nav.(Matcher)
			if !ok {
				return cty.NilVal, errors.New("the driver cannot list the elements a description matches")
			}
			h, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			got, err := m.All(h)
			if err != nil {
				return cty.NilVal, err
			}
			vals := make([]cty.Value, len(got))
			for i, c := range got {
				if c == nil {
					return cty.NilVal, errors.New("the driver returned an empty element")
				}
				vals[i] = elementVal(c)
			}
			return listOf(vals, types.ElementCapsule), nil
		},
	})
}
