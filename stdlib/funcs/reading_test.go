package funcs

import (
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestReadingFuncs(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want cty.Value
	}{
		{"words", args(s(`Type "Bob", then press Submit.`)), strs("Type", "Bob", "then", "press", "Submit")},
		{"words", args(s("  don't  e-mail 3.5 (x) — ...  ")), strs("don't", "e-mail", "3.5", "x")},
		{"words", args(s("Enter «Zoë»\tand\nnaïve!")), strs("Enter", "Zoë", "and", "naïve")},
		{"words", args(s("$5 costs 5€.")), strs("$5", "costs", "5€")},
		{"words", args(s("")), cty.ListValEmpty(cty.String)},
		{"words", args(s(" ,; ")), cty.ListValEmpty(cty.String)},
		{"lines", args(s("first\n\n  second  \r\nthird\r")), strs("first", "second", "third")},
		{"lines", args(s("one line")), strs("one line")},
		{"lines", args(s(" \n\t\n")), cty.ListValEmpty(cty.String)},
		{"lines", args(s("日本\n語")), strs("日本", "語")},

		{"split_list", args(s("A, B and C")), strs("A", "B", "C")},
		{"split_list", args(s("A, B, C")), strs("A", "B", "C")},
		{"split_list", args(s("A or B")), strs("A", "B")},
		{"split_list", args(s("A, B, or C")), strs("A", "B", "C")},
		{"split_list", args(s("A, B, and C")), strs("A", "B", "C")},
		{"split_list", args(s("red; green; blue")), strs("red", "green", "blue")},
		{"split_list", args(s("A AND B")), strs("A", "B")},
		{"split_list", args(s("salt & pepper")), strs("salt", "pepper")},
		{"split_list", args(s(`"New  York", 'Oslo' and “Zürich”`)), strs("New York", "Oslo", "Zürich")},
		{"split_list", args(s("Brandon,")), strs("Brandon")},
		{"split_list", args(s("one")), strs("one")},
		{"split_list", args(s("Andrea, Orlando and Sandor")), strs("Andrea", "Orlando", "Sandor")}, // "and" inside names
		{"split_list", args(s("ÆØÅ, æøå")), strs("ÆØÅ", "æøå")},
		{"split_list", args(s("nothing")), cty.ListValEmpty(cty.String)}, // "Select nothing and click Submit"
		{"split_list", args(s(" None. ")), cty.ListValEmpty(cty.String)},
		{"split_list", args(s("nothing, A")), strs("nothing", "A")},

		{"nonempty", args(s("x")), s("x")},
		{"nonempty", args(s(" padded ")), s(" padded ")},

		{"parse_ordinal", args(s("3rd")), n(3)},
		{"parse_ordinal", args(s("third")), n(3)},
		{"parse_ordinal", args(s("3")), n(3)},
		{"parse_ordinal", args(s(" First ")), n(1)},
		{"parse_ordinal", args(s("21st")), n(21)},
		{"parse_ordinal", args(s("2nd")), n(2)},
		{"parse_ordinal", args(s("11th")), n(11)},
		{"parse_ordinal", args(s("twelfth")), n(12)},
		{"parse_ordinal", args(s("twenty-first")), n(21)},
		{"parse_ordinal", args(s("twenty second")), n(22)},
		{"parse_ordinal", args(s("the 5th")), n(5)},
		{"parse_ordinal", args(s("last")), n(-1)},
		{"parse_ordinal", args(s("LAST")), n(-1)},
		{"parse_ordinal", args(s("second to last")), n(-2)},
		{"parse_ordinal", args(s("second-to-last")), n(-2)},
		{"parse_ordinal", args(s("2nd to last")), n(-2)},
		{"parse_ordinal", args(s("second last")), n(-2)},
		{"parse_ordinal", args(s("third from the end")), n(-3)},
		{"parse_ordinal", args(s("penultimate")), n(-2)},
		{"parse_ordinal", args(s("last but one")), n(-2)},
		{"parse_ordinal", args(s("“third”,")), n(3)},
		{"parse_ordinal", args(s("(2nd)")), n(2)},

		{"nth", args(strs("a", "b", "c"), n(1)), s("a")},
		{"nth", args(strs("a", "b", "c"), n(3)), s("c")},
		{"nth", args(strs("a", "b", "c"), n(-1)), s("c")},
		{"nth", args(strs("a", "b", "c"), n(-3)), s("a")},
		{"nth", args(nums(10, 20), n(2)), n(20)},

		{"parse_number", args(s("1.234,5"), s(",")), f(1234.5)},
		{"parse_number", args(s("1234,5"), s(",")), f(1234.5)},
		{"parse_number", args(s(" -0,25 "), s(",")), f(-0.25)},
		{"parse_number", args(s("1.234.567"), s(",")), n(1234567)},
		{"parse_number", args(s("1,234"), s(",")), f(1.234)},
		{"parse_number", args(s("1,234.5"), s(".")), f(1234.5)},
		{"parse_number", args(s("42"), s(",")), n(42)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := call(t, tc.name, tc.args)
			if err != nil {
				t.Fatalf("%s%v: %v", tc.name, tc.args, err)
			}
			if !got.Type().Equals(tc.want.Type()) || !got.Equals(tc.want).True() {
				t.Errorf("%s%v = %#v, want %#v", tc.name, tc.args, got, tc.want)
			}
		})
	}
}

