package funcs

import (
	"slices"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// kvUI is a key–value table: no headers, a key and a value in each row.
var kvUI = fakeUI{rows: [][]string{
	{"Color:", "Red"},
	{"First  name", "Ada Lovelace"},
	{"Blank", " "},
	{"Alone"},
	{"Year", "1815", "extra"},
	{"Color", "Blue"}, // a second Color: the first one wins
}}

func elems(hs ...string) cty.Value {
	if len(hs) == 0 {
		return cty.ListValEmpty(el)
	}
	out := make([]cty.Value, len(hs))
	for i, h := range hs {
		out[i] = elem(h)
	}
	return cty.ListVal(out)
}

func TestWithTextLookupFindRow(t *testing.T) {
	tests := []struct {
		nav  Navigator
		name string
		args []cty.Value
		want []string // element handles, or the one text lookup gives
	}{
		{ui, "with_text", args(elems("result A", "result B", "result C"), s("B")), []string{"result B"}},
		{ui, "with_text", args(elems("result A", "result B", "result C"), s("result")), []string{"result A", "result B", "result C"}},
		{ui, "with_text", args(elems("result A", "result B"), s("  result   A ")), []string{"result A"}},
		{ui, "with_text", args(elems("result A", "result B"), s("b")), nil}, // case is kept
		{ui, "with_text", args(elems("row0", "row1", "row2"), s("ResNet")), []string{"row1"}},
		{ui, "with_text", args(elems(), s("x")), nil},
		{kvUI, "lookup", args(elem("table"), s("Color")), []string{"Red"}},
		{kvUI, "lookup", args(elem("table"), s("First name")), []string{"Ada Lovelace"}},
		{kvUI, "lookup", args(elem("table"), s("Year")), []string{"1815"}},
		{ui, "find_row", args(elem("table"), s("Title"), s("ResNet")), []string{"row1"}},
		{ui, "find_row", args(elem("table"), s("Title"), s(" BERT ")), []string{"row2"}},
		{ui, "find_row", args(elem("table"), s("Amount"), s("30")), []string{"row1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Library(tc.nav)[tc.name].Call(tc.args)
			if err != nil {
				t.Fatalf("%s%v: %v", tc.name, tc.args, err)
			}
			var h []string
			if got.Type() == cty.String {
				h = []string{got.AsString()}
			} else {
				h = handles(t, got)
			}
			if !slices.Equal(h, tc.want) {
				t.Errorf("%s%v = %q, want %q", tc.name, tc.args, h, tc.want)
			}
		})
	}
}

func TestWithTextLookupFindRowErrors(t *testing.T) {
	tests := []struct {
		nav  Navigator
		name string
		args []cty.Value
		want string
	}{
		{ui, "with_text", args(elems("result A"), s(" ")), "with_text: the text to look for is empty"},
		{ui, "with_text", args(elems("result A", "stale B"), s("A")), "with_text: item 1: stale B is no longer on the page"},
		{ui, "with_text", args(cty.ListVal([]cty.Value{cty.NullVal(el)}), s("A")), "with_text: item 0 of the list is null"},
		{nil, "with_text", args(elems("result A"), s("A")), "with_text: needs a running driver"},
		{kvUI, "lookup", args(elem("table"), s("Colour")), `lookup: no cell reads "Colour" (the rows start with "Color:", "First name", "Blank", "Alone", "Year", "Color")`},
		{kvUI, "lookup", args(elem("table"), s("color")), `lookup: no cell reads "color"`}, // case counts
		{ui, "find_row", args(elem("table"), s("Title"), s("bert")), `find_row: no row has "bert" under "Title"`},
		{kvUI, "lookup", args(elem("table"), s("Blank")), `lookup: the cell after "Blank" (row 2) is empty`},
		{kvUI, "lookup", args(elem("table"), s("Alone")), `lookup: the cell "Alone" is the last of its row (row 3): no value after it`},
		{kvUI, "lookup", args(elem("table"), s("Red")), `lookup: the cell "Red" is the last of its row (row 0)`},
		{kvUI, "lookup", args(elem("empty table"), s("Color")), `lookup: no cell reads "Color" (the rows start with nothing)`},
		{kvUI, "lookup", args(elem("list"), s("Color")), "lookup: list is not a table"},
		{nil, "lookup", args(elem("table"), s("Color")), "lookup: needs a running driver"},
		{ui, "find_row", args(elem("table"), s("Title"), s("GPT")), `find_row: no row has "GPT" under "Title" (3 rows looked at)`},
		{ui, "find_row", args(elem("table"), s("Year"), s("2017")), `find_row: row 0: no column "Year"`},
		{ui, "find_row", args(elem("empty table"), s("Title"), s("BERT")), `find_row: no row has "BERT" under "Title" (0 rows looked at)`},
		{ui, "find_row", args(elem("list"), s("Title"), s("BERT")), "find_row: list is not a table"},
		{nil, "find_row", args(elem("table"), s("Title"), s("BERT")), "find_row: needs a running driver"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Library(tc.nav)[tc.name].Call(tc.args)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s%v = %#v, error %v; want an error containing %q", tc.name, tc.args, got, err, tc.want)
			}
		})
	}
}
