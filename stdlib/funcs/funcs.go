// Package funcs is the library of plain functions that workflows call for
// exact, structural and string computations: replace(op2, ".txt", ".md"),
// sum(prices), rows(table(name: "Reading list"))[1:], next(op1). A dependency
// that one of these can compute is written as a call, so it never costs an
// LLM round trip.
//
// Every function is a go-cty function. The checker asks each one for its
// return type with unknown argument values before anything runs; the
// interpreter calls them with real values. Where go-cty's stdlib already has
// the behaviour, the function delegates to it under a snake_case name with
// descriptions written for workflow authors; the rest are written here.
//
// Conventions worth knowing when reading a workflow:
//
//   - Argument order follows go-cty (and so Terraform, which people and LLMs
//     already know): regex(pattern, str), split(separator, str),
//     join(separator, lists...), replace(str, substr, replacement). The
//     helpers written here put the subject first: contains(str, substr).
//   - One name per thing: text functions and list functions never share a
//     name. contains/index_of/reverse/strlen work on text; has, reverse_list
//     and length work on lists.
//   - Indexes are zero-based like the [i] and [a:b] syntax; text offsets
//     count Unicode characters, not bytes. The one exception is nth, which
//     counts from 1 (and from -1 at the end) as the instructions it reads
//     do: nth(words(s), parse_ordinal("3rd")).
//   - regex returns text: the whole match, or the first capture group when
//     the pattern has one. regex_all does the same for every match.
//   - The library is deterministic: there is no now(), because a replayed
//     workflow must compute the same values as the demonstration it was
//     compiled from; reformat_date only rewrites a date it is given.
//   - Errors start with the function's name ("parse_number: ..."), so a
//     message is readable even where the caller does not add it.
package funcs

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/types"
)

// Navigator answers the structural questions that need a live UI.
//
// Element handles are whatever the driver stores in element values; the
// library only moves them between cty capsules and the driver.
type Navigator interface {
	Next(el any) (any, error)
	Previous(el any) (any, error)
	// Rows returns the data rows of a table, top to bottom, without the
	// header row: rows(), column() and loops over rows rely on it.
	Rows(table any) ([]any, error)
	Items(list any) ([]any, error)
	Cell(row any, header string) (any, error)
	// Cells returns the cells of a table row, left to right, header or
	// not: lookup() reads key–value tables, which have no column headers
	// for Cell to go by.
	Cells(row any) ([]any, error)
	// Text returns the element's visible text, as el.text reads it.
	Text(el any) (string, error)
}

// pure holds the functions that need nothing but their arguments. They are
// built once; Library only adds the structural helpers bound to a navigator.
var pure = mergeTables(stringFuncs, numberFuncs, listFuncs, readingFuncs, urlFuncs)

// Library returns the function table exposed to workflows, keyed by the
// name used in source. nav may be nil (the checker, `cogflow check`): the
// structural helpers then still type-check with unknown arguments but fail
// with "needs a running driver" when called with real ones.
func Library(nav Navigator) map[string]function.Function {
	lib := maps.Clone(pure)
	maps.Copy(lib, structuralFuncs(nav))
	maps.Copy(lib, textFilterFuncs(nav))
	return lib
}

// Names returns the names of all library functions, sorted.
func Names() []string {
	return slices.Sorted(maps.Keys(Library(nil)))
}

func mergeTables(tables ...map[string]function.Function) map[string]function.Function {
	all := map[string]function.Function{}
	for _, t := range tables {
		for name, f := range t {
			if _, dup := all[name]; dup {
				panic("funcs: function " + name + " defined twice")
			}
			all[name] = f
		}
	}
	return all
}

// param declares a required, non-null positional parameter. Library
// functions never accept null: the language has no null literal, so a null
// can only be a bug upstream and is better reported at the call.
func param(name string, ty cty.Type, desc string) function.Parameter {
	return function.Parameter{Name: name, Type: ty, Description: desc}
}

