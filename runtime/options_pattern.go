package runtime

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// patternOptions sets what toggle's on: and menu_path's within: ask of
// the driver: the wanted toggle state, and the window whose menu to open
// (by title, as switch_window names one).
func patternOptions(a *driver.Action, args map[string]cty.Value) error {
	if v, ok := args["on"]; ok && !v.IsNull() && a.Op == action.Toggle {
		if !v.IsKnown() || !v.Type().Equals(cty.Bool) {
			return fmt.Errorf("on: must be true or false")
		}
		on := v.True()
		a.On = &on
	}
	if v, ok := args["within"]; ok && !v.IsNull() && a.Op == action.MenuPath {
		w, ok := asWindow(v)
		if !ok {
			return fmt.Errorf("within: must be a window")
		}
		a.Text = w.Title
	}
	return nil
}

// fillPath sets menu_path's item names from its list of texts.
func fillPath(a *driver.Action, v cty.Value) error {
	if !v.IsKnown() || !(v.Type().IsListType() || v.Type().IsTupleType()) {
		return fmt.Errorf("path must be a list of text")
	}
	for _, item := range v.AsValueSlice() {
		if item.IsNull() || !item.IsKnown() || !item.Type().Equals(cty.String) {
			return fmt.Errorf("path must be a list of text")
		}
		a.Path = append(a.Path, item.AsString())
	}
	return nil
}
