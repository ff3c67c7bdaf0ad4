package funcs

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/types"
)

var (
	s = cty.StringVal
	n = cty.NumberIntVal
	f = cty.NumberFloatVal
)

func strs(vs ...string) cty.Value {
	out := make([]cty.Value, len(vs))
	for i, v := range vs {
		out[i] = s(v)
	}
	return cty.ListVal(out)
}

func nums(vs ...float64) cty.Value {
	out := make([]cty.Value, len(vs))
	for i, v := range vs {
		out[i] = f(v)
	}
	return cty.ListVal(out)
}

func args(vs ...cty.Value) []cty.Value { return vs }

func call(tb testing.TB, name string, in []cty.Value) (cty.Value, error) {
	tb.Helper()
	fn, ok := Library(nil)[name]
	if !ok {
		tb.Fatalf("no function %q", name)
	}
	return fn.Call(in)
}

func TestCall(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want cty.Value
	}{
		{"upper", args(s("Kilimanjaro")), s("KILIMANJARO")},
		{"lower", args(s("ÉCOLE")), s("école")},
		{"title", args(s("hello big world")), s("Hello Big World")},
		{"trim", args(s("**a*b**"), s("*")), s("a*b")},
		{"trimspace", args(s(" \t a b \n")), s("a b")},
		{"trim_prefix", args(s("Re: hello"), s("Re: ")), s("hello")},
		{"trim_prefix", args(s("hello"), s("Re: ")), s("hello")},
		{"trim_suffix", args(s("report.txt"), s(".txt")), s("report")},
		{"replace", args(s("notes.txt"), s(".txt"), s(".md")), s("notes.md")},
		{"replace", args(s("a-b-c"), s("-"), s("")), s("abc")},
		{"replace", args(s("a.b"), s("."), s("[.]")), s("a[.]b")}, // plain text, not a pattern
		{"replace", args(s("abc"), s("x"), s("y")), s("abc")},
		{"regex", args(s("[0-9]+"), s("Total: 42 of 50")), s("42")},
		{"regex", args(s(`Total: (\d+)`), s("Total: 42 of 50")), s("42")},
		{"regex", args(s(`(\w+)@(\w+)`), s("mail bob@example now")), s("bob")},
		{"regex", args(s(`(?P<year>\d{4})-\d\d`), s("on 2024-05")), s("2024")},
		{"regex", args(s(`a(x)?b`), s("ab")), s("")},
		{"regex_all", args(s("[0-9]+"), s("1, 22 and 333")), strs("1", "22", "333")},
		{"regex_all", args(s(`(\d+)€`), s("3€ and 4€")), strs("3", "4")},
		{"regex_all", args(s("z"), s("abc")), cty.ListValEmpty(cty.String)},
		{"regex_replace", args(s("2024-05-01"), s(`(\d+)-(\d+)-(\d+)`), s("$3.$2.$1")), s("01.05.2024")},
		{"regex_replace", args(s("a  b   c"), s(` +`), s(" ")), s("a b c")},
		{"format", args(s("%s has %d items"), s("cart"), n(3)), s("cart has 3 items")},
		{"format", args(s("%.2f"), f(3.14159)), s("3.14")},
		{"format", args(s("%q"), s("hi")), s(`"hi"`)},
		{"format", args(s("100%%")), s("100%")},
		{"format", args(s("%v and %v"), cty.True, n(7)), s("true and 7")},
		{"join", args(s(", "), strs("a", "b", "c")), s("a, b, c")},
		{"join", args(s("-"), strs("a"), strs("b", "c")), s("a-b-c")},
		{"join", args(s(","), cty.ListValEmpty(cty.String)), s("")},
		{"split", args(s(","), s("a,b,,c")), strs("a", "b", "", "c")},
		{"split", args(s(", "), s("x")), strs("x")},
		{"split", args(s(","), s("")), strs("")},
		{"substr", args(s("hello world"), n(6), n(5)), s("world")},
		{"substr", args(s("hello"), n(-3), n(-1)), s("llo")},
		{"strlen", args(s("naïve")), n(5)},
		{"contains", args(s("hello world"), s("o w")), cty.True},
		{"contains", args(s("hello"), s("z")), cty.False},
		{"starts_with", args(s("https://x"), s("https://")), cty.True},
		{"ends_with", args(s("a.pdf"), s(".txt")), cty.False},
		{"index_of", args(s("naïve cat"), s("cat")), n(6)},
		{"index_of", args(s("abc"), s("z")), n(-1)},
		{"reverse", args(s("abc")), s("cba")},

		{"abs", args(n(-4)), n(4)},
		{"ceil", args(f(1.2)), n(2)},
		{"floor", args(f(-1.2)), n(-2)},
		{"min", args(n(3), n(1), n(2)), n(1)},
		{"max", args(n(3), n(1), n(2)), n(3)},
		{"round", args(f(2.675), n(2)), f(2.68)},
		{"round", args(f(-2.5), n(0)), n(-3)},
		{"round", args(n(1250), n(-2)), n(1300)},
		{"round", args(f(-0.4), n(0)), n(0)},
		{"parse_number", args(s("42")), n(42)},
		{"parse_number", args(s(" -3.5 ")), f(-3.5)},
		{"parse_number", args(s("1,234.50")), f(1234.5)},
		{"parse_number", args(s("1e3")), n(1000)},
		{"parse_number", args(s(".5")), f(0.5)},
		{"parse_numbers", args(strs("42", " -3.5 ", "1,234.50", "1e3", ".5")), nums(42, -3.5, 1234.5, 1000, 0.5)},
		{"parse_numbers", args(strs("7")), nums(7)},
		{"parse_numbers", args(cty.ListValEmpty(cty.String)), cty.ListValEmpty(cty.Number)},
		{"format_number", args(f(1234567.891), n(2)), s("1,234,567.89")},
		{"format_number", args(n(-1234), n(0)), s("-1,234")},
		{"format_number", args(f(0.5), n(2)), s("0.50")},
		{"format_number", args(n(999), n(1)), s("999.0")},
		{"sum", args(nums(1, 2, 3.5)), f(6.5)},
		{"sum", args(nums(0.1, 0.2)), f(0.30000000000000004)},
		{"sum", args(cty.ListValEmpty(cty.Number)), n(0)},
		{"sum", args(nums(-5)), n(-5)},
		{"average", args(nums(1, 2, 6)), n(3)},

		{"length", args(strs("a", "b")), n(2)},
		{"concat", args(strs("a"), strs("b", "c")), strs("a", "b", "c")},
		{"slice", args(strs("a", "b", "c", "d"), n(1), n(3)), strs("b", "c")},
		{"distinct", args(strs("a", "b", "a")), strs("a", "b")},
		{"sort", args(strs("pear", "apple", "fig")), strs("apple", "fig", "pear")},
		{"sort", args(nums(10, 9, 100)), nums(9, 10, 100)},
		{"first", args(strs("a", "b")), s("a")},
		{"last", args(strs("a", "b")), s("b")},
		{"element_at", args(strs("a", "b", "c"), n(1)), s("b")},
		{"range", args(n(3)), nums(0, 1, 2)},
		{"range", args(n(1), n(7), n(2)), nums(1, 3, 5)},
		{"flatten", args(cty.ListVal([]cty.Value{strs("a"), strs("b", "c")})), strs("a", "b", "c")},
		{"has", args(strs("a", "b"), s("b")), cty.True},
		{"has", args(nums(1, 2), n(3)), cty.False},
		{"reverse_list", args(strs("a", "b")), strs("b", "a")},
		{"coalesce", args(s(""), cty.NullVal(cty.String), s("x"), s("y")), s("x")},
		{"coalesce", args(n(0), n(1)), n(0)},
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

func TestCallErrors(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want string
	}{
		{"parse_number", args(s("abc")), `parse_number: "abc" is not a number`},
		{"parse_number", args(s("$12")), `"$12" is not a number`},
		{"parse_number", args(s("")), `"" is not a number`},
		{"parse_number", args(s("1.234,5")), `"1.234,5" is not a number`},
		{"parse_number", args(s("Inf")), `"Inf" is not a number`},
		{"parse_numbers", args(strs("1", "2", "$3")), `parse_numbers: item 2 of the list, "$3", is not a number`},
		{"parse_numbers", args(strs("1.234,5")), `item 0 of the list, "1.234,5", is not a number`},
		{"parse_numbers", args(strs("1", strings.Repeat("x", 70))), `item 1 of the list, "` + strings.Repeat("x", 60) + `"…, is not a number`},
		{"parse_numbers", args(cty.ListVal([]cty.Value{s("1"), cty.NullVal(cty.String)})), "parse_numbers: item 1 of the list is null"},
		{"regex", args(s("("), s("x")), "regex: invalid pattern \"(\": missing closing ): `(`"},
		{"regex", args(s("[0-9]+"), s("none")), `regex: pattern "[0-9]+" does not match the text`},
		{"regex_all", args(s("a**"), s("x")), "regex_all: invalid pattern"},
		{"regex_replace", args(s("x"), s("("), s("y")), "regex_replace: invalid pattern"},
		{"round", args(f(1.5), f(0.5)), "round: decimals must be a whole number, not 0.5"},
		{"average", args(cty.ListValEmpty(cty.Number)), "average: the list is empty"},
		{"first", args(cty.ListValEmpty(cty.String)), "first: the list is empty"},
		{"last", args(cty.ListValEmpty(cty.String)), "last: the list is empty"},
		{"element_at", args(strs("a"), n(1)), "element_at: index 1 is outside the list of 1 items"},
		{"element_at", args(strs("a"), n(-1)), "outside the list"},
		{"coalesce", args(s(""), cty.NullVal(cty.String)), "coalesce: every value is null or empty"},
		{"sort", args(cty.ListVal([]cty.Value{cty.True})), "sort: can only sort text or numbers, not bool"},
		{"length", args(s("abc")), "list of dynamic required"},
		{"upper", args(cty.NullVal(cty.String)), "argument must not be null"},
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
			if !strings.HasPrefix(err.Error(), tc.name+": ") && !strings.Contains(tc.want, "null") && !strings.Contains(tc.want, "required") {
				t.Errorf("%s: error %q does not name the function", tc.name, err)
			}
		})
	}
}

