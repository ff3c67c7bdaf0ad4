package uia

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// UI Automation property ids (UIAutomationClient.h) that the driver asks
// for in its cache request and that the snapshot reader understands.
const (
	propRuntimeID            = 30000
	propBoundingRectangle    = 30001
	propProcessID            = 30002
	propControlType          = 30003
	propLocalizedControlType = 30004
	propName                 = 30005
	propAcceleratorKey       = 30006
	propAccessKey            = 30007
	propHasKeyboardFocus     = 30008
	propIsKeyboardFocusable  = 30009
	propIsEnabled            = 30010
	propAutomationID         = 30011
	propClassName            = 30012
	propHelpText             = 30013
	propLabeledBy            = 30018
	propIsPassword           = 30019
	propNativeWindowHandle   = 30020
	propIsOffscreen          = 30022
	propFrameworkID          = 30024

	// Pattern availability, one boolean property per pattern: asking for
	// these in the cache request tells the supported patterns of a whole
	// subtree in one round trip, without a GetCurrentPattern per element.
	propIsExpandCollapseAvailable = 30028
	propIsGridItemAvailable       = 30029
	propIsGridAvailable           = 30030
	propIsInvokeAvailable         = 30031
	propIsRangeValueAvailable     = 30033
	propIsScrollAvailable         = 30034
	propIsScrollItemAvailable     = 30035
	propIsSelectionItemAvailable  = 30036
	propIsSelectionAvailable      = 30037
	propIsTableAvailable          = 30038
	propIsTableItemAvailable      = 30039
	propIsTextAvailable           = 30040
	propIsToggleAvailable         = 30041
	propIsValueAvailable          = 30043
	propIsWindowAvailable         = 30044

	propValueValue              = 30045
	propValueIsReadOnly         = 30046
	propGridItemRow             = 30064
	propGridItemColumn          = 30065
	propExpandCollapseState     = 30070
	propSelectionItemIsSelected = 30079
	propToggleState             = 30086
	propIsDialog                = 30174
)

// UI Automation pattern ids.
const (
	PatternInvoke         = 10000
	PatternSelection      = 10001
	PatternValue          = 10002
	PatternRangeValue     = 10003
	PatternScroll         = 10004
	PatternExpandCollapse = 10005
	PatternGrid           = 10006
	PatternGridItem       = 10007
	PatternMultipleView   = 10008
	PatternWindow         = 10009
	PatternSelectionItem  = 10010
	PatternDock           = 10011
	PatternTable          = 10012
	PatternTableItem      = 10013
	PatternText           = 10014
	PatternToggle         = 10015
	PatternTransform      = 10016
	PatternScrollItem     = 10017
	PatternLegacy         = 10018
)

// patternAvailability pairs each pattern the driver uses with the
// property that says whether an element supports it.
var patternAvailability = []struct{ pattern, prop int }{
	{PatternInvoke, propIsInvokeAvailable},
	{PatternSelection, propIsSelectionAvailable},
	{PatternValue, propIsValueAvailable},
	{PatternRangeValue, propIsRangeValueAvailable},
	{PatternScroll, propIsScrollAvailable},
	{PatternExpandCollapse, propIsExpandCollapseAvailable},
	{PatternGrid, propIsGridAvailable},
	{PatternGridItem, propIsGridItemAvailable},
	{PatternWindow, propIsWindowAvailable},
	{PatternSelectionItem, propIsSelectionItemAvailable},
	{PatternTable, propIsTableAvailable},
	{PatternTableItem, propIsTableItemAvailable},
	{PatternText, propIsTextAvailable},
	{PatternToggle, propIsToggleAvailable},
	{PatternScrollItem, propIsScrollItemAvailable},
}

// UI Automation control type ids: 50000 (Button) to 50040 (AppBar).
const (
	ctButton       = 50000
	ctCalendar     = 50001
	ctCheckBox     = 50002
	ctComboBox     = 50003
	ctEdit         = 50004
	ctHyperlink    = 50005
	ctImage        = 50006
	ctListItem     = 50007
	ctList         = 50008
	ctMenu         = 50009
	ctMenuBar      = 50010
	ctMenuItem     = 50011
	ctProgressBar  = 50012
	ctRadioButton  = 50013
	ctScrollBar    = 50014
	ctSlider       = 50015
	ctSpinner      = 50016
	ctStatusBar    = 50017
	ctTab          = 50018
	ctTabItem      = 50019
	ctText         = 50020
	ctToolBar      = 50021
	ctToolTip      = 50022
	ctTree         = 50023
	ctTreeItem     = 50024
	ctCustom       = 50025
	ctGroup        = 50026
	ctThumb        = 50027
	ctDataGrid     = 50028
	ctDataItem     = 50029
	ctDocument     = 50030
	ctSplitButton  = 50031
	ctWindow       = 50032
	ctPane         = 50033
	ctHeader       = 50034
	ctHeaderItem   = 50035
	ctTable        = 50036
	ctTitleBar     = 50037
	ctSeparator    = 50038
	ctSemanticZoom = 50039
	ctAppBar       = 50040
)

