package funcs

import (
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

var (
	numParam      = param("num", cty.Number, "The number to work on.")
	decimalsParam = param("decimals", cty.Number,
		"How many digits to keep after the decimal point; negative rounds to tens, hundreds, ...")
	numbersParam = param("numbers", cty.List(cty.Number), "The numbers.")
	numVarParam  = &function.Parameter{Name: "numbers", Type: cty.Number, Description: "One or more numbers."}
)

var numberFuncs = map[string]function.Function{
	"abs": reuse("abs", stdlib.AbsoluteFunc,
		"Returns the number without its sign.",
		[]function.Parameter{numParam}, nil),
	"ceil": reuse("ceil", stdlib.CeilFunc,
		"Returns the smallest whole number greater than or equal to num.",
		[]function.Parameter{numParam}, nil),
	"floor": reuse("floor", stdlib.FloorFunc,
		"Returns the greatest whole number less than or equal to num.",
		[]function.Parameter{numParam}, nil),
	"min": reuse("min", stdlib.MinFunc,
		"Returns the smallest of its arguments: min(a, b, c). For a list, use first(sort(list)).",
		nil, numVarParam),
	"max": reuse("max", stdlib.MaxFunc,
		"Returns the greatest of its arguments: max(a, b, c). For a list, use last(sort(list)).",
		nil, numVarParam),
	"round":         roundFunc,
	"parse_number":  parseNumberFunc,
	"parse_numbers": parseNumbersFunc,
	"format_number": formatNumberFunc,
	"sum":           sumFunc,
	"average":       averageFunc,
}

// maxDecimals bounds round and format_number: numbers arrive as float64 or
// decimal text, so digits beyond this carry no information.
const maxDecimals = 30

// wholeNumber reads an argument that must be an integer, such as a count of
// decimals or a list index.
func wholeNumber(v cty.Value, argIdx int, what string) (int, error) {
	bf := v.AsBigFloat()
	if !bf.IsInt() {
		return 0, function.NewArgErrorf(argIdx, "%s must be a whole number, not %s", what, bf.Text('f', -1))
	}
	i, acc := bf.Int64()
	if acc != big.Exact || i > 1<<31 || i < -(1<<31) {
		return 0, function.NewArgErrorf(argIdx, "%s %s is out of range", what, bf.Text('f', -1))
	}
	return int(i), nil
}

// roundedText rounds x to the given decimals, half away from zero, and
// renders it without grouping. It works on the shortest decimal text of x
// rather than its binary value, so that round(2.675, 2) is 2.68 as a person
// expects, not 2.67 as float arithmetic would give.
func roundedText(x *big.Float, decimals int) (string, error) {
	if x.IsInf() {
		return "", fmt.Errorf("cannot round an infinite number")
	}
	if decimals < -maxDecimals || decimals > maxDecimals {
		return "", fmt.Errorf("decimals must be between %d and %d", -maxDecimals, maxDecimals)
	}
	r, ok := new(big.Rat).SetString(x.Text('f', -1))
	if !ok {
		return "", fmt.Errorf("cannot read %s as a decimal", x.Text('g', -1))
	}
	var s string
	if decimals >= 0 {
		// FloatString rounds the last digit half away from zero.
		s = r.FloatString(decimals)
	} else {
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-decimals)), nil))
		s = new(big.Rat).Quo(r, scale).FloatString(0)
		if s != "0" && s != "-0" {
			s += strings.Repeat("0", -decimals)
		}
	}
	if strings.Trim(s, "-0.") == "" {
		// -0.4 rounds to "-0"; nobody wants to read a negative zero.
		s = strings.TrimPrefix(s, "-")
	}
	return s, nil
}

var roundFunc = build("round", function.Spec{
	Description: "Rounds num to the given number of decimals, halves away from zero: round(2.675, 2) is 2.68, round(1250, -2) is 1300.",
	Params:      []function.Parameter{numParam, decimalsParam},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		d, err := wholeNumber(args[1], 1, "decimals")
		if err != nil {
			return cty.NilVal, err
		}
		s, err := roundedText(args[0].AsBigFloat(), d)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.ParseNumberVal(s)
	},
})

var formatNumberFunc = build("format_number", function.Spec{
	Description: `Renders num with the given decimals and "," between thousands: format_number(1234.5, 2) is "1,234.50". ` +
		`Use format("%.2f", num) for no grouping.`,
	Params: []function.Parameter{numParam, decimalsParam},
	Type:   function.StaticReturnType(cty.String),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		d, err := wholeNumber(args[1], 1, "decimals")
		if err != nil {
			return cty.NilVal, err
		}
		s, err := roundedText(args[0].AsBigFloat(), d)
		if err != nil {
			return cty.NilVal, err
		}
		return cty.StringVal(groupThousands(s)), nil
	},
})

// groupThousands inserts "," into the integer part of a plain decimal text.
func groupThousands(s string) string {
	sign, digits := "", s
	if strings.HasPrefix(s, "-") {
		sign, digits = "-", s[1:]
	}
	intPart, frac, hasFrac := strings.Cut(digits, ".")
	var b strings.Builder
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		return sign + b.String() + "." + frac
	}
	return sign + b.String()
}

// numberText is what parse_number accepts: a plain decimal, optionally with
// "," grouping thousands exactly as format_number writes them. Anything
// else (currency signs, units) is refused rather than guessed at; regex can
// cut the number out first.
var numberText = regexp.MustCompile(`^[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$`)

// commaNumberText is the same with the marks swapped, as most of Europe
// writes numbers: "1.234,5". Whether "1,234" is a thousand or a little
// more than one cannot be told from the text, so the workflow says which
// mark it reads (parse_number's decimal_mark) rather than the function
// guessing from the digits.
var commaNumberText = regexp.MustCompile(`^[+-]?(?:(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?|,\d+)$`)

