package runtime

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// fillAndroidArgs sets the named-only arguments of intent (package:,
// extras:) and content_query (columns:, where:) on the driver action; the
// positional ones (action, data, uri) are fill's.
func fillAndroidArgs(a *driver.Action, args map[string]cty.Value) error {
	if a.Op != action.Intent && a.Op != action.ContentQuery {
		return nil
	}
	var err error
	if a.Package, err = textArg(args, "package"); err != nil {
		return err
	}
	if a.Where, err = textArg(args, "where"); err != nil {
		return err
	}
	if a.Extras, err = textsArg(args, "extras"); err != nil {
		return err
	}
	a.Columns, err = textsArg(args, "columns")
	return err
}

// textArg is a named text argument, "" when absent.
func textArg(args map[string]cty.Value, name string) (string, error) {
	v, ok := args[name]
	if !ok || v.IsNull() {
		return "", nil
	}
	if !v.IsKnown() || !v.Type().Equals(cty.String) {
		return "", fmt.Errorf("%s must be text", name)
	}
	return v.AsString(), nil
}

// textsArg is a named list-of-text argument, nil when absent. A null or
// unknown item is an error: dropping it would change the command.
func textsArg(args map[string]cty.Value, name string) ([]string, error) {
	v, ok := args[name]
	if !ok || v.IsNull() {
		return nil, nil
	}
	if !v.IsKnown() || !(v.Type().IsListType() || v.Type().IsTupleType()) {
		return nil, fmt.Errorf("%s must be a list of text", name)
	}
	var out []string
	for i, item := range v.AsValueSlice() {
		if item.IsNull() || !item.IsKnown() || !item.Type().Equals(cty.String) {
			return nil, fmt.Errorf("%s[%d] must be text", name, i)
		}
		out = append(out, item.AsString())
	}
	return out, nil
}

// holdsSecret reports whether any of intent's or content_query's texts
// holds a secret, so the driver keeps the whole command out of what it
// reports.
func holdsSecret(a driver.Action, holds func(string) bool) bool {
	if holds(a.Text) || holds(a.Data) || holds(a.Package) || holds(a.Where) {
		return true
	}
	for _, s := range append(append([]string{}, a.Extras...), a.Columns...) {
		if holds(s) {
			return true
		}
	}
	return false
}

// rowsVal is content_query's value: its rows as a list of text.
func rowsVal(rows []string) cty.Value {
	if len(rows) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vs := make([]cty.Value, len(rows))
	for i, r := range rows {
		vs[i] = cty.StringVal(r)
	}
	return cty.ListVal(vs)
}