// TestArgErrorIndex checks that the name prefix keeps the argument index, so
// the checker and runtime can point at the offending argument.
func TestArgErrorIndex(t *testing.T) {
	_, err := call(t, "regex_replace", args(s("x"), s("("), s("y")))
	var ae function.ArgError
	if !errors.As(err, &ae) || ae.Index != 1 {
		t.Fatalf("error %v: want an ArgError for argument 1", err)
	}
}

func unknown(ty cty.Type) cty.Value { return cty.UnknownVal(ty) }

var el = types.ElementCapsule

// TestUnknownArgs plays the checker: every call with unknown arguments of
// the declared types yields an unknown value of the expected type.
func TestUnknownArgs(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want cty.Type
	}{
		{"upper", args(unknown(cty.String)), cty.String},
		{"replace", args(unknown(cty.String), s(".txt"), s(".md")), cty.String},
		{"regex", args(s("[0-9]+"), unknown(cty.String)), cty.String},
		{"regex_all", args(unknown(cty.String), unknown(cty.String)), cty.List(cty.String)},
		{"split", args(s(","), unknown(cty.String)), cty.List(cty.String)},
		{"join", args(s(","), unknown(cty.List(cty.String))), cty.String},
		{"format", args(s("%s"), unknown(cty.Number)), cty.String},
		{"contains", args(unknown(cty.String), s("x")), cty.Bool},
		{"sum", args(unknown(cty.List(cty.Number))), cty.Number},
		{"parse_number", args(unknown(cty.String)), cty.Number},
		{"parse_numbers", args(unknown(cty.List(cty.String))), cty.List(cty.Number)},
		{"parse_numbers", args(cty.ListVal([]cty.Value{s("1"), unknown(cty.String)})), cty.List(cty.Number)},
		{"min", args(unknown(cty.Number), n(1)), cty.Number},
		{"round", args(unknown(cty.Number), n(2)), cty.Number},
		{"format_number", args(unknown(cty.Number), n(2)), cty.String},
		{"length", args(unknown(cty.List(el))), cty.Number},
		{"first", args(unknown(cty.List(el))), el},
		{"last", args(unknown(cty.List(cty.String))), cty.String},
		{"element_at", args(unknown(cty.List(el)), n(0)), el},
		{"slice", args(unknown(cty.List(el)), n(1), n(2)), cty.List(el)},
		{"concat", args(unknown(cty.List(el)), unknown(cty.List(el))), cty.List(el)},
		{"concat", args(unknown(cty.List(el)), unknown(anyList)), cty.List(el)},
		{"distinct", args(unknown(cty.List(cty.String))), cty.List(cty.String)},
		{"sort", args(unknown(cty.List(cty.Number))), cty.List(cty.Number)},
		{"sort", args(cty.ListVal([]cty.Value{unknown(cty.String)})), cty.List(cty.String)},
		{"flatten", args(unknown(cty.List(cty.List(el)))), cty.List(el)},
		{"has", args(unknown(cty.List(el)), unknown(el)), cty.Bool},
		{"has", args(strs("a"), unknown(cty.DynamicPseudoType)), cty.Bool},
		{"range", args(unknown(cty.Number)), cty.List(cty.Number)},
		{"coalesce", args(unknown(cty.String), s("x")), cty.String},
		{"first", args(unknown(anyList)), cty.DynamicPseudoType},
		{"same", args(unknown(el)), el},
		{"next", args(unknown(el)), el},
		{"previous", args(unknown(el)), el},
		{"rows", args(unknown(el)), cty.List(el)},
		{"items", args(unknown(el)), cty.List(el)},
		{"cell", args(unknown(el), s("Title")), el},
		{"column", args(unknown(el), s("Amount")), cty.List(el)},
		{"column", args(elem("table"), unknown(cty.String)), cty.List(el)},
		{"texts", args(unknown(cty.List(el))), cty.List(cty.String)},
		{"texts", args(cty.ListVal([]cty.Value{unknown(el)})), cty.List(cty.String)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fn := Library(nil)[tc.name]
			ty, err := fn.ReturnTypeForValues(tc.args)
			if err != nil {
				t.Fatalf("%s: return type: %v", tc.name, err)
			}
			if !ty.Equals(tc.want) {
				t.Errorf("%s: return type %s, want %s", tc.name, ty.GoString(), tc.want.GoString())
			}
			got, err := fn.Call(tc.args)
			if err != nil {
				t.Fatalf("%s: call: %v", tc.name, err)
			}
			if got.IsWhollyKnown() || !got.Type().Equals(tc.want) {
				t.Errorf("%s: call gave %#v, want an unknown %s", tc.name, got, tc.want.GoString())
			}
		})
	}
}

