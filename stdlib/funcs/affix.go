package funcs

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// affixFunc builds with_prefix and with_suffix: the filters for a choice
// such as "the suggestion that starts with what was typed and ends with
// what the instruction names", which with_text (anywhere in the text)
// cannot tell from an item holding the words in its middle.
func affixFunc(name, what string, nav Navigator, holds func(text, affix string) bool) function.Function {
	return build(name, function.Spec{
		Description: fmt.Sprintf(`Returns the elements of the list whose visible text (white space normalized, case kept) %s the text, `+
			`in their order: %s(items(suggestions), "Ira"). It may be empty. An empty text to look for is an error.`, what, name),
		Params: []function.Parameter{
			param("elements", elementList, "The elements, e.g. from rows() or items()."),
			param("str", cty.String, fmt.Sprintf("The text the elements' text %s.", what)),
		},
		Type: function.StaticReturnType(elementList),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			want := normalText(args[1].AsString())
			if want == "" {
				return cty.NilVal, function.NewArgErrorf(1, "the text to look for is empty")
			}
			if !args[0].IsWhollyKnown() {
				return cty.UnknownVal(elementList), nil
			}
			hs, err := elementHandles(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			if len(hs) > 0 && nav == nil {
				return cty.NilVal, errNoDriver
			}
			var out []cty.Value
			for i, h := range hs {
				text, err := nav.Text(h)
				if err != nil {
					return cty.NilVal, fmt.Errorf("item %d: %w", i, err)
				}
				if holds(normalText(text), want) {
					out = append(out, elementVal(h))
				}
			}
			return listOf(out, types.ElementCapsule), nil
		},
	})
}

// affixFuncs are with_prefix and with_suffix.
func affixFuncs(nav Navigator) map[string]function.Function {
	return map[string]function.Function{
		"with_prefix": affixFunc("with_prefix", "starts with", nav, strings.HasPrefix),
		"with_suffix": affixFunc("with_suffix", "ends with", nav, strings.HasSuffix),
	}
}
