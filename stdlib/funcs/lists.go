package funcs

import (
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/cogflow/cogflow/lang/types"
)

// anyList is the parameter type of functions that take a list of anything.
// go-cty's versions accept any value; declaring a list lets the checker
// reject text or a single element at the argument, with a clear message.
var anyList = cty.List(cty.DynamicPseudoType)

var listParam = param("list", anyList, "The list.")

var listFuncs = map[string]function.Function{
	"length": reuse("length", stdlib.LengthFunc,
		"Returns the number of items in the list (see strlen for text).",
		[]function.Parameter{listParam}, nil),
	"slice": reuse("slice", stdlib.SliceFunc,
		"Returns the items from start up to but not including end (zero-based), like list[start:end].",
		[]function.Parameter{listParam,
			param("start", cty.Number, "Index of the first item to keep."),
			param("end", cty.Number, "Index just past the last item to keep.")}, nil),
	"distinct": reuse("distinct", stdlib.DistinctFunc,
		"Removes repeated items, keeping the first occurrence of each in order.",
		[]function.Parameter{listParam}, nil),
	"reverse_list": reuse("reverse_list", stdlib.ReverseListFunc,
		"Returns the list with its items in reverse order (see reverse for text).",
		[]function.Parameter{listParam}, nil),
	"range": reuse("range", stdlib.RangeFunc,
		"Returns a list of numbers: range(end) counts 0..end-1, range(start, end) counts start..end-1, "+
			"range(start, end, step) steps by step.",
		nil, &function.Parameter{Name: "bounds", Type: cty.Number, Description: "end; or start, end; or start, end, step."}),
	"concat":     concatFunc,
	"has":        hasFunc,
	"sort":       sortFunc,
	"flatten":    flattenFunc,
	"first":      pickFunc("first", "Returns the first item of the list; an empty list is an error.", false),
	"last":       pickFunc("last", "Returns the last item of the list; an empty list is an error.", true),
	"element_at": elementAtFunc,
	"coalesce":   coalesceFunc,
}

// itemType is the element type of a list argument; the checker's list<any>
// arrives as a list of DynamicPseudoType, which then flows through as any.
func itemType(list cty.Value) cty.Type {
	return list.Type().ElementType()
}

func listOf(vals []cty.Value, item cty.Type) cty.Value {
	if len(vals) == 0 {
		return cty.ListValEmpty(item)
	}
	return cty.ListVal(vals)
}

// concatFunc settles the result type itself: for lists whose item types do
// not agree go-cty's concat falls back to a tuple, which the language
// cannot type, so that mistake is reported at the call instead.
var concatFunc = build("concat", function.Spec{
	Description: "Joins lists end to end into one list.",
	VarParam:    &function.Parameter{Name: "lists", Type: anyList, Description: "Lists of the same item type, in order."},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) == 0 {
			return cty.NilType, fmt.Errorf("needs at least one list")
		}
		tys := make([]cty.Type, len(args))
		for i, a := range args {
			tys[i] = a.Type()
		}
		ty, _ := convert.UnifyUnsafe(tys)
		if ty == cty.NilType {
			return cty.NilType, fmt.Errorf("lists must have the same item type, not %s and %s",
				types.FromCty(tys[0]), types.FromCty(tys[len(tys)-1]))
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return stdlib.ConcatFunc.Call(args)
	},
})

// hasFunc wraps go-cty's contains with a static bool result, so that the
// answer is typed even when the value's type is not yet known.
var hasFunc = build("has", function.Spec{
	Description: "Reports whether the list has an item equal to value (see contains for text).",
	Params: []function.Parameter{listParam, {Name: "value", Type: cty.DynamicPseudoType,
		AllowDynamicType: true, Description: "The item to look for."}},
	Type: function.StaticReturnType(cty.Bool),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return stdlib.Contains(args[0], args[1])
	},
})

// sortFunc is written here because go-cty's sort only orders text;
// workflows sort prices and counts as often as names.
var sortFunc = build("sort", function.Spec{
	Description: "Returns the list in ascending order: numbers by value, text alphabetically (by code point).",
	Params:      []function.Parameter{listParam},
	Type: func(args []cty.Value) (cty.Type, error) {
		switch it := itemType(args[0]); it {
		case cty.String, cty.Number, cty.DynamicPseudoType:
			return args[0].Type(), nil
		default:
			return cty.NilType, function.NewArgErrorf(0, "can only sort text or numbers, not %s", types.FromCty(it))
		}
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		if !args[0].IsWhollyKnown() {
			return cty.UnknownVal(ret), nil
		}
		vals := args[0].AsValueSlice()
		for i, v := range vals {
			if v.IsNull() {
				return cty.NilVal, function.NewArgErrorf(0, "item %d of the list is null", i)
			}
		}
		less := func(i, j int) bool { return vals[i].AsString() < vals[j].AsString() }
		if itemType(args[0]) == cty.Number {
			less = func(i, j int) bool { return vals[i].AsBigFloat().Cmp(vals[j].AsBigFloat()) < 0 }
		}
		sort.SliceStable(vals, less)
		return listOf(vals, itemType(args[0])), nil
	},
})