// TestTypeErrors checks what the checker reports before anything runs.
func TestTypeErrors(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want string
	}{
		{"regex", args(s("(x"), unknown(cty.String)), `regex: invalid pattern "(x"`},
		{"sort", args(unknown(cty.List(el))), "sort: can only sort text or numbers, not element"},
		{"flatten", args(unknown(cty.List(cty.String))), "flatten: items must be lists, not text"},
		{"sum", args(unknown(cty.List(cty.String))), "number required"},
		{"rows", args(unknown(cty.String)), "element required"},
		{"column", args(unknown(cty.String), s("Amount")), "element required"},
		{"texts", args(unknown(cty.List(cty.String))), "element required"},
		{"parse_numbers", args(unknown(cty.String)), "list of string required"},
		{"coalesce", args(unknown(cty.String), unknown(el)), "coalesce: all values must have the same type"},
		{"concat", args(unknown(cty.List(cty.String)), unknown(cty.List(el))), "concat: lists must have the same item type, not list<text> and list<element>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Library(nil)[tc.name].ReturnTypeForValues(tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
			}
		})
	}
}

// fakeUI is a Navigator over an in-memory table and list. Element handles
// are strings naming the element.
type fakeUI struct {
	headers []string
	rows    [][]string // cell texts, which are also the cell handles; the row handle is "row<i>"
	items   []string
}

