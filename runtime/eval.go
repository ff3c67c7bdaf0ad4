package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// eval computes an expression's value now; a value computed from a secret
// is learned as one (taint.go).
func (in *Interp) eval(ctx context.Context, e ast.Expr) (cty.Value, error) {
	v, err := in.compute(ctx, e)
	if err == nil {
		in.taint(e, v)
	}
	return v, err
}

func (in *Interp) compute(ctx context.Context, e ast.Expr) (cty.Value, error) {
	switch e := e.(type) {
	case *ast.StringLit:
		return cty.StringVal(e.Value), nil
	case *ast.NumberLit:
		return funcs.Number(e.Raw)
	case *ast.BoolLit:
		return cty.BoolVal(e.Value), nil
	case *ast.ListLit:
		return in.evalList(ctx, e)
	case *ast.Ref:
		v, ok := in.get(e.Name)
		if !ok {
			return cty.NilVal, fmt.Errorf("%s has no value yet", e.Name)
		}
		return v, nil
	case *ast.Paren:
		return in.eval(ctx, e.X)
	case *ast.Member:
		return in.member(ctx, e)
	case *ast.Index:
		return in.index(ctx, e)
	case *ast.Slice:
		return in.slice(ctx, e)
	case *ast.Call:
		return in.call(ctx, e)
	case *ast.Dependency:
		return in.dependency(ctx, e)
	case *ast.Unary:
		return in.unary(ctx, e)
	case *ast.Binary:
		return in.binary(ctx, e)
	}
	return cty.NilVal, fmt.Errorf("cannot evaluate %T", e)
}

func (in *Interp) evalList(ctx context.Context, e *ast.ListLit) (cty.Value, error) {
	if len(e.Elems) == 0 {
		return cty.ListValEmpty(cty.DynamicPseudoType), nil
	}
	vals := make([]cty.Value, len(e.Elems))
	for i, x := range e.Elems {
		v, err := in.eval(ctx, x)
		if err != nil {
			return cty.NilVal, err
		}
		vals[i] = v
	}
	return cty.ListVal(vals), nil
}

// member reads a property of an element (from the live UI) or a window.
func (in *Interp) member(ctx context.Context, m *ast.Member) (cty.Value, error) {
	x, err := in.eval(ctx, m.X)
	if err != nil {
		return cty.NilVal, err
	}
	if w, ok := asWindow(x); ok {
		switch m.Name.Name {
		case "title":
			return cty.StringVal(w.Title), nil
		case "url":
			return cty.StringVal(w.URL), nil
		}
		return cty.NilVal, fmt.Errorf("a window has no property %s", m.Name.Name)
	}
	e, err := asElem(x)
	if err != nil {
		return cty.NilVal, fmt.Errorf(".%s: %w", m.Name.Name, err)
	}
	live, err := in.anchorElement(ctx, e)
	if err != nil {
		return cty.NilVal, err
	}
	switch m.Name.Name {
	case "index":
		if live.List != nil {
			return cty.NumberIntVal(int64(live.List.Index)), nil
		}
		if live.Cell != nil {
			return cty.NumberIntVal(int64(live.Cell.Row)), nil
		}
		return cty.NumberIntVal(0), nil
	case "checked":
		return cty.BoolVal(live.Checked), nil
	case "enabled":
		return cty.BoolVal(live.Enabled), nil
	case "visible":
		return cty.BoolVal(live.Visible), nil
	case "text":
		return cty.StringVal(elementText(live)), nil
	case "role":
		return cty.StringVal(live.Role), nil
	}
	return cty.StringVal(live.Attr(m.Name.Name)), nil
}

func (in *Interp) index(ctx context.Context, e *ast.Index) (cty.Value, error) {
	list, err := in.eval(ctx, e.X)
	if err != nil {
		return cty.NilVal, err
	}
	iv, err := in.eval(ctx, e.Index)
	if err != nil {
		return cty.NilVal, err
	}
	items := list.AsValueSlice()
	i, err := intOf(iv)
	if err != nil {
		return cty.NilVal, err
	}
	if i < 0 || i >= len(items) {
		return cty.NilVal, fmt.Errorf("index %d is out of range: the list has %d items", i, len(items))
	}
	return items[i], nil
}

func (in *Interp) slice(ctx context.Context, e *ast.Slice) (cty.Value, error) {
	list, err := in.eval(ctx, e.X)
	if err != nil {
		return cty.NilVal, err
	}
	items := list.AsValueSlice()
	lo, hi := 0, len(items)
	for _, b := range []struct {
		x   ast.Expr
		dst *int
	}{{e.Lo, &lo}, {e.Hi, &hi}} {
		if b.x == nil {
			continue
		}
		v, err := in.eval(ctx, b.x)
		if err != nil {
			return cty.NilVal, err
		}
		if *b.dst, err = intOf(v); err != nil {
			return cty.NilVal, err
		}
	}
	lo, hi = max(0, min(lo, len(items))), max(0, min(hi, len(items)))
	if lo >= hi {
		return cty.ListValEmpty(list.Type().ElementType()), nil
	}
	return cty.ListVal(items[lo:hi]), nil
}