func TestReadingErrors(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want string
	}{
		{"split_list", args(s("")), `split_list: "" names no item`},
		{"split_list", args(s(" , and ")), `split_list: " , and " names no item`},
		{"nonempty", args(s("")), "nonempty: read an empty text"},
		{"nonempty", args(s(" \n\t")), "nonempty: read an empty text"},
		{"parse_ordinal", args(s("thrid")), `parse_ordinal: "thrid" is not an ordinal`},
		{"parse_ordinal", args(s("0")), `"0" is not an ordinal`},
		{"parse_ordinal", args(s("0th")), `"0th" is not an ordinal`},
		{"parse_ordinal", args(s("-1")), `"-1" is not an ordinal`},
		{"parse_ordinal", args(s("–2")), `"–2" is not an ordinal`},
		{"parse_ordinal", args(s("(-3)")), `"(-3)" is not an ordinal`},
		{"parse_ordinal", args(s("")), `"" is not an ordinal`},
		{"parse_ordinal", args(s("fourth to")), `"fourth to" is not an ordinal`},
		{"parse_ordinal", args(s("blue to last")), `"blue to last" is not an ordinal`},
		{"parse_ordinal", args(s("twenty-twelfth")), `is not an ordinal`},
		{"nth", args(strs("a", "b"), n(0)), "nth: n counts from 1 (or from -1 at the end), not 0"},
		{"nth", args(strs("a", "b"), n(3)), "nth: there is no item 3 in a list of 2 items"},
		{"nth", args(strs("a", "b"), n(-3)), "nth: there is no item -3 in a list of 2 items"},
		{"nth", args(cty.ListValEmpty(cty.String), n(1)), "nth: there is no item 1 in a list of 0 items"},
		{"nth", args(strs("a"), n(2)), "in a list of 1 item"},
		{"nth", args(strs("a"), f(1.5)), "nth: n must be a whole number, not 1.5"},
		{"parse_number", args(s("1.234,5"), s(";")), `parse_number: the decimal mark must be "." or ",", not ";"`},
		{"parse_number", args(s("1,234.5"), s(",")), `parse_number: "1,234.5" is not a number written with a decimal comma`},
		{"parse_number", args(s("1e3"), s(",")), `"1e3" is not a number written with a decimal comma`},
		{"parse_number", args(s("1.23,4"), s(",")), `"1.23,4" is not a number written with a decimal comma`},
		{"parse_number", args(s("1"), s(","), s(",")), "parse_number: takes 1 or 2 arguments (the text and the decimal mark), got 3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := call(t, tc.name, tc.args)
			if err == nil {
				t.Fatalf("%s%v = %#v, want error %q", tc.name, tc.args, got, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s%v: error %q, want it to contain %q", tc.name, tc.args, err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.name+": ") {
				t.Errorf("%s: error %q does not name the function", tc.name, err)
			}
		})
	}
}