// build finishes a spec by prefixing every error with the function's name.
// go-cty's messages ("a number is required") do not say which call failed,
// and a workflow line often has several calls.
func build(name string, s function.Spec) function.Function {
	typ, impl := s.Type, s.Impl
	s.Type = func(args []cty.Value) (cty.Type, error) {
		t, err := typ(args)
		return t, withName(name, err)
	}
	s.Impl = func(args []cty.Value, ret cty.Type) (cty.Value, error) {
		v, err := impl(args, ret)
		return v, withName(name, err)
	}
	return function.New(&s)
}

// reuse exposes a go-cty stdlib function under our name. The parameters are
// restated (same order and arity as f's) so that they carry language-level
// names, descriptions and, where f accepts anything, the narrower type the
// language means, which the checker then reports at the argument.
func reuse(name string, f function.Function, desc string, params []function.Parameter, varParam *function.Parameter) function.Function {
	inner := f.Params()
	if len(params) != len(inner) || (varParam == nil) != (f.VarParam() == nil) {
		panic("funcs: " + name + " restates the parameters of its go-cty function wrongly")
	}
	// Where f copes with arguments of not-yet-known type, let them through:
	// otherwise format(s, x) with an untyped x could not even be typed as
	// text. Copies, because the parameter values are shared between entries.
	params = slices.Clone(params)
	for i := range params {
		params[i].AllowDynamicType = inner[i].AllowDynamicType
	}
	if varParam != nil {
		vp := *varParam
		vp.AllowDynamicType = f.VarParam().AllowDynamicType
		varParam = &vp
	}
	return build(name, function.Spec{
		Description: desc,
		Params:      params,
		VarParam:    varParam,
		Type:        f.ReturnTypeForValues,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return f.Call(args)
		},
	})
}

func withName(name string, err error) error {
	if err == nil {
		return nil
	}
	var argErr function.ArgError
	if errors.As(err, &argErr) {
		// Keep the argument index so callers can point at the argument.
		return function.NewArgError(argErr.Index, fmt.Errorf("%s: %w", name, err))
	}
	return fmt.Errorf("%s: %w", name, err)
}

// Param is one parameter of a Signature.
type Param struct {
	Name        string
	Type        types.Type
	Description string
}

// Signature describes a library function in language types, for generated
// docs, hovers and completion.
type Signature struct {
	Name        string
	Description string
	Params      []Param
	Variadic    *Param // nil unless the last parameter repeats
	Result      types.Type
}

// Signatures describes every library function, keyed by name.
func Signatures() map[string]Signature {
	sigs := map[string]Signature{}
	for name, f := range Library(nil) {
		sigs[name] = Describe(name, f)
	}
	return sigs
}

// Describe renders f's parameters and result as language types. The result
// is what f answers for unknown arguments of the declared types (with one
// variadic argument), which is also what the checker will see for a call
// whose arguments it cannot evaluate.
func Describe(name string, f function.Function) Signature {
	sig := Signature{Name: name, Description: f.Description(), Result: types.AnyT}
	var args []cty.Value
	for _, p := range f.Params() {
		sig.Params = append(sig.Params, Param{p.Name, types.FromCty(p.Type), p.Description})
		args = append(args, cty.UnknownVal(p.Type))
	}
	if vp := f.VarParam(); vp != nil {
		sig.Variadic = &Param{vp.Name, types.FromCty(vp.Type), vp.Description}
		args = append(args, cty.UnknownVal(vp.Type))
	}
	if ret, err := f.ReturnTypeForValues(args); err == nil {
		sig.Result = types.FromCty(ret)
	}
	return sig
}

// String renders the signature as documentation shows it, for example
// "replace(str text, substr text, replacement text) text".
func (s Signature) String() string {
	var parts []string
	for _, p := range s.Params {
		parts = append(parts, p.Name+" "+p.Type.String())
	}
	if s.Variadic != nil {
		parts = append(parts, s.Variadic.Name+" ..."+s.Variadic.Type.String())
	}
	return s.Name + "(" + strings.Join(parts, ", ") + ") " + s.Result.String()
}
