package runtime

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/driver"
)

// windowVal wraps a window or tab for cty.
func windowVal(w *driver.Window) cty.Value {
	var h any = w
	return cty.CapsuleVal(types.WindowCapsule, &h)
}

func asWindow(v cty.Value) (*driver.Window, bool) {
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(types.WindowCapsule) {
		return nil, false
	}
	p, ok := v.EncapsulatedValue().(*any)
	if !ok || p == nil {
		return nil, false
	}
	w, ok := (*p).(*driver.Window)
	return w, ok
}

// render shows a value in journals and prompts.
func render(v cty.Value) string {
	switch {
	case v == cty.NilVal || v.IsNull():
		return ""
	case !v.IsKnown():
		return "(unknown)"
	case v.Type() == cty.String:
		return v.AsString()
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1)
	case v.Type() == cty.Bool:
		return strconv.FormatBool(v.True())
	case v.Type().Equals(types.ElementCapsule):
		e, _ := asElem(v)
		if e != nil && e.Live != nil {
			return describe(e.Live)
		}
		if e != nil && e.Desc != nil {
			return e.Desc.String()
		}
		if e != nil {
			return e.Origin
		}
	case v.Type().Equals(types.WindowCapsule):
		if w, ok := asWindow(v); ok {
			return fmt.Sprintf("window(title: %q, url: %q)", w.Title, w.URL)
		}
	case v.Type().IsListType() || v.Type().IsTupleType():
		var parts []string
		for _, item := range v.AsValueSlice() {
			parts = append(parts, render(item))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return v.GoString()
}

// parseInput turns a raw input value (from --input or a CSV cell) into a
// value of the declared type. Lists are written as JSON arrays, or as
// comma-separated items.
func parseInput(raw string, t types.Type) (cty.Value, error) {
	switch t.Kind {
	case types.Number:
		f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
		if err != nil {
			return cty.NilVal, fmt.Errorf("%q is not a number", raw)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) { // cty panics on NaN; Inf is no amount of anything
			return cty.NilVal, fmt.Errorf("%q is not a finite number", raw)
		}
		return cty.NumberFloatVal(f), nil
	case types.Bool:
		b, err := strconv.ParseBool(strings.TrimSpace(raw))
		if err != nil {
			return cty.NilVal, fmt.Errorf("%q is not true or false", raw)
		}
		return cty.BoolVal(b), nil
	case types.List:
		items, err := jsonItems(raw)
		if err != nil {
			items = strings.Split(raw, ",")
			for i := range items {
				items[i] = strings.TrimSpace(items[i])
			}
		}
		elem := types.TextT
		if t.Elem != nil {
			elem = *t.Elem
		}
		vals := make([]cty.Value, len(items))
		for i, s := range items {
			v, err := parseInput(s, elem)
			if err != nil {
				return cty.NilVal, fmt.Errorf("item %d: %w", i+1, err)
			}
			vals[i] = v
		}
		if len(vals) == 0 {
			return cty.ListValEmpty(elem.ToCty()), nil
		}
		return cty.ListVal(vals), nil
	}
	return cty.StringVal(raw), nil
}

// bindInputs gives every input its value: given, or the default.
func (in *Interp) bindInputs() error {
	known := map[string]bool{}
	for _, s := range in.task.Body.Stmts {
		decl, ok := s.(*ast.InputDecl)
		if !ok {
			continue
		}
		name := decl.Name.Name
		known[name] = true
		t := typeOf(decl.Type)
		raw, given := in.opts.Inputs[name]
		var v cty.Value
		switch {
		case given:
			var err error
			if v, err = parseInput(raw, t); err != nil {
				return fmt.Errorf("input %s: %w", name, err)
			}
		case decl.Default != nil:
			var err error
			if v, err = in.eval(in.ctx, decl.Default); err != nil {
				return fmt.Errorf("input %s: %w", name, err)
			}
			if conv, err := convert.Convert(v, t.ToCty()); err == nil {
				v = conv
			}
		default:
			return fmt.Errorf("input %s has no value: pass it with --input %s=…", name, name)
		}
		if isSecret(t) {
			in.secrets.Add(textsOf(v)...)
		}
		in.set(name, v)
	}
	for name := range in.opts.Inputs {
		if !known[name] {
			return fmt.Errorf("task %s has no input %s", in.task.Name.Name, name)
		}
	}
	return nil
}

// textsOf lists the strings a text or list-of-text value holds.
func textsOf(v cty.Value) []string {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	if v.Type() == cty.String {
		return []string{v.AsString()}
	}
	var out []string
	if v.Type().IsListType() || v.Type().IsTupleType() {
		for _, item := range v.AsValueSlice() {
			out = append(out, textsOf(item)...)
		}
	}
	return out
}

func isSecret(t types.Type) bool {
	if t.Kind == types.List && t.Elem != nil {
		return t.Elem.Kind == types.Secret
	}
	return t.Kind == types.Secret
}

// typeOf resolves a written type; the checker has validated it.
func typeOf(te *ast.TypeExpr) types.Type {
	if te.Name == "list" {
		if te.Elem == nil {
			return types.ListOf(types.AnyT)
		}
		return types.ListOf(typeOf(te.Elem))
	}
	t, ok := types.Lookup(te.Name)
	if !ok {
		return types.AnyT
	}
	return t
}
