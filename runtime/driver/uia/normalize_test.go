package uia

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// snapshots are the five axe-windows snapshots in testdata (see
// testdata/README.md), real UIA trees of the WPF "Monster" test app.
var snapshots = []string{"MonsterButton", "MonsterEdit", "MonsterListView", "MonsterMenu", "MonsterUserControl"}

func load(t *testing.T, name string) *Node {
	t.Helper()
	n, err := LoadSnapshot(filepath.Join("testdata", name+".snapshot"))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// byPath finds an element by its path.
func byPath(els []*driver.Element, path string) *driver.Element {
	for _, e := range els {
		if e.Path == path {
			return e
		}
	}
	return nil
}

// The expected numbers were read off the snapshot JSON with a Python
// one-off (control types, names, class names, offscreen and bounds per
// element), not from this package's output: the raw trees have 2, 3, 7,
// 3 and 1 elements; the two scroll bars of MonsterEdit are offscreen,
// zero-sized and unnamed, so the normalized tree drops them.
func TestNormalizeSnapshots(t *testing.T) {
	type want struct {
		path, role, name, text, id, class, ref string
	}
	tests := []struct {
		file  string
		raw   int
		roles map[string]int
		els   []want
	}{
		{"MonsterButton", 2, map[string]int{"button": 1, "text": 1}, []want{
			{path: "Button", role: "button", name: "<", text: "<", class: "Button", ref: "7.2988.750bd1"},
			{path: "Button/TextBlock", role: "text", name: "<", text: "<", class: "TextBlock"},
		}},
		{"MonsterEdit", 3, map[string]int{"textbox": 1}, []want{
			{path: "TextBox", role: "textbox", class: "TextBox", ref: "7.3658.14ea886"},
		}},
		{"MonsterListView", 7, map[string]int{"list": 1, "listitem": 3, "text": 3}, []want{
			{path: "ListView", role: "list", class: "ListView", text: "Spaniels Birds Trees"},
			{path: "ListView/ListBoxItem[1]", role: "listitem", name: "Spaniels", text: "Spaniels", class: "ListBoxItem"},
			{path: "ListView/ListBoxItem[2]", role: "listitem", name: "Birds", text: "Birds", class: "ListBoxItem"},
			{path: "ListView/ListBoxItem[3]/TextBlock", role: "text", name: "Trees", text: "Trees", class: "TextBlock"},
		}},
		{"MonsterMenu", 3, map[string]int{"menu": 1, "menuitem": 1, "text": 1}, []want{
			{path: "Menu", role: "menu", class: "Menu", text: "_Font"},
			{path: "Menu/MenuItem", role: "menuitem", name: "Font", text: "_Font", class: "MenuItem"},
			{path: "Menu/MenuItem/TextBlock", role: "text", name: "_Font", text: "_Font"},
		}},
		{"MonsterUserControl", 1, map[string]int{"text": 1}, []want{
			{path: "TextBlock", role: "text", name: "$$$!", text: "$$$!", class: "TextBlock"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			root := load(t, tt.file)
			if got := root.Count(); got != tt.raw {
				t.Errorf("raw tree has %d elements, want %d", got, tt.raw)
			}
			els := Normalize(root)
			roles := map[string]int{}
			total := 0
			for i, e := range els {
				roles[e.Role]++
				total++
				if e.Parent >= i {
					t.Errorf("element %d's parent %d does not come before it", i, e.Parent)
				}
			}
			for r, n := range tt.roles {
				if roles[r] != n {
					t.Errorf("%d elements of role %s, want %d (all: %v)", roles[r], r, n, roles)
				}
				total -= n
			}
			if total != 0 {
				t.Errorf("roles %v, want exactly %v", roles, tt.roles)
			}
			for _, w := range tt.els {
				e := byPath(els, w.path)
				if e == nil {
					t.Errorf("no element at %s", w.path)
					continue
				}
				got := want{e.Path, e.Role, e.Name, e.Text, e.ID, e.Class, e.Ref}
				if w.ref == "" {
					got.ref = ""
				}
				if w.class == "" {
					got.class = ""
				}
				if got != w {
					t.Errorf("element at %s = %+v, want %+v", w.path, got, w)
				}
			}
		})
	}
}

// TestSnapshotIDs checks the AutomationIds of the snapshots: the only ones
// (a Python scan of property 30011 over the five files) are MonsterEdit's
// two scroll bars, which the reader keeps and normalization prunes.
func TestSnapshotIDs(t *testing.T) {
	var ids []string
	for _, s := range snapshots {
		var walk func(n *Node)
		walk = func(n *Node) {
			if n.AutomationID != "" {
				ids = append(ids, s+":"+n.AutomationID+":"+ControlTypeName(n.ControlType))
			}
			for _, c := range n.Children {
				walk(c)
			}
		}
		walk(load(t, s))
		for _, e := range Normalize(load(t, s)) {
			if e.ID != "" {
				t.Errorf("%s: %s kept an id %q", s, e.Path, e.ID)
			}
		}
	}
	want := "MonsterEdit:VerticalScrollBar:ScrollBar MonsterEdit:HorizontalScrollBar:ScrollBar"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("ids %q, want %q", got, want)
	}
}

// TestNormalizeStates checks the states and the list membership read
// from the snapshots' properties and patterns.
func TestNormalizeStates(t *testing.T) {
	edit := Normalize(load(t, "MonsterEdit"))[0]
	if !edit.Editable || !edit.Focus || !edit.Enabled || !edit.Visible || edit.Value != "" {
		t.Errorf("text box: %+v", edit)
	}
	if b := edit.Bounds; b != (driver.Rect{X: 246, Y: 778, W: 300, H: 26}) {
		t.Errorf("text box bounds %+v", b)
	}
	button := Normalize(load(t, "MonsterButton"))[0]
	if button.Description != "<" || button.Editable || button.Focus || button.List != nil {
		t.Errorf("button: %+v", button)
	}

	list := Normalize(load(t, "MonsterListView"))
	var items []string
	for _, e := range list {
		if e.List == nil {
			continue
		}
		if e.List.Container != list[0].Ref || e.List.Size != 3 || e.List.Index != len(items) {
			t.Errorf("%s: list %+v, want container %s, index %d of 3", e.Path, e.List, list[0].Ref, len(items))
		}
		items = append(items, e.Name)
	}
	if strings.Join(items, ",") != "Spaniels,Birds,Trees" {
		t.Errorf("list items %v", items)
	}
	if list[1].Checked {
		t.Error("an unselected item is checked")
	}

	menu := Normalize(load(t, "MonsterMenu"))
	if item := menu[1]; item.List == nil || item.List.Container != menu[0].Ref || item.List.Size != 1 {
		t.Errorf("menu item not an item of its menu: %+v", item.List)
	}
	if menu[2].List != nil {
		t.Error("the text of a menu item is not itself an item")
	}
}

// TestRoles checks that every UIA control type has a role of its own.
func TestRoles(t *testing.T) {
	for id := ctButton; id <= ctAppBar; id++ {
		if r := Role(id); r == "element" || r == "" {
			t.Errorf("control type %d has no role", id)
		}
		if strings.HasPrefix(ControlTypeName(id), "ControlType(") {
			t.Errorf("control type %d has no name", id)
		}
	}
	if len(controlTypes) != 41 {
		t.Errorf("%d control types, want 41", len(controlTypes))
	}
	if Role(50041) != "element" || ControlTypeName(49999) != "ControlType(49999)" {
		t.Error("an unknown control type is not generic")
	}
	dlg := NewNode(ctWindow)
	dlg.ClassName = "#32770"
	if dlg.Role() != "dialog" {
		t.Errorf("a #32770 window is %q", dlg.Role())
	}
}

// node builds a test node.
func node(ct int, name, class string, children ...*Node) *Node {
	n := NewNode(ct)
	n.Name, n.ClassName, n.Children = name, class, children
	n.Rect = driver.Rect{X: 10, Y: 10, W: 100, H: 20}
	return n
}

// TestPrune checks AutoTask-style pruning: unnamed layout panes are
// flattened (their children move up), empty ones dropped, named ones and
// list containers kept.
func TestPrune(t *testing.T) {
	leaf := node(ctButton, "OK", "Button")
	inner := node(ctPane, "", "Border", leaf)
	empty := node(ctGroup, "", "Grid")
	named := node(ctGroup, "Options", "GroupBox", node(ctCheckBox, "Bold", "CheckBox"))
	hidden := node(ctScrollBar, "", "ScrollBar")
	hidden.Offscreen, hidden.Rect = true, driver.Rect{}
	root := node(ctWindow, "Dialog", "Window", inner, empty, named, hidden)
	els := Normalize(root)
	var paths []string
	for _, e := range els {
		paths = append(paths, e.Path)
	}
	want := "Window Window/Button Window/GroupBox Window/GroupBox/CheckBox"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("paths %q, want %q", got, want)
	}
	if els[1].Parent != 0 || els[3].Parent != 2 {
		t.Errorf("parents %d %d, want 0 2", els[1].Parent, els[3].Parent)
	}
}

// TestIterativeList checks the Deepest Iterative Ancestor of a generic
// container: three same-typed children make a list, two do not.
func TestIterativeList(t *testing.T) {
	card := func(name string) *Node { return node(ctGroup, name, "Card", node(ctText, name, "TextBlock")) }
	three := node(ctPane, "Results", "ItemsControl", card("a"), card("b"), card("c"), node(ctText, "3 results", "TextBlock"))
	two := node(ctPane, "Pair", "StackPanel", card("x"), card("y"))
	els := Normalize(node(ctWindow, "W", "Window", three, two))
	for _, e := range els {
		switch e.Name {
		case "a", "b", "c":
			if e.Role == "group" && (e.List == nil || e.List.Size != 3) {
				t.Errorf("%s: list %+v, want an item of 3", e.Path, e.List)
			}
		case "x", "y", "3 results":
			if e.List != nil {
				t.Errorf("%s is a list item: %+v", e.Path, e.List)
			}
		}
	}
}
