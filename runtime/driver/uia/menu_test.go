package uia

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// menuItem is a menu item with the given patterns.
func menuItem(ref, name string, patterns ...int) *Node {
	n := node(ctMenuItem, name, "MenuItem")
	n.Ref, n.Patterns = ref, patterns
	if n.Has(PatternExpandCollapse) {
		n.Expanded = stateCollapsed
	}
	return n
}

// menus is the Monster window with two kinds of menu: the snapshot's
// WPF "Font" item, whose submenu appears under it when expanded (Bold,
// Size → Small, Large; a disabled Underline), and a Win32-style menu bar
// "File" whose submenu is a popup Menu window named "File" (Save As...,
// Recent → an unnamed popup with notes.txt, Exit).
func menus(t *testing.T) (*Driver, *fake) {
	root := monsterRoot(t)
	d, f := testDriver(root)
	font := findName(root, ctMenuItem, "Font")
	if font == nil || !font.Has(PatternExpandCollapse) {
		t.Fatal("the MonsterMenu snapshot has no expandable Font item")
	}
	size := menuItem("m.size", "Size", PatternExpandCollapse)
	underline := menuItem("m.underline", "Underline", PatternInvoke)
	underline.Enabled = false
	f.submenus[font.Ref] = []*Node{menuItem("m.bold", "Bold", PatternInvoke), size, underline}
	f.submenus[size.Ref] = []*Node{menuItem("m.small", "Small", PatternInvoke), menuItem("m.large", "Large", PatternInvoke)}

	file := menuItem("m.file", "File", PatternExpandCollapse)
	bar := node(ctMenuBar, "Application", "MenuBar", file)
	bar.Ref = "m.bar"
	root.Children = append(root.Children, bar)
	recent := menuItem("m.recent", "Recent", PatternExpandCollapse)
	popup := node(ctMenu, "File", "#32768", menuItem("m.saveas", "Save As...", PatternInvoke), recent, menuItem("m.exit", "Exit", PatternInvoke))
	popup.Ref = "m.popup"
	f.popupFor[file.Ref] = popup
	recentPopup := node(ctMenu, "", "#32768", menuItem("m.notes", "notes.txt", PatternInvoke))
	recentPopup.Ref = "m.recentpopup"
	f.popupFor[recent.Ref] = recentPopup
	return d, f
}

// findName finds a node by control type and name.
func findName(n *Node, ct int, name string) *Node {
	if n.ControlType == ct && n.Name == name {
		return n
	}
	for _, c := range n.Children {
		if f := findName(c, ct, name); f != nil {
			return f
		}
	}
	return nil
}

