package funcs

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// textFilterFunc builds with_text, with_prefix and with_suffix: the
// filters for choices such as "the result that mentions the keyword" or
// "the suggestion that starts with what was typed and ends with what the
// instruction names" (with_text alone cannot tell that suggestion from an
// item holding the words in its middle). An empty answer is a valid one
// here: first() or a loop over it says what an empty list means.
func textFilterFunc(name, what, example string, nav Navigator, holds func(text, affix string) bool) function.Function {
	return build(name, function.Spec{
		Description: fmt.Sprintf(`Returns the elements of the list whose visible text (white space normalized, case kept) %s the text, `+
			`in their order: %s. It may be empty. An empty text to look for is an error.`, what, example),
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
				// The checker may know the list but not every item.
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

// textFilterFuncs are with_text, with_prefix and with_suffix.
func textFilterFuncs(nav Navigator) map[string]function.Function {
	return map[string]function.Function{
		"with_text":   textFilterFunc("with_text", "contains", `with_text(items(results), "PDF")`, nav, strings.Contains),
		"with_prefix": textFilterFunc("with_prefix", "starts with", `with_prefix(items(suggestions), "Ira")`, nav, strings.HasPrefix),
		"with_suffix": textFilterFunc("with_suffix", "ends with", `with_suffix(items(suggestions), "an")`, nav, strings.HasSuffix),
	}
}