func (u fakeUI) rowIndex(el any) (int, error) {
	var i int
	if _, err := fmt.Sscanf(el.(string), "row%d", &i); err != nil || i >= len(u.rows) {
		return 0, fmt.Errorf("%v is not a row", el)
	}
	return i, nil
}

func (u fakeUI) step(el any, by int) (any, error) {
	if i := slices.Index(u.items, el.(string)); i >= 0 {
		if j := i + by; j >= 0 && j < len(u.items) {
			return u.items[j], nil
		}
		return nil, fmt.Errorf("no item beside %v", el)
	}
	i, err := u.rowIndex(el)
	if err != nil {
		return nil, err
	}
	if j := i + by; j >= 0 && j < len(u.rows) {
		return fmt.Sprintf("row%d", j), nil
	}
	return nil, fmt.Errorf("no row beside %v", el)
}

func (u fakeUI) Next(el any) (any, error)     { return u.step(el, 1) }
func (u fakeUI) Previous(el any) (any, error) { return u.step(el, -1) }

func (u fakeUI) Rows(table any) ([]any, error) {
	if table == "empty table" {
		return nil, nil
	}
	if table != "table" {
		return nil, fmt.Errorf("%v is not a table", table)
	}
	var out []any
	for i := range u.rows {
		out = append(out, fmt.Sprintf("row%d", i))
	}
	return out, nil
}