// decimalMark reads parse_number's optional second argument: true for a
// decimal comma.
func decimalMark(args []cty.Value) (comma bool, err error) {
	switch {
	case len(args) > 2:
		return false, function.NewArgErrorf(2, "takes 1 or 2 arguments (the text and the decimal mark), got %d", len(args))
	case len(args) < 2 || !args[1].IsKnown():
		return false, nil
	}
	switch m := args[1].AsString(); m {
	case ".":
		return false, nil
	case ",":
		return true, nil
	default:
		return false, function.NewArgErrorf(1, `the decimal mark must be "." or ",", not %q`, m)
	}
}

var parseNumberFunc = build("parse_number", function.Spec{
	Description: `Reads a number from text such as "42", "-3.5", "1,234.50" or "1e6"; surrounding spaces are ignored. ` +
		`With the decimal mark ",", it reads texts such as "1.234,5" (1234.5). ` +
		`Other text is an error: cut the number out first, e.g. parse_number(regex("[0-9.,]+", price)).`,
	Params: []function.Parameter{param("str", cty.String, "The text holding the number.")},
	VarParam: &function.Parameter{Name: "decimal_mark", Type: cty.String,
		Description: `Optional: "." (the default) or "," for texts that write a decimal comma.`},
	Type: func(args []cty.Value) (cty.Type, error) {
		_, err := decimalMark(args)
		return cty.Number, err
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		comma, err := decimalMark(args)
		if err != nil {
			return cty.NilVal, err
		}
		raw := args[0].AsString()
		if v, ok := parseNumberMark(raw, comma); ok {
			return v, nil
		}
		if comma {
			return cty.NilVal, function.NewArgErrorf(0, "%s is not a number written with a decimal comma", quoteShort(raw))
		}
		return cty.NilVal, function.NewArgErrorf(0, "%s is not a number", quoteShort(raw))
	},
})

// parseNumber reads raw as parse_number does; ok is false for text that is
// not a number in one of the accepted forms.
func parseNumber(raw string) (v cty.Value, ok bool) {
	return parseNumberMark(raw, false)
}

// parseNumberMark is parseNumber with the decimal mark given: with comma,
// "." groups thousands and "," starts the decimals.
func parseNumberMark(raw string, comma bool) (v cty.Value, ok bool) {
	s := strings.TrimSpace(raw)
	if comma {
		if !commaNumberText.MatchString(s) {
			return cty.NilVal, false
		}
		s = strings.ReplaceAll(strings.ReplaceAll(s, ".", ""), ",", ".")
	} else {
		if !numberText.MatchString(s) {
			return cty.NilVal, false
		}
		s = strings.ReplaceAll(s, ",", "")
	}
	v, err := cty.ParseNumberVal(s)
	if err != nil || v.AsBigFloat().IsInf() {
		return cty.NilVal, false
	}
	return v, true
}

var parseNumbersFunc = build("parse_numbers", function.Spec{
	Description: `Reads a number from each text of a list, as parse_number does: parse_numbers(["42", "1,234.50"]) is [42, 1234.5]. ` +
		`Any item that is not a number is an error naming the item.`,
	Params: []function.Parameter{param("texts", cty.List(cty.String), "The texts holding the numbers, e.g. from texts().")},
	Type:   function.StaticReturnType(cty.List(cty.Number)),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		var vals []cty.Value
		for it := args[0].ElementIterator(); it.Next(); {
			k, item := it.Element()
			i, _ := k.AsBigFloat().Int64()
			switch {
			case !item.IsKnown():
				// The checker may know the list but not every item.
				vals = append(vals, cty.UnknownVal(cty.Number))
				continue
			case item.IsNull():
				return cty.NilVal, function.NewArgErrorf(0, "item %d of the list is null", i)
			}
			raw := item.AsString()
			v, ok := parseNumber(raw)
			if !ok {
				return cty.NilVal, function.NewArgErrorf(0, "item %d of the list, %s, is not a number", i, quoteShort(raw))
			}
			vals = append(vals, v)
		}
		return listOf(vals, cty.Number), nil
	},
})

// quoteShort quotes text for an error message, cutting long page text so
// the message stays one readable line.
func quoteShort(s string) string {
	const limit = 60
	if r := []rune(s); len(r) > limit {
		return fmt.Sprintf("%q…", string(r[:limit]))
	}
	return fmt.Sprintf("%q", s)
}

// addAll sums a known list of numbers exactly (go-cty numbers are big
// floats), so sum(prices) does not pick up float noise.
func addAll(list cty.Value) (cty.Value, int, error) {
	total, n := cty.Zero, 0
	for it := list.ElementIterator(); it.Next(); n++ {
		_, v := it.Element()
		if v.IsNull() {
			return cty.NilVal, 0, function.NewArgErrorf(0, "item %d of the list is null", n)
		}
		total = total.Add(v)
	}
	return total, n, nil
}

var sumFunc = build("sum", function.Spec{
	Description: "Adds up a list of numbers; the sum of an empty list is 0.",
	Params:      []function.Parameter{numbersParam},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		total, _, err := addAll(args[0])
		return total, err
	},
})

var averageFunc = build("average", function.Spec{
	Description: "Returns the arithmetic mean of a list of numbers. An empty list is an error.",
	Params:      []function.Parameter{numbersParam},
	Type:        function.StaticReturnType(cty.Number),
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		total, n, err := addAll(args[0])
		if err != nil {
			return cty.NilVal, err
		}
		if n == 0 {
			return cty.NilVal, function.NewArgErrorf(0, "the list is empty")
		}
		return total.Divide(cty.NumberIntVal(int64(n))), nil
	},
})
