package uia

import (
	"strings"
	"testing"
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