func (u fakeUI) Items(list any) ([]any, error) {
	if list != "list" {
		return nil, fmt.Errorf("%v is not a list", list)
	}
	var out []any
	for _, it := range u.items {
		out = append(out, it)
	}
	return out, nil
}

func (u fakeUI) Cell(row any, header string) (any, error) {
	i, err := u.rowIndex(row)
	if err != nil {
		return nil, err
	}
	c := slices.Index(u.headers, header)
	if c < 0 {
		return nil, fmt.Errorf("no column %q", header)
	}
	return u.rows[i][c], nil
}

// Cells lists a row's cells, whose handles are their texts.
func (u fakeUI) Cells(row any) ([]any, error) {
	i, err := u.rowIndex(row)
	if err != nil {
		return nil, err
	}
	var out []any
	for _, c := range u.rows[i] {
		out = append(out, c)
	}
	return out, nil
}

// Text reads an element's text: a cell's or item's text is its handle, a
// row's is its cells joined by tabs. Handles starting with "stale" have
// left the page.
func (u fakeUI) Text(el any) (string, error) {
	h := el.(string)
	if strings.HasPrefix(h, "stale") {
		return "", fmt.Errorf("%s is no longer on the page", h)
	}
	if i, err := u.rowIndex(h); err == nil {
		return strings.Join(u.rows[i], "\t"), nil
	}
	return h, nil
}

var ui = fakeUI{
	headers: []string{"Title", "Abstract", "Amount"},
	rows:    [][]string{{"Attention", "abs0", "1,200.50"}, {"ResNet", "abs1", " 30 "}, {"BERT", "abs2", "4.25"}},
	items:   []string{"result A", "result B", "result C"},
}

