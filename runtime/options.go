package runtime

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// fillOptions sets what the step options (dialog:, prompt:) and upload's
// files ask of the driver.
func fillOptions(a *driver.Action, args map[string]cty.Value) error {
	text := func(name string) (string, error) {
		v, ok := args[name]
		if !ok || v.IsNull() {
			return "", nil
		}
		if !v.Type().Equals(cty.String) || !v.IsKnown() {
			return "", fmt.Errorf("%s must be text", name)
		}
		return v.AsString(), nil
	}
	var err error
	if a.Dialog, err = text("dialog"); err != nil {
		return err
	}
	if a.Prompt, err = text("prompt"); err != nil {
		return err
	}
	if a.Button, err = text("button"); err != nil {
		return err
	}
	if a.Op == action.DownloadLink {
		// download_link's to: is the file or folder to write to.
		if a.Text, err = text("to"); err != nil {
			return err
		}
	}
	if v, ok := args["files"]; ok && !v.IsNull() {
		switch {
		case v.Type().Equals(cty.String):
			a.Files = []string{v.AsString()}
		case v.Type().IsListType() || v.Type().IsTupleType():
			for _, f := range v.AsValueSlice() {
				if !f.Type().Equals(cty.String) || f.IsNull() {
					return fmt.Errorf("files must be text or a list of text")
				}
				a.Files = append(a.Files, f.AsString())
			}
		default:
			return fmt.Errorf("files must be text or a list of text, not %s", v.Type().FriendlyName())
		}
	}
	return patternOptions(a, args) // toggle's on:, menu_path's within: (options_pattern.go)
}

// tableVal is read_table's result, a list<list<text>>: the rows as the
// driver read them (the header rows first).
func tableVal(rows [][]string) cty.Value {
	if len(rows) == 0 {
		return cty.ListValEmpty(cty.List(cty.String))
	}
	out := make([]cty.Value, len(rows))
	for i, r := range rows {
		if len(r) == 0 {
			out[i] = cty.ListValEmpty(cty.String)
			continue
		}
		cells := make([]cty.Value, len(r))
		for j, c := range r {
			cells[j] = cty.StringVal(c)
		}
		out[i] = cty.ListVal(cells)
	}
	return cty.ListVal(out)
}