// TestMenuPath opens menu paths of both kinds: each item but the last
// expanded, the last invoked, the menus closed by the invoke; a missing
// item fails with the names there were, and the menus opened are closed
// again.
func TestMenuPath(t *testing.T) {
	tests := []struct {
		name    string
		path    []string
		within  string
		stuck   string
		wantLog string
		wantErr string
	}{
		{name: "wpf", path: []string{"Font", "Bold"}, wantLog: "expand Font; invoke Bold"},
		{name: "wpf three levels", path: []string{"Font", "Size", "Large"}, wantLog: "expand Font; expand Size; invoke Large"},
		{name: "win32 popup", path: []string{"File", "Save As..."}, wantLog: "expand File; invoke Save As..."},
		{name: "unnamed popup, access keys and case", path: []string{"&File", "_recent", "NOTES.TXT"}, wantLog: "expand File; expand Recent; invoke notes.txt"},
		{name: "within", path: []string{"File", "Exit"}, within: "Untitled - Notepad", wantLog: "activate 0x20; expand File; invoke Exit"},
		{name: "missing item", path: []string{"Font", "Italic"}, wantLog: "expand Font; collapse Font",
			wantErr: `"Italic" in the menu of "Font"; the items there are "Bold", "Size", "Underline"`},
		{name: "missing deeper", path: []string{"Font", "Size", "Huge"}, wantLog: "expand Font; expand Size; collapse Size; collapse Font",
			wantErr: `"Huge" in the menu of "Font > Size"; the items there are "Small", "Large"`},
		{name: "missing first", path: []string{"Edit", "Copy"}, wantErr: `"Edit" in the window; the items there are "Font", "File"`},
		{name: "last opens a submenu", path: []string{"Font"}, wantErr: `menu item "Font" opens a submenu and cannot be invoked`},
		{name: "leaf in the middle", path: []string{"Font", "Bold", "More"}, wantLog: "expand Font; collapse Font", wantErr: `menu item "Bold" has no submenu to open`},
		{name: "disabled", path: []string{"Font", "Underline"}, wantLog: "expand Font; collapse Font", wantErr: `menu item "Underline" is disabled`},
		{name: "expand ignored", path: []string{"File", "Exit"}, stuck: "m.file", wantLog: "expand File; collapse File", wantErr: `menu item "File" is collapsed after expand`},
		{name: "empty path", path: nil, wantErr: "the path names no menu item"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, f := menus(t)
			if tt.stuck != "" {
				f.stuck[tt.stuck] = true
			}
			_, err := d.Do(context.Background(), driver.Action{Op: action.MenuPath, Path: tt.path, Text: tt.within})
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if strings.Contains(tt.wantErr, "the items there are") && !errors.Is(err, errNoMenu) {
				t.Errorf("%v does not wrap errNoMenu", err)
			}
			if got := strings.Join(f.log, "; "); got != tt.wantLog {
				t.Errorf("log %q, want %q", got, tt.wantLog)
			}
			if len(f.popups) != 0 {
				t.Errorf("%d popup menus left open", len(f.popups))
			}
			if font := findName(f.root, ctMenuItem, "Font"); font.Expanded != stateCollapsed {
				t.Errorf("Font left %s", expandName(font.Expanded))
			}
		})
	}
}

// TestInterpreterPatternActions runs the API-first actions through the
// interpreter: on: and within: reach the driver as Action.On and Text,
// the path as Action.Path.
func TestInterpreterPatternActions(t *testing.T) {
	d, f := menus(t)
	bold := node(ctCheckBox, "Bold", "CheckBox")
	bold.Ref, bold.Patterns, bold.ToggleState = "w.bold", []int{PatternToggle}, 0
	f.root.Children = append(f.root.Children, bold)
	err := runOn(t, d, `task styles "Set the styles" {
  driver uia
  input query: text = "parrots"
  op1 = set_value(textbox(class: "TextBox"), query)
  op2 = toggle(checkbox(name: "Bold"), on: true)
  op3 = toggle(checkbox(name: "Bold"), on: true)
  op4 = toggle(checkbox(name: "Bold"))
  op5 = select_item(listitem(name: "Birds"))
  op6 = menu_path(["Font", "Size", "Small"])
  op7 = invoke(button(name: "<"))
  op8 = switch_window("Untitled - Notepad")
  op9 = menu_path(["File", "Exit"], within: op8)
}
`)
	if err != nil {
		t.Fatalf("run: %v\nlog: %q", err, f.log)
	}
	want := "set-value TextBox; toggle Bold; toggle Bold; select Birds; expand Font; expand Size; invoke Small; invoke <; " +
		"activate 0x20; activate 0x20; expand File; invoke Exit"
	if got := strings.Join(f.log, "; "); got != want {
		t.Errorf("log\n got %q\nwant %q", got, want)
	}
	// A path item that is not there stops the run with the names.
	d, f = menus(t)
	err = runOn(t, d, `task missing "Open a missing menu" {
  driver uia
  op1 = menu_path(["Font", "Italic"])
}
`)
	if err == nil || !strings.Contains(err.Error(), `the items there are "Bold", "Size", "Underline"`) {
		t.Errorf("error %v", err)
	}
}