func intOf(v cty.Value) (int, error) {
	if v.Type() != cty.Number || v.IsNull() {
		return 0, fmt.Errorf("an index must be a number")
	}
	f, _ := v.AsBigFloat().Int64()
	return int(f), nil
}

// call evaluates an element constructor, a method or a library function.
func (in *Interp) call(ctx context.Context, e *ast.Call) (cty.Value, error) {
	if m, ok := e.Fun.(*ast.Member); ok {
		return in.method(ctx, e, m)
	}
	name := e.CalleeName()
	if check.ElementPredicates[name] {
		return in.elementPredicate(ctx, e)
	}
	if check.ElementRoles[name] && !(len(e.Args) >= 2 && e.Args[0].Name == nil && isFunction(in.fns, name)) {
		return in.constructor(ctx, e)
	}
	fn, ok := in.fns[name]
	if !ok {
		return cty.NilVal, fmt.Errorf("%s cannot be called here", name)
	}
	args := make([]cty.Value, len(e.Args))
	for i, a := range e.Args {
		v, err := in.eval(ctx, a.Value)
		if err != nil {
			return cty.NilVal, err
		}
		args[i] = v
	}
	return callFunction(fn, name, args)
}

func isFunction(fns map[string]function.Function, name string) bool {
	_, ok := fns[name]
	return ok
}

// callFunction calls a library function with the language's conversions.
func callFunction(fn function.Function, name string, args []cty.Value) (cty.Value, error) {
	v, err := funcs.Call(fn, args)
	if err != nil && !strings.HasPrefix(err.Error(), name+": ") {
		// The library's own errors already start with the name.
		return cty.NilVal, fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return cty.NilVal, err
	}
	return v, nil
}

// method evaluates row.cell("Title").
func (in *Interp) method(ctx context.Context, e *ast.Call, m *ast.Member) (cty.Value, error) {
	x, err := in.eval(ctx, m.X)
	if err != nil {
		return cty.NilVal, err
	}
	args := []cty.Value{x}
	for _, a := range e.Args {
		v, err := in.eval(ctx, a.Value)
		if err != nil {
			return cty.NilVal, err
		}
		args = append(args, v)
	}
	fn, ok := in.fns[m.Name.Name]
	if !ok {
		return cty.NilVal, fmt.Errorf("element has no method %s", m.Name.Name)
	}
	return callFunction(fn, m.Name.Name, args)
}

// constructor builds an element description; it is anchored when used.
func (in *Interp) constructor(ctx context.Context, e *ast.Call) (cty.Value, error) {
	l := &Locator{Role: e.CalleeName(), Attrs: map[string]string{}, Index: -1}
	for i, a := range e.Args {
		attr := "name"
		if a.Name != nil {
			attr = a.Name.Name
		} else if i > 0 {
			continue
		}
		v, err := in.eval(ctx, a.Value)
		if err != nil {
			return cty.NilVal, err
		}
		switch attr {
		case "within":
			w, err := asElem(v)
			if err != nil {
				return cty.NilVal, fmt.Errorf("within: %w", err)
			}
			l.Within = w
		case "index":
			n, err := intOf(v)
			if err != nil {
				return cty.NilVal, err
			}
			l.Index = n
		case "role":
			l.Role = render(v)
		case "frame":
			f, err := frameAttr(v)
			if err != nil {
				return cty.NilVal, err
			}
			l.Attrs[attr] = f
		default:
			l.Attrs[attr] = render(v)
		}
	}
	return elemVal(&Elem{Desc: l, Origin: l.String()}), nil
}

func (in *Interp) unary(ctx context.Context, e *ast.Unary) (cty.Value, error) {
	x, err := in.eval(ctx, e.X)
	if err != nil {
		return cty.NilVal, err
	}
	if e.Op == "!" {
		return x.Not(), nil
	}
	return x.Negate(), nil
}

// binary applies an operator; + joins text when either side is text.
func (in *Interp) binary(ctx context.Context, e *ast.Binary) (cty.Value, error) {
	x, err := in.eval(ctx, e.X)
	if err != nil {
		return cty.NilVal, err
	}
	if e.Op == "&&" && x.False() || e.Op == "||" && x.True() {
		return x, nil // short circuit, as people expect
	}
	y, err := in.eval(ctx, e.Y)
	if err != nil {
		return cty.NilVal, err
	}
	return applyBinary(e.Op, x, y)
}

// applyBinary follows the library's operator semantics; == and != also
// compare elements and windows, which have no cty equality, by how they
// render.
func applyBinary(op string, x, y cty.Value) (cty.Value, error) {
	if (op == "==" || op == "!=") && (x.Type().IsCapsuleType() || y.Type().IsCapsuleType() || !x.Type().Equals(y.Type())) {
		return cty.BoolVal((render(x) == render(y)) == (op == "==")), nil
	}
	return funcs.Binary(op, x, y)
}
