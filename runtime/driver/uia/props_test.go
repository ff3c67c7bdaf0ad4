package uia

import (
	"reflect"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestNodeOf checks the conversion the Windows layer applies to cached
// property values (as go-ole gives VARIANTs: int32, float64, string, bool,
// []any for SAFEARRAYs): the values of MonsterButton's root, given as the
// cache request would, make the node the snapshot reader makes.
func TestNodeOf(t *testing.T) {
	v := map[int]any{
		propRuntimeID:            []any{int32(7), int32(10632), int32(7670737)},
		propBoundingRectangle:    []any{1213.0, 383.0, 45.0, 30.0},
		propControlType:          int32(50000),
		propLocalizedControlType: "button",
		propName:                 "<",
		propHelpText:             "<",
		propHasKeyboardFocus:     false,
		propIsKeyboardFocusable:  true,
		propIsEnabled:            true,
		propClassName:            "Button",
		propIsPassword:           false,
		propNativeWindowHandle:   int32(0),
		propIsOffscreen:          false,
		propFrameworkID:          "WPF",
		propIsInvokeAvailable:    true,
		propIsValueAvailable:     false,
		propToggleState:          nil, // "not supported" reads as absent
	}
	got := nodeOf(v)
	want := load(t, "MonsterButton")
	want.Children = nil
	// The snapshot lists SynchronizedInput too, a pattern the driver does
	// not ask about.
	want.Patterns = []int{PatternInvoke}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("nodeOf\n got %+v\nwant %+v", got, want)
	}

	odd := nodeOf(map[int]any{
		propControlType:       "Button",                  // wrong type: absent
		propBoundingRectangle: []any{1.0, "x", 3.0, 4.0}, // not all numbers
		propRuntimeID:         []any{},
		propGridItemRow:       int32(3),
		propGridItemColumn:    2.0,
		propToggleState:       int32(1),
		propLabeledBy:         "Search:",
	})
	if odd.ControlType != 0 || odd.Rect != (driver.Rect{}) || odd.Ref != "" || odd.GridRow != 3 || odd.GridColumn != 2 || odd.ToggleState != 1 || !odd.Enabled || odd.LabeledBy != "Search:" {
		t.Errorf("odd values: %+v", odd)
	}
}
