package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
)

// CheckInput says whether raw, the text given for a declared input (with
// --input, from an environment variable, a file or a CSV cell), is a value
// of the input's type. It binds nothing: the command line calls it for
// every input before a driver starts, so that a bad value is reported as a
// usage error rather than as a failed run after the browser started. The
// error does not name the input; the caller knows where the value came from.
func CheckInput(decl *ast.InputDecl, raw string) error {
	_, err := parseInput(raw, typeOf(decl.Type))
	return err
}

// jsonItems reads a list input written as a JSON array: of strings
// (["a", "b"]), and also of numbers or booleans ([1, 2.5], [true]), each
// item as it is written, for parseInput to read as the list's item type.
// The error says raw is no such array (it is then comma-separated).
func jsonItems(raw string) ([]string, error) {
	var arr []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &arr); err != nil {
		return nil, err
	}
	items := make([]string, len(arr))
	for i, item := range arr {
		var s string
		switch err := json.Unmarshal(item, &s); {
		case err == nil:
			items[i] = s
		case len(item) > 0 && (item[0] == '-' || '0' <= item[0] && item[0] <= '9' || item[0] == 't' || item[0] == 'f'):
			items[i] = string(bytes.TrimSpace(item)) // a number or a boolean, as written
		default:
			return nil, fmt.Errorf("item %d is neither a string, a number nor true or false", i+1)
		}
	}
	return items, nil
}