// flattenFunc is written here because go-cty's flatten returns a tuple,
// which the language can only type as list<any>; this one keeps the item
// type by removing exactly one level of nesting.
var flattenFunc = build("flatten", function.Spec{
	Description: "Turns a list of lists into one list of their items, in order.",
	Params:      []function.Parameter{param("lists", anyList, "A list whose items are lists.")},
	Type: func(args []cty.Value) (cty.Type, error) {
		switch it := itemType(args[0]); {
		case it.IsListType():
			return it, nil
		case it == cty.DynamicPseudoType:
			return anyList, nil
		default:
			return cty.NilType, function.NewArgErrorf(0, "items must be lists, not %s", types.FromCty(it))
		}
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		var out []cty.Value
		for it := args[0].ElementIterator(); it.Next(); {
			_, inner := it.Element()
			if !inner.IsKnown() {
				return cty.UnknownVal(ret), nil
			}
			if !inner.IsNull() {
				out = append(out, inner.AsValueSlice()...)
			}
		}
		return listOf(out, ret.ElementType()), nil
	},
})

// pickFunc builds first and last, which go-cty lacks. An empty list is an
// error rather than a null: a workflow step acting on "nothing" would fail
// later with a far less useful message.
func pickFunc(name, desc string, fromEnd bool) function.Function {
	return build(name, function.Spec{
		Description: desc,
		Params:      []function.Parameter{listParam},
		Type: func(args []cty.Value) (cty.Type, error) {
			return itemType(args[0]), nil
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			n := args[0].LengthInt()
			if n == 0 {
				return cty.NilVal, function.NewArgErrorf(0, "the list is empty")
			}
			i := 0
			if fromEnd {
				i = n - 1
			}
			return args[0].Index(cty.NumberIntVal(int64(i))), nil
		},
	})
}

// elementAtFunc replaces go-cty's element, which wraps an index past the
// end around to the start; in a workflow that silently picks the wrong row.
var elementAtFunc = build("element_at", function.Spec{
	Description: "Returns the item at a zero-based index, like list[index]; an index outside the list is an error.",
	Params:      []function.Parameter{listParam, param("index", cty.Number, "Zero-based position of the item.")},
	Type: func(args []cty.Value) (cty.Type, error) {
		return itemType(args[0]), nil
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		i, err := wholeNumber(args[1], 1, "index")
		if err != nil {
			return cty.NilVal, err
		}
		if n := args[0].LengthInt(); i < 0 || i >= n {
			return cty.NilVal, function.NewArgErrorf(1, "index %d is outside the list of %d items", i, n)
		}
		return args[0].Index(cty.NumberIntVal(int64(i))), nil
	},
})

// coalesceFunc differs from go-cty's coalesce by also skipping empty text:
// the language has no null, and an unset or blank text input is the
// common case for "use this, or else that default".
var coalesceFunc = build("coalesce", function.Spec{
	Description: `Returns the first value that is neither null nor empty text: coalesce(nickname, name, "friend").`,
	VarParam: &function.Parameter{Name: "values", Type: cty.DynamicPseudoType, AllowNull: true,
		Description: "Candidates of the same type, in order of preference."},
	Type: func(args []cty.Value) (cty.Type, error) {
		if len(args) == 0 {
			return cty.NilType, fmt.Errorf("needs at least one value")
		}
		tys := make([]cty.Type, len(args))
		for i, a := range args {
			tys[i] = a.Type()
		}
		ty, _ := convert.Unify(tys)
		if ty == cty.NilType {
			return cty.NilType, fmt.Errorf("all values must have the same type")
		}
		return ty, nil
	},
	Impl: func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		for i, a := range args {
			if a.IsNull() || (a.Type() == cty.String && a.AsString() == "") {
				continue
			}
			v, err := convert.Convert(a, ret)
			if err != nil {
				return cty.NilVal, function.NewArgError(i, err)
			}
			return v, nil
		}
		return cty.NilVal, fmt.Errorf("every value is null or empty")
	},
})
