package funcs

import (
	"errors"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/cogflow/cogflow/lang/types"
)

// The structural functions that choose by text: the elements that show a
// text, a value beside its key, the row that holds a value. They are built
// on the navigator's rows, cells and texts, so every driver that answers
// rows() and .cell() answers them too.

// normalText is text as the comparisons here see it: runs of white space
// as one space, none at the ends. Pages break and indent text freely.
func normalText(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// sameText reports whether a cell's text is the text a workflow names,
// ignoring only white space. Case counts: a program compiled from one
// demonstration was checked against the exact text, and a looser match
// could pick an earlier row the demonstration never considered.
func sameText(cell, want string) bool {
	return normalText(cell) == normalText(want)
}

// elementHandles unwraps a list<element> argument.
func elementHandles(list cty.Value, argIdx int) ([]any, error) {
	var out []any
	for it := list.ElementIterator(); it.Next(); {
		k, v := it.Element()
		i, _ := k.AsBigFloat().Int64()
		if v.IsNull() {
			return nil, function.NewArgErrorf(argIdx, "item %d of the list is null", i)
		}
		h, err := handle(v, argIdx)
		if err != nil {
			return nil, function.NewArgErrorf(argIdx, "item %d of the list holds no element", i)
		}
		out = append(out, h)
	}
	return out, nil
}

// lookupFunc reads a key–value table, the kind with no header row where
// each row says "Color | Red".
func lookupFunc(nav Navigator) function.Function {
	return build("lookup", function.Spec{
		Description: `Returns the text of the cell just after the first cell whose text is the key, in the same row: ` +
			`in a table with a row "Color | Red", lookup(table(), "Color") is "Red". The key is compared ignoring ` +
			`white space and a trailing colon ("Color:"). An absent key, a key in the last cell of its row, or an empty cell is an error.`,
		Params: []function.Parameter{
			param("table", types.ElementCapsule, "A table, or any element whose rows rows() lists."),
			param("key", cty.String, "The text of the key cell."),
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			table, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			return lookup(nav, table, args[1].AsString())
		},
	})
}

// lookup scans the rows top to bottom and each row's cells left to right.
func lookup(nav Navigator, table any, key string) (cty.Value, error) {
	rows, err := nav.Rows(table)
	if err != nil {
		return cty.NilVal, err
	}
	var keys []string // the first cells, to show what the table holds
	for r, row := range rows {
		cells, err := nav.Cells(row)
		if err != nil {
			return cty.NilVal, fmt.Errorf("row %d: %w", r, err)
		}
		for c, cell := range cells {
			text, err := nav.Text(cell)
			if err != nil {
				return cty.NilVal, fmt.Errorf("row %d, cell %d: %w", r, c, err)
			}
			if c == 0 {
				keys = append(keys, quoteShort(normalText(text)))
			}
			if !sameText(strings.TrimSuffix(strings.TrimSpace(text), ":"), key) {
				continue
			}
			if c+1 == len(cells) {
				return cty.NilVal, function.NewArgErrorf(1, "the cell %s is the last of its row (row %d): no value after it", quoteShort(key), r)
			}
			value, err := nav.Text(cells[c+1])
			if err != nil {
				return cty.NilVal, fmt.Errorf("row %d, cell %d: %w", r, c+1, err)
			}
			if strings.TrimSpace(value) == "" {
				return cty.NilVal, function.NewArgErrorf(1, "the cell after %s (row %d) is empty", quoteShort(key), r)
			}
			return cty.StringVal(value), nil
		}
	}
	return cty.NilVal, function.NewArgErrorf(1, "no cell reads %s (the rows start with %s)", quoteShort(key), firstFew(keys))
}

// firstFew lists a few texts for an error message.
func firstFew(texts []string) string {
	const limit = 8
	if len(texts) == 0 {
		return "nothing"
	}
	if len(texts) > limit {
		return strings.Join(texts[:limit], ", ") + fmt.Sprintf(" and %d more", len(texts)-limit)
	}
	return strings.Join(texts, ", ")
}

// findRowFunc is the choice of a row by a value the screen named: the row
// whose Name cell is the name in the instruction.
func findRowFunc(nav Navigator) function.Function {
	return build("find_row", function.Spec{
		Description: `Returns the first row of the table whose cell under the header has the text value (ignoring ` +
			`white space): find_row(table(name: "Orders"), "Customer", "Ada Lovelace"). No such row is an error naming the header and the value.`,
		Params: []function.Parameter{
			param("table", types.ElementCapsule, "The table element."),
			param("header", cty.String, "The column's header text."),
			param("value", cty.String, "The text the cell must have."),
		},
		Type: function.StaticReturnType(types.ElementCapsule),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if nav == nil {
				return cty.NilVal, errNoDriver
			}
			table, err := handle(args[0], 0)
			if err != nil {
				return cty.NilVal, err
			}
			header, value := args[1].AsString(), args[2].AsString()
			rows, err := nav.Rows(table)
			if err != nil {
				return cty.NilVal, err
			}
			for i, row := range rows {
				if row == nil {
					return cty.NilVal, errors.New("the driver returned an empty row")
				}
				c, err := nav.Cell(row, header)
				if err != nil {
					return cty.NilVal, fmt.Errorf("row %d: %w", i, err)
				}
				text, err := nav.Text(c)
				if err != nil {
					return cty.NilVal, fmt.Errorf("row %d: %w", i, err)
				}
				if sameText(text, value) {
					return elementVal(row), nil
				}
			}
			return cty.NilVal, function.NewArgErrorf(2, "no row has %s under %s (%d %s looked at)",
				quoteShort(value), quoteShort(header), len(rows), plural(len(rows), "row"))
		},
	})
}