// controlTypes maps every UIA control type to its programmatic name (used
// in paths when an element has no class name) and to the ARIA-like role of
// the normalized tree. Roles follow the language's element constructors
// (button, textbox, listitem, table, row, …) so that recordings made on
// Windows read like those made in a browser.
var controlTypes = map[int]struct{ name, role string }{
	ctButton:       {"Button", "button"},
	ctCalendar:     {"Calendar", "grid"},
	ctCheckBox:     {"CheckBox", "checkbox"},
	ctComboBox:     {"ComboBox", "combobox"},
	ctEdit:         {"Edit", "textbox"},
	ctHyperlink:    {"Hyperlink", "link"},
	ctImage:        {"Image", "image"},
	ctListItem:     {"ListItem", "listitem"},
	ctList:         {"List", "list"},
	ctMenu:         {"Menu", "menu"},
	ctMenuBar:      {"MenuBar", "menubar"},
	ctMenuItem:     {"MenuItem", "menuitem"},
	ctProgressBar:  {"ProgressBar", "progressbar"},
	ctRadioButton:  {"RadioButton", "radio"},
	ctScrollBar:    {"ScrollBar", "scrollbar"},
	ctSlider:       {"Slider", "slider"},
	ctSpinner:      {"Spinner", "spinbutton"},
	ctStatusBar:    {"StatusBar", "status"},
	ctTab:          {"Tab", "tablist"},
	ctTabItem:      {"TabItem", "tab"},
	ctText:         {"Text", "text"},
	ctToolBar:      {"ToolBar", "toolbar"},
	ctToolTip:      {"ToolTip", "tooltip"},
	ctTree:         {"Tree", "tree"},
	ctTreeItem:     {"TreeItem", "treeitem"},
	ctCustom:       {"Custom", "custom"},
	ctGroup:        {"Group", "group"},
	ctThumb:        {"Thumb", "thumb"},
	ctDataGrid:     {"DataGrid", "table"},
	ctDataItem:     {"DataItem", "row"},
	ctDocument:     {"Document", "document"},
	ctSplitButton:  {"SplitButton", "button"},
	ctWindow:       {"Window", "window"},
	ctPane:         {"Pane", "pane"},
	ctHeader:       {"Header", "rowgroup"},
	ctHeaderItem:   {"HeaderItem", "columnheader"},
	ctTable:        {"Table", "table"},
	ctTitleBar:     {"TitleBar", "titlebar"},
	ctSeparator:    {"Separator", "separator"},
	ctSemanticZoom: {"SemanticZoom", "region"},
	ctAppBar:       {"AppBar", "toolbar"},
}

// ControlTypeName is the programmatic name of a control type id
// ("Button"), or "ControlType(n)" for an id UIA does not define.
func ControlTypeName(id int) string {
	if ct, ok := controlTypes[id]; ok {
		return ct.name
	}
	return fmt.Sprintf("ControlType(%d)", id)
}

// Role is the normalized role of a control type id; "element" for an id
// UIA does not define (a newer Windows may add types).
func Role(id int) string {
	if ct, ok := controlTypes[id]; ok {
		return ct.role
	}
	return "element"
}

// Node is one UI Automation element as the driver reads it: the
// properties of its cache request, the patterns it supports and its
// control-view children. Walks on Windows and the snapshot reader both
// produce Nodes, so everything above them is the same code on every
// platform.
type Node struct {
	// Ref identifies the element while its UI lives: its RuntimeId in hex,
	// dot-separated ("2a.10632.750bd1"), as UIA tools print it.
	Ref string

	ControlType   int
	Name          string
	AutomationID  string
	ClassName     string
	LocalizedType string // LocalizedControlType, e.g. "button"
	FrameworkID   string // WPF, Win32, XAML, …
	HelpText      string
	AccessKey     string
	LabeledBy     string // the Name of the element that labels this one
	Value         string // ValuePattern.Value
	Handle        uintptr

	Rect driver.Rect

	Enabled, Offscreen, Focused, Focusable, Password, ReadOnly, Dialog bool

	// ToggleState is TogglePattern.ToggleState: 0 off, 1 on, 2
	// indeterminate; -1 when the element has no toggle.
	ToggleState int
	// Selected is SelectionItemPattern.IsSelected.
	Selected bool
	// Expanded is ExpandCollapsePattern's state: 0 collapsed, 1 expanded,
	// 2 partially, 3 leaf; -1 when the element does not expand.
	Expanded int
	// GridRow and GridColumn are GridItemPattern's Row and Column, -1
	// when the element is not a grid item.
	GridRow, GridColumn int
	// ColumnHeaders and RowHeaders are the names of TableItemPattern's
	// header items.
	ColumnHeaders, RowHeaders []string

	// Patterns are the ids of the supported control patterns.
	Patterns []int

	Children []*Node
}