// TestReadingTypes plays the checker for the new functions: unknown
// arguments give an unknown result of the documented type, and a wrong
// argument type or a bad literal is reported before anything runs.
func TestReadingTypes(t *testing.T) {
	types := []struct {
		name string
		args []cty.Value
		want cty.Type
	}{
		{"words", args(unknown(cty.String)), cty.List(cty.String)},
		{"lines", args(unknown(cty.String)), cty.List(cty.String)},
		{"split_list", args(unknown(cty.String)), cty.List(cty.String)},
		{"nonempty", args(unknown(cty.String)), cty.String},
		{"parse_ordinal", args(unknown(cty.String)), cty.Number},
		{"nth", args(unknown(cty.List(cty.String)), unknown(cty.Number)), cty.String},
		{"nth", args(unknown(cty.List(el)), n(1)), el},
		{"parse_number", args(unknown(cty.String), s(",")), cty.Number},
		{"parse_number", args(s("1,5"), unknown(cty.String)), cty.Number},
		{"reformat_date", args(unknown(cty.String), s("h:mm a"), s("HH:mm")), cty.String},
		{"with_text", args(unknown(cty.List(el)), s("x")), cty.List(el)},
		{"with_text", args(cty.ListVal([]cty.Value{unknown(el), elem("result A")}), s("x")), cty.List(el)},
		{"lookup", args(unknown(el), unknown(cty.String)), cty.String},
		{"find_row", args(unknown(el), s("Name"), unknown(cty.String)), el},
	}
	for _, tc := range types {
		t.Run(tc.name, func(t *testing.T) {
			fn := Library(nil)[tc.name]
			ty, err := fn.ReturnTypeForValues(tc.args)
			if err != nil || !ty.Equals(tc.want) {
				t.Fatalf("%s: return type %#v, %v; want %#v", tc.name, ty, err, tc.want)
			}
			got, err := fn.Call(tc.args)
			if err != nil || got.IsWhollyKnown() || !got.Type().Equals(tc.want) {
				t.Errorf("%s: call gave %#v, %v; want an unknown %#v", tc.name, got, err, tc.want)
			}
		})
	}

	errs := []struct {
		name string
		args []cty.Value
		want string
	}{
		{"words", args(unknown(cty.List(cty.String))), "string required"},
		{"nth", args(unknown(cty.String), n(1)), "list of dynamic required"},
		{"nth", args(strs("a"), unknown(cty.String)), "number required"},
		{"split_list", args(unknown(el)), "string required"},
		{"parse_number", args(unknown(cty.String), s("·")), `parse_number: the decimal mark must be "." or ","`},
		{"reformat_date", args(unknown(cty.String), s("h:mm 'a"), s("HH:mm")), `reformat_date: layout "h:mm 'a" has an unclosed quote`},
		{"reformat_date", args(unknown(cty.String), s("YYYY-MM-DD"), s("MD")), `reformat_date: layout "MD": M is directly followed by D`},
		{"reformat_date", args(unknown(cty.String), s(""), s("HH")), "reformat_date: the layout is empty"},
		{"with_text", args(unknown(el), s("x")), "list of element required"},
		{"lookup", args(unknown(cty.List(el)), s("x")), "element required"},
		{"find_row", args(unknown(el), n(1), s("x")), "string required"},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Library(nil)[tc.name].ReturnTypeForValues(tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
			}
		})
	}
}

// TestOrdinalAndNth is the way the compiler uses the pair: "the 3rd word"
// and "the second to last item" index the list as a person means them.
func TestOrdinalAndNth(t *testing.T) {
	list := strs("alpha", "beta", "gamma", "delta")
	for ord, want := range map[string]string{"1st": "alpha", "third": "gamma", "last": "delta", "second to last": "gamma", "4": "delta"} {
		i, err := call(t, "parse_ordinal", args(s(ord)))
		if err != nil {
			t.Fatal(err)
		}
		got, err := call(t, "nth", args(list, i))
		if err != nil || got.AsString() != want {
			t.Errorf("nth(list, parse_ordinal(%q)) = %#v, %v; want %q", ord, got, err, want)
		}
	}
}

func TestReadingSignatures(t *testing.T) {
	sigs := Signatures()
	for name, want := range map[string]string{
		"reformat_date": "reformat_date(str text, from text, to text) text",
		"words":         "words(str text) list<text>",
		"lines":         "lines(str text) list<text>",
		"split_list":    "split_list(str text) list<text>",
		"nonempty":      "nonempty(str text) text",
		"parse_ordinal": "parse_ordinal(str text) number",
		"nth":           "nth(list list<any>, n number) any",
		"with_text":     "with_text(elements list<element>, str text) list<element>",
		"lookup":        "lookup(table element, key text) text",
		"find_row":      "find_row(table element, header text, value text) element",
	} {
		if got := sigs[name].String(); got != want {
			t.Errorf("signature %s = %q, want %q", name, got, want)
		}
	}
}
