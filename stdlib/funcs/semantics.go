package funcs

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// The semantics of calls and operators, in one place for everything that
// evaluates workflow expressions: the interpreter running them and the
// compiler verifying the programs it synthesizes must compute the same.

// Call calls fn with args, first converting each argument to its
// parameter's type where the language allows it (a number where text is
// wanted); go-cty itself does not convert.
func Call(fn function.Function, args []cty.Value) (cty.Value, error) {
	params := fn.Params()
	for i, a := range args {
		var want cty.Type
		switch {
		case i < len(params):
			want = params[i].Type
		case fn.VarParam() != nil:
			want = fn.VarParam().Type
		default:
			continue
		}
		if want == cty.DynamicPseudoType || a.Type().Equals(want) {
			continue
		}
		if conv, err := convert.Convert(a, want); err == nil {
			args[i] = conv
		}
	}
	return fn.Call(args)
}

// Text renders a text, number or bool value as a step would type it:
// numbers in plain decimal.
func Text(v cty.Value) (string, bool) {
	switch {
	case v.IsNull() || !v.IsKnown():
		return "", false
	case v.Type() == cty.String:
		return v.AsString(), true
	case v.Type() == cty.Number:
		return v.AsBigFloat().Text('f', -1), true
	case v.Type() == cty.Bool:
		return strconv.FormatBool(v.True()), true
	}
	return "", false
}

// Binary applies a binary operator: + joins text when either side is text
// (numbers written in plain decimal), arithmetic and comparisons take
// numbers, && and || take bools, == and != compare values of one type.
func Binary(op string, x, y cty.Value) (v cty.Value, err error) {
	defer func() {
		if r := recover(); r != nil { // cty panics on mistyped operands
			v, err = cty.NilVal, fmt.Errorf("%s cannot combine %s and %s", op, x.Type().FriendlyName(), y.Type().FriendlyName())
		}
	}()
	if op == "+" && (x.Type() == cty.String || y.Type() == cty.String) {
		xs, okx := Text(x)
		ys, oky := Text(y)
		if !okx || !oky {
			return cty.NilVal, fmt.Errorf("+ cannot join %s and %s", x.Type().FriendlyName(), y.Type().FriendlyName())
		}
		return cty.StringVal(xs + ys), nil
	}
	switch op {
	case "==", "!=":
		return cty.BoolVal(x.Equals(y).True() == (op == "==")), nil
	case "+":
		return x.Add(y), nil
	case "-":
		return x.Subtract(y), nil
	case "*":
		return x.Multiply(y), nil
	case "/":
		if y.Type() == cty.Number && y.Equals(cty.Zero).True() {
			return cty.NilVal, fmt.Errorf("division by zero")
		}
		return x.Divide(y), nil
	case "%":
		return x.Modulo(y), nil
	case "<":
		return x.LessThan(y), nil
	case "<=":
		return x.LessThanOrEqualTo(y), nil
	case ">":
		return x.GreaterThan(y), nil
	case ">=":
		return x.GreaterThanOrEqualTo(y), nil
	case "&&":
		return x.And(y), nil
	case "||":
		return x.Or(y), nil
	}
	return cty.NilVal, fmt.Errorf("unknown operator %s", op)
}

// Number is the value of a number literal as the language writes it, with
// the precision the interpreter and the synthesizer both compute in.
func Number(raw string) (cty.Value, error) {
	f, _, err := big.ParseFloat(raw, 10, 512, big.ToNearestEven)
	if err != nil {
		return cty.NilVal, fmt.Errorf("number %s: %w", raw, err)
	}
	return cty.NumberVal(f), nil
}