// NewNode returns a node with the "absent" values set: no toggle, no
// expansion, not a grid item.
func NewNode(controlType int) *Node {
	return &Node{ControlType: controlType, ToggleState: -1, Expanded: -1, GridRow: -1, GridColumn: -1, Enabled: true}
}

// Has reports whether the node supports a control pattern.
func (n *Node) Has(pattern int) bool {
	for _, p := range n.Patterns {
		if p == pattern {
			return true
		}
	}
	return false
}

// Role is the node's normalized role. A window that is a dialog (IsDialog,
// or the Win32 dialog class #32770) is "dialog": a Save As box is what
// workflows look for inside, whatever its control type.
func (n *Node) Role() string {
	if n.ControlType == ctWindow && (n.Dialog || n.ClassName == "#32770") {
		return "dialog"
	}
	return Role(n.ControlType)
}

// Count is the number of nodes in the subtree.
func (n *Node) Count() int {
	c := 1
	for _, ch := range n.Children {
		c += ch.Count()
	}
	return c
}

// runtimeIDRef formats a RuntimeId as a Ref.
func runtimeIDRef(ids []int64) string {
	parts := make([]string, len(ids))
	for i, v := range ids {
		parts[i] = fmt.Sprintf("%x", uint32(v))
	}
	return strings.Join(parts, ".")
}

// nodeOf makes a Node of UIA property values by property id, as the
// Windows layer reads them from a cache request: strings, booleans,
// int32s, float64s, and slices for arrays (RuntimeId, BoundingRectangle).
// Values of unexpected types are ignored, like absent ones.
func nodeOf(v map[int]any) *Node {
	str := func(id int) string { s, _ := v[id].(string); return s }
	boolean := func(id int, def bool) bool {
		if b, ok := v[id].(bool); ok {
			return b
		}
		return def
	}
	integer := func(id, def int) int {
		switch x := v[id].(type) {
		case int32:
			return int(x)
		case float64:
			return int(x)
		}
		return def
	}
	n := NewNode(integer(propControlType, 0))
	n.Name, n.AutomationID, n.ClassName = str(propName), str(propAutomationID), str(propClassName)
	n.LocalizedType, n.FrameworkID, n.HelpText = str(propLocalizedControlType), str(propFrameworkID), str(propHelpText)
	n.AccessKey, n.Value, n.LabeledBy = str(propAccessKey), str(propValueValue), str(propLabeledBy)
	n.Handle = uintptr(integer(propNativeWindowHandle, 0))
	n.Enabled, n.Offscreen = boolean(propIsEnabled, true), boolean(propIsOffscreen, false)
	n.Focused, n.Focusable = boolean(propHasKeyboardFocus, false), boolean(propIsKeyboardFocusable, false)
	n.Password, n.ReadOnly = boolean(propIsPassword, false), boolean(propValueIsReadOnly, false)
	n.Dialog, n.Selected = boolean(propIsDialog, false), boolean(propSelectionItemIsSelected, false)
	n.ToggleState = integer(propToggleState, -1)
	n.Expanded = integer(propExpandCollapseState, -1)
	n.GridRow, n.GridColumn = integer(propGridItemRow, -1), integer(propGridItemColumn, -1)
	if r := numbers(v[propBoundingRectangle]); len(r) == 4 {
		n.Rect = driver.Rect{X: r[0], Y: r[1], W: r[2], H: r[3]}
	}
	if id := numbers(v[propRuntimeID]); len(id) > 0 {
		ints := make([]int64, len(id))
		for i, f := range id {
			ints[i] = int64(f)
		}
		n.Ref = runtimeIDRef(ints)
	}
	for _, pa := range patternAvailability {
		if boolean(pa.prop, false) {
			n.Patterns = append(n.Patterns, pa.pattern)
		}
	}
	return n
}

// numbers reads an array value of numbers.
func numbers(v any) []float64 {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	out := make([]float64, 0, len(arr))
	for _, x := range arr {
		switch f := x.(type) {
		case float64:
			out = append(out, f)
		case int32:
			out = append(out, float64(f))
		default:
			return nil
		}
	}
	return out
}