func elem(h string) cty.Value { return elementVal(h) }

func handles(tb testing.TB, v cty.Value) []string {
	tb.Helper()
	var out []string
	if v.Type().Equals(el) {
		v = cty.ListVal([]cty.Value{v})
	}
	for _, e := range v.AsValueSlice() {
		h, err := handle(e, 0)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, h.(string))
	}
	return out
}

func TestStructural(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want []string
	}{
		{"rows", args(elem("table")), []string{"row0", "row1", "row2"}},
		{"items", args(elem("list")), []string{"result A", "result B", "result C"}},
		{"next", args(elem("result A")), []string{"result B"}},
		{"previous", args(elem("result C")), []string{"result B"}},
		{"next", args(elem("row1")), []string{"row2"}},
		{"cell", args(elem("row1"), s("Title")), []string{"ResNet"}},
		{"cell", args(elem("row2"), s("Abstract")), []string{"abs2"}},
		{"same", args(elem("row0")), []string{"row0"}},
		{"column", args(elem("table"), s("Title")), []string{"Attention", "ResNet", "BERT"}},
		{"column", args(elem("table"), s("Amount")), []string{"1,200.50", " 30 ", "4.25"}},
		{"column", args(elem("empty table"), s("Title")), nil},
	}
	lib := Library(ui)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib[tc.name].Call(tc.args)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if h := handles(t, got); !slices.Equal(h, tc.want) {
				t.Errorf("%s = %q, want %q", tc.name, h, tc.want)
			}
		})
	}

	// The iterative-task idiom: rows(table)[1:] then .cell("Title").
	rows, _ := lib["rows"].Call(args(elem("table")))
	rest, err := lib["slice"].Call(args(rows, n(1), rows.Length()))
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, row := range rest.AsValueSlice() {
		c, err := lib["cell"].Call(args(row, s("Title")))
		if err != nil {
			t.Fatal(err)
		}
		titles = append(titles, handles(t, c)...)
	}
	if want := []string{"ResNet", "BERT"}; !slices.Equal(titles, want) {
		t.Errorf("titles = %q, want %q", titles, want)
	}
}

func TestTexts(t *testing.T) {
	tests := []struct {
		name string
		args []cty.Value
		want cty.Value
	}{
		{"texts", args(cty.ListVal([]cty.Value{elem("result A"), elem("result C")})), strs("result A", "result C")},
		{"texts", args(cty.ListVal([]cty.Value{elem("row1")})), strs("ResNet\tabs1\t 30 ")},
		{"texts", args(cty.ListValEmpty(el)), cty.ListValEmpty(cty.String)},
		{"parse_numbers", args(strs("1,200.50", " 30 ", "4.25")), nums(1200.5, 30, 4.25)},
	}
	lib := Library(ui)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lib[tc.name].Call(tc.args)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if !got.Type().Equals(tc.want.Type()) || !got.Equals(tc.want).True() {
				t.Errorf("%s = %#v, want %#v", tc.name, got, tc.want)
			}
		})
	}

	// The column idiom: sum(parse_numbers(texts(column(orders, "Amount")))).
	v := elem("table")
	for _, step := range []struct {
		name  string
		extra []cty.Value
	}{{"column", args(s("Amount"))}, {"texts", nil}, {"parse_numbers", nil}, {"sum", nil}} {
		var err error
		if v, err = lib[step.name].Call(append(args(v), step.extra...)); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
	}
	if want := f(1234.75); !v.Equals(want).True() {
		t.Errorf("sum of the Amount column = %#v, want %#v", v, want)
	}
}

