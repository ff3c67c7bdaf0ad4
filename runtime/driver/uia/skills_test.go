package uia

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestLibrarySkills runs every skill of stdlib/skills/uia.cog from a task,
// as a workflow calls them without declaring them, over the Monster
// window: each is the one pattern call (or menu path) it documents.
func TestLibrarySkills(t *testing.T) {
	d, f := menus(t)
	widgets(f.root)
	f.submenus["w.size"] = []*Node{
		{Ref: "w.size.10", ControlType: ctListItem, Name: "10", Patterns: []int{PatternSelectionItem}, Enabled: true, ToggleState: -1, Expanded: -1},
		{Ref: "w.size.12", ControlType: ctListItem, Name: "12", Patterns: []int{PatternSelectionItem}, Enabled: true, ToggleState: -1, Expanded: -1},
	}
	err := runOn(t, d, `task styles "Use every uia library skill" {
  driver uia
  op1 = set_text(textbox(class: "TextBox"), "parrots")
  op2 = press(button(name: "<"))
  op3 = check(checkbox(name: "Bold"))
  op4 = check(checkbox(name: "Bold"))
  op5 = uncheck(checkbox(name: "Bold"))
  op6 = pick(listitem(name: "Birds"))
  op7 = choose_option(combobox(id: "size"), "12")
  op8 = expand_node(menuitem(name: "Font"))
  op9 = collapse_node(menuitem(name: "Font"))
  op10 = open_menu(["Font", "Size", "Small"])
  op11 = open_menu_in("Untitled", ["File", "Save As..."])
}
`)
	if err != nil {
		t.Fatalf("run: %v\nlog %q", err, f.log)
	}
	want := []string{"set-value TextBox", "invoke <", "toggle Bold", "toggle Bold", "select Birds",
		"expand Size", "select 12", "collapse Size", "expand Font", "collapse Font",
		"expand Font", "expand Size", "invoke Small", "activate 0x20", "activate 0x20", "expand File", "invoke Save As..."}
	if got := strings.Join(f.log, "; "); got != strings.Join(want, "; ") {
		t.Errorf("log\n got %q\nwant %q", got, strings.Join(want, "; "))
	}
}

// TestChooseOptionInItsBox: choose_option selects the option of the
// combo box it names, not a list item of the same name elsewhere in the
// window, which select_item would confirm selected just as well.
func TestChooseOptionInItsBox(t *testing.T) {
	d, f := menus(t)
	widgets(f.root)
	other := &Node{Ref: "w.other.12", ControlType: ctListItem, Name: "12", Patterns: []int{PatternSelectionItem}, Enabled: true,
		ToggleState: -1, Expanded: -1, Rect: driver.Rect{X: 10, Y: 1100, W: 40, H: 20}}
	list := node(ctList, "Zoom", "ListBox", other)
	list.Ref, list.Rect = "w.zoom", driver.Rect{X: 10, Y: 1100, W: 80, H: 60}
	f.root.Children = append([]*Node{list}, f.root.Children...)
	f.submenus["w.size"] = []*Node{
		{Ref: "w.size.10", ControlType: ctListItem, Name: "10", Patterns: []int{PatternSelectionItem}, Enabled: true, ToggleState: -1, Expanded: -1,
			Rect: driver.Rect{X: 10, Y: 950, W: 40, H: 20}},
		{Ref: "w.size.12", ControlType: ctListItem, Name: "12", Patterns: []int{PatternSelectionItem}, Enabled: true, ToggleState: -1, Expanded: -1,
			Rect: driver.Rect{X: 10, Y: 970, W: 40, H: 20}},
	}
	err := runOn(t, d, `task size "Choose a size" {
  driver uia
  op1 = choose_option(combobox(id: "size"), "12")
}
`)
	if other.Selected {
		t.Errorf("the other list's item 12 was selected (run error %v)", err)
	}
	if err != nil {
		t.Fatalf("run: %v\nlog %q", err, f.log)
	}
	if got := strings.Join(f.log, "; "); got != "expand Size; select 12; collapse Size" {
		t.Errorf("log %q", got)
	}
	if f.find("w.size.12") != nil {
		t.Error("the combo box was left open")
	}
}
