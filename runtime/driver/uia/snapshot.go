package uia

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"

	"github.com/cogflow/cogflow/runtime/driver"
)

// The snapshot format of microsoft/axe-windows (the JSON its tests keep
// under src/UnitTestSharedLibrary/Snapshots): one object per element with
// its properties keyed by property id ("30005": {"Id", "Name", "Value",
// "TextValue"}), its patterns as a list of {"Name", "Id", "Properties":
// [{"Name", "Value"}]}, and its "Children". Convenience copies of a few
// properties at the top level ("Name", "ControlTypeId") are read when the
// property table lacks them. Files start with a UTF-8 byte order mark.

// snapElement is one element of a snapshot.
type snapElement struct {
	Name          string                  `json:"Name"`
	ControlTypeID int                     `json:"ControlTypeId"`
	Properties    map[string]snapProperty `json:"Properties"`
	Patterns      []snapPattern           `json:"Patterns"`
	Children      []*snapElement          `json:"Children"`
}

type snapProperty struct {
	ID    int             `json:"Id"`
	Name  string          `json:"Name"`
	Value json.RawMessage `json:"Value"`
}

type snapPattern struct {
	Name       string `json:"Name"`
	ID         int    `json:"Id"`
	Properties []struct {
		Name  string          `json:"Name"`
		Value json.RawMessage `json:"Value"`
	} `json:"Properties"`
}

// maxSnapshotDepth bounds the nesting a snapshot may have; deeper input is
// rejected rather than walked (a UI is never that deep).
const maxSnapshotDepth = 256

// ReadSnapshot decodes an axe-windows snapshot into a Node tree.
func ReadSnapshot(data []byte) (*Node, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var root snapElement
	if err := json.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("uia: snapshot: %w", err)
	}
	return root.node(0)
}

// LoadSnapshot reads an axe-windows snapshot file.
func LoadSnapshot(path string) (*Node, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	n, err := ReadSnapshot(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// node converts a snapshot element and its subtree.
func (s *snapElement) node(depth int) (*Node, error) {
	if depth > maxSnapshotDepth {
		return nil, fmt.Errorf("uia: snapshot: elements nested deeper than %d", maxSnapshotDepth)
	}
	p := props(s.Properties)
	ct := p.int(propControlType, s.ControlTypeID)
	if ct == 0 {
		return nil, fmt.Errorf("uia: snapshot: element %q has no control type", s.Name)
	}
	n := NewNode(ct)
	n.Ref = runtimeIDRef(p.ints(propRuntimeID))
	n.Name = p.str(propName, s.Name)
	n.AutomationID = p.str(propAutomationID, "")
	n.ClassName = p.str(propClassName, "")
	n.LocalizedType = p.str(propLocalizedControlType, "")
	n.FrameworkID = p.str(propFrameworkID, "")
	n.HelpText = p.str(propHelpText, "")
	n.AccessKey = p.str(propAccessKey, "")
	n.Handle = uintptr(p.int(propNativeWindowHandle, 0))
	n.Enabled = p.bool(propIsEnabled, true)
	n.Offscreen = p.bool(propIsOffscreen, false)
	n.Focused = p.bool(propHasKeyboardFocus, false)
	n.Focusable = p.bool(propIsKeyboardFocusable, false)
	n.Password = p.bool(propIsPassword, false)
	n.Dialog = p.bool(propIsDialog, false)
	if r := p.floats(propBoundingRectangle); len(r) == 4 {
		n.Rect = driver.Rect{X: r[0], Y: r[1], W: r[2], H: r[3]}
	}
	for _, pat := range s.Patterns {
		if pat.ID < PatternInvoke {
			return nil, fmt.Errorf("uia: snapshot: element %q: pattern %q has no id", n.Name, pat.Name)
		}
		n.Patterns = append(n.Patterns, pat.ID)
		for _, pp := range pat.Properties {
			n.patternProperty(pat.ID, pp.Name, pp.Value)
		}
	}
	for _, c := range s.Children {
		if c == nil {
			continue
		}
		cn, err := c.node(depth + 1)
		if err != nil {
			return nil, err
		}
		n.Children = append(n.Children, cn)
	}
	return n, nil
}

// patternProperty sets what the driver uses of a pattern's properties.
func (n *Node) patternProperty(pattern int, name string, raw json.RawMessage) {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	num, isNum := v.(float64)
	switch {
	case pattern == PatternValue && name == "Value":
		n.Value, _ = v.(string)
	case pattern == PatternValue && name == "IsReadOnly":
		n.ReadOnly, _ = v.(bool)
	case pattern == PatternToggle && name == "ToggleState" && isNum:
		n.ToggleState = int(num)
	case pattern == PatternSelectionItem && name == "IsSelected":
		n.Selected, _ = v.(bool)
	case pattern == PatternExpandCollapse && name == "ExpandCollapseState" && isNum:
		n.Expanded = int(num)
	case pattern == PatternGridItem && name == "Row" && isNum:
		n.GridRow = int(num)
	case pattern == PatternGridItem && name == "Column" && isNum:
		n.GridColumn = int(num)
	}
}

// props reads typed values out of a snapshot's property table.
type props map[string]snapProperty

func (p props) raw(id int) (json.RawMessage, bool) {
	v, ok := p[strconv.Itoa(id)]
	if !ok || len(v.Value) == 0 || string(v.Value) == "null" {
		return nil, false
	}
	return v.Value, true
}

func (p props) str(id int, def string) string {
	var s string
	if r, ok := p.raw(id); ok && json.Unmarshal(r, &s) == nil {
		return s
	}
	return def
}

func (p props) int(id, def int) int {
	var f float64
	if r, ok := p.raw(id); ok && json.Unmarshal(r, &f) == nil {
		return int(f)
	}
	return def
}

func (p props) bool(id int, def bool) bool {
	var b bool
	if r, ok := p.raw(id); ok && json.Unmarshal(r, &b) == nil {
		return b
	}
	return def
}

func (p props) floats(id int) []float64 {
	var fs []float64
	if r, ok := p.raw(id); ok && json.Unmarshal(r, &fs) == nil {
		return fs
	}
	return nil
}

func (p props) ints(id int) []int64 {
	var is []int64
	if r, ok := p.raw(id); ok && json.Unmarshal(r, &is) == nil {
		return is
	}
	return nil
}