func TestStructuralErrors(t *testing.T) {
	_, err := Library(ui)["next"].Call(args(elem("result C")))
	if err == nil || err.Error() != "next: no item beside result C" {
		t.Errorf("next past the end: error %v", err)
	}
	_, err = Library(ui)["cell"].Call(args(elem("row0"), s("Year")))
	if err == nil || err.Error() != `cell: no column "Year"` {
		t.Errorf("missing column: error %v", err)
	}

	errorCases := []struct {
		name string
		args []cty.Value
		want string
	}{
		{"column", args(elem("table"), s("Year")), `column: row 0: no column "Year"`},
		{"column", args(elem("list"), s("Title")), "column: list is not a table"},
		{"texts", args(cty.ListVal([]cty.Value{elem("result A"), elem("stale B")})), "texts: item 1: stale B is no longer on the page"},
		{"texts", args(cty.ListVal([]cty.Value{cty.NullVal(el)})), "texts: item 0 of the list is null"},
	}
	for _, tc := range errorCases {
		_, err := Library(ui)[tc.name].Call(tc.args)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s%v: error %v, want %q", tc.name, tc.args, err, tc.want)
		}
	}

	withoutDriver := []struct {
		name string
		args []cty.Value
	}{
		{"next", args(elem("row0"))},
		{"previous", args(elem("row1"))},
		{"rows", args(elem("table"))},
		{"items", args(elem("list"))},
		{"cell", args(elem("row0"), s("Title"))},
		{"column", args(elem("table"), s("Amount"))},
		{"texts", args(cty.ListVal([]cty.Value{elem("result A")}))},
		{"texts", args(cty.ListValEmpty(el))},
		{"texts", args(cty.ListVal([]cty.Value{unknown(el), elem("result A")}))},
	}
	for _, tc := range withoutDriver {
		_, err := Library(nil)[tc.name].Call(tc.args)
		if want := tc.name + ": needs a running driver"; err == nil || err.Error() != want {
			t.Errorf("%s without navigator: error %v, want %q", tc.name, err, want)
		}
	}

	got, err := Library(nil)["same"].Call(args(elem("row0")))
	if err != nil || handles(t, got)[0] != "row0" {
		t.Errorf("same without navigator = %#v, %v", got, err)
	}
}

func TestDescriptions(t *testing.T) {
	for name, fn := range Library(nil) {
		if fn.Description() == "" {
			t.Errorf("%s: no description", name)
		}
		ps := fn.Params()
		if vp := fn.VarParam(); vp != nil {
			ps = append(ps, *vp)
		}
		for i, p := range ps {
			if p.Name == "" || p.Description == "" {
				t.Errorf("%s: parameter %d (%q) lacks a name or description", name, i, p.Name)
			}
		}
	}
}

func TestNames(t *testing.T) {
	names := Names()
	if !slices.IsSorted(names) {
		t.Errorf("Names() is not sorted: %q", names)
	}
	if len(names) != len(Library(nil)) {
		t.Errorf("Names() has %d names, Library %d functions", len(names), len(Library(nil)))
	}
	for _, want := range []string{"replace", "upper", "sum", "rows", "next", "cell", "same", "parse_number",
		"column", "texts", "parse_numbers"} {
		if !slices.Contains(names, want) {
			t.Errorf("Names() lacks %q", want)
		}
	}
}

func TestSignatures(t *testing.T) {
	sigs := Signatures()
	for name, want := range map[string]string{
		"replace":       "replace(str text, substr text, replacement text) text",
		"sum":           "sum(numbers list<number>) number",
		"rows":          "rows(table element) list<element>",
		"cell":          "cell(row element, header text) element",
		"column":        "column(table element, header text) list<element>",
		"texts":         "texts(elements list<element>) list<text>",
		"parse_numbers": "parse_numbers(texts list<text>) list<number>",
		"format":        "format(format text, args ...any) text",
		"first":         "first(list list<any>) any",
		"min":           "min(numbers ...number) number",
		"has":           "has(list list<any>, value any) bool",
	} {
		if got := sigs[name].String(); got != want {
			t.Errorf("signature %s = %q, want %q", name, got, want)
		}
	}
	if testing.Verbose() {
		for _, name := range Names() {
			t.Log(sigs[name])
		}
	}
}
