package funcs

import (
	"errors"
	"fmt"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/types"
)

// errNoDriver is what the structural helpers report when a workflow is
// evaluated without a UI to ask, for example by `cogflow check`.
var errNoDriver = errors.New("needs a running driver")

var elementList = cty.List(types.ElementCapsule)

// handle unwraps the driver's element handle from an element value.
func handle(v cty.Value, argIdx int) (any, error) {
	p, ok := v.EncapsulatedValue().(*any)
	if !ok || p == nil || *p == nil {
		return nil, function.NewArgErrorf(argIdx, "the value holds no element")
	}
	return *p, nil
}

// elementVal wraps a driver handle as a language element value.
func elementVal(h any) cty.Value {
	return cty.CapsuleVal(types.ElementCapsule, &h)
}

// sameFunc exists so that a compiled workflow can say "the very element op1
// acted on" explicitly; it is identity and needs no UI.
var sameFunc = build("same", function.Spec{
	Description: "Returns the element itself: the step acts on the same element as an earlier one.",
	Params:      []function.Parameter{param("element", types.ElementCapsule, "The element.")},
	Type:        function.StaticReturnType(types.ElementCapsule),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return args[0], nil
	},
})

func structuralFuncs(nav Navigator) map[string]function.Function {
	return map[string]function.Function{
		"same": sameFunc,
		"next": stepFunc("next", "Returns the item after this one in the same list (the next row, result or menu entry).",
			nav, Navigator.Next),
		"previous": stepFunc("previous", "Returns the item before this one in the same list.",
			nav, Navigator.Previous),
		"rows": childrenFunc("rows", "Returns the rows of a table, top to bottom, without the header row.", "table", nav, Navigator.Rows),
		"items": childrenFunc("items", "Returns the items of a list (search results, list entries, menu items) in order.",
			"list", nav, Navigator.Items),
		"cell":   cellFunc(nav),
		"column": columnFunc(nav),
		"texts":  textsFunc(nav),
		// lookup.go
		"lookup":   lookupFunc(nav),
		"find_row": findRowFunc(nav),
		// all.go
		"all": allFunc(nav),
	}
}

// stepFunc builds next and previous: element → element through nav.
func stepFunc(name, desc string, nav Navigator, step func(Navigator, any) (any, error)) function.Function {
	return build(name, function.Spec{
		Description: desc,
		Params:      []function.Parameter{param("element", types.ElementCapsule, "An item of a list or a row of a table.")},
		Type:        function.StaticReturnType(types.ElementCapsule),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			h, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			got, err := step(nav, h)
			if err != nil {
				return cty.NilVal, err
			}
			if got == nil {
				return cty.NilVal, errors.New("the driver found no element")
			}
			return elementVal(got), nil
		},
	})
}

// childrenFunc builds rows and items: element → list<element> through nav.
func childrenFunc(name, desc, parent string, nav Navigator, children func(Navigator, any) ([]any, error)) function.Function {
	return build(name, function.Spec{
		Description: desc,
		Params:      []function.Parameter{param(parent, types.ElementCapsule, "The "+parent+" element.")},
		Type:        function.StaticReturnType(elementList),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			h, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			got, err := children(nav, h)
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

func cellFunc(nav Navigator) function.Function {
	return build("cell", function.Spec{
		Description: `Returns the cell of a table row under the column with the given header: cell(row, "Title"), also written row.cell("Title").`,
		Params: []function.Parameter{
			param("row", types.ElementCapsule, "A row of a table, e.g. from rows()."),
			param("header", cty.String, "The column's header text."),
		},
		Type: function.StaticReturnType(types.ElementCapsule),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			h, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			got, err := nav.Cell(h, args[1].AsString())
			if err != nil {
				return cty.NilVal, err
			}
			if got == nil {
				return cty.NilVal, errors.New("the driver found no cell")
			}
			return elementVal(got), nil
		},
	})
}

// columnFunc is rows + cell in one call, so that a workflow can work on a
// whole column without a loop: sum(parse_numbers(texts(column(t, "Amount")))).
func columnFunc(nav Navigator) function.Function {
	return build("column", function.Spec{
		Description: `Returns the cells of a table column, top to bottom, without the header row: column(orders, "Amount"). ` +
			`The same as row.cell("Amount") for each row of rows(orders).`,
		Params: []function.Parameter{
			param("table", types.ElementCapsule, "The table element."),
			param("header", cty.String, "The column's header text."),
		},
		Type: function.StaticReturnType(elementList),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			h, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			rows, err := nav.Rows(h)
			if err != nil {
				return cty.NilVal, err
			}
			header := args[1].AsString()
			vals := make([]cty.Value, len(rows))
			for i, row := range rows {
				if row == nil {
					return cty.NilVal, errors.New("the driver returned an empty row")
				}
				c, err := nav.Cell(row, header)
				if err != nil {
					return cty.NilVal, fmt.Errorf("row %d: %w", i, err)
				}
				if c == nil {
					return cty.NilVal, fmt.Errorf("row %d: the driver found no cell", i)
				}
				vals[i] = elementVal(c)
			}
			return listOf(vals, types.ElementCapsule), nil
		},
	})
}

// textsFunc reads .text of every element of a list, the list counterpart
// of the member.
func textsFunc(nav Navigator) function.Function {
	return build("texts", function.Spec{
		Description: `Returns the visible text of each element of a list, in order: texts(column(orders, "Amount")). ` +
			`For one element, write el.text.`,
		Params: []function.Parameter{param("elements", elementList, "The elements, e.g. from column(), rows() or items().")},
		Type:   function.StaticReturnType(cty.List(cty.String)),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil && args[0].IsWhollyKnown() {
				return cty.NilVal, errNoDriver
			}
			var vals []cty.Value
			for it := args[0].ElementIterator(); it.Next(); {
				k, v := it.Element()
				i, _ := k.AsBigFloat().Int64()
				switch {
				case !v.IsKnown():
					// The checker may know the list but not every item.
					vals = append(vals, cty.UnknownVal(cty.String))
					continue
				case v.IsNull():
					return cty.NilVal, function.NewArgErrorf(0, "item %d of the list is null", i)
				}
				if nav == nil {
					return cty.NilVal, errNoDriver
				}
				h, err := handle(v, 0)
				if err != nil {
					return cty.NilVal, function.NewArgErrorf(0, "item %d of the list holds no element", i)
				}
				s, err := nav.Text(h)
				if err != nil {
					return cty.NilVal, fmt.Errorf("item %d: %w", i, err)
				}
				vals = append(vals, cty.StringVal(s))
			}
			return listOf(vals, cty.String), nil
		},
	})
}
