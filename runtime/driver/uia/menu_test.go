package uia

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/compiler"
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
	at := func(n *Node, x, y float64) *Node { n.Rect = driver.Rect{X: x, Y: y, W: 100, H: 20}; return n }
	size := at(menuItem("m.size", "Size", PatternExpandCollapse), 1500, 1020)
	underline := at(menuItem("m.underline", "Underline", PatternInvoke), 1500, 1040)
	underline.Enabled = false
	f.submenus[font.Ref] = []*Node{at(menuItem("m.bold", "Bold", PatternInvoke), 1500, 1000), size, underline}
	f.submenus[size.Ref] = []*Node{at(menuItem("m.small", "Small", PatternInvoke), 1600, 1020), at(menuItem("m.large", "Large", PatternInvoke), 1600, 1040)}

	file := at(menuItem("m.file", "File", PatternExpandCollapse), 2000, 900)
	bar := node(ctMenuBar, "Application", "MenuBar", file)
	bar.Ref, bar.Rect = "m.bar", driver.Rect{X: 2000, Y: 900, W: 200, H: 20}
	root.Children = append(root.Children, bar)
	recent := at(menuItem("m.recent", "Recent", PatternExpandCollapse), 2000, 940)
	popup := node(ctMenu, "File", "#32768", at(menuItem("m.saveas", "Save As...", PatternInvoke), 2000, 920), recent,
		at(menuItem("m.exit", "Exit", PatternInvoke), 2000, 960))
	popup.Ref, popup.Rect = "m.popup", driver.Rect{X: 2000, Y: 920, W: 100, H: 60}
	f.popupFor[file.Ref] = popup
	recentPopup := node(ctMenu, "", "#32768", at(menuItem("m.notes", "notes.txt", PatternInvoke), 2100, 940))
	recentPopup.Ref, recentPopup.Rect = "m.recentpopup", driver.Rect{X: 2100, Y: 940, W: 100, H: 20}
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
		setup   func(t *testing.T, f *fake) // the menus as they are before the path
		strays  int                         // popups open before the path and left open
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
		{name: "two top items of the name", path: []string{"File", "Exit"}, setup: func(t *testing.T, f *fake) {
			bar := node(ctMenuBar, "Tools", "MenuBar", menuItem("m.file2", "File", PatternExpandCollapse))
			f.root.Children = append(f.root.Children, bar)
		}, wantErr: `2 menu items are named "File" in the window`},
		{name: "two submenu items of the name", path: []string{"Font", "Bold"}, setup: func(t *testing.T, f *fake) {
			font := findName(f.root, ctMenuItem, "Font")
			f.submenus[font.Ref] = append(f.submenus[font.Ref], menuItem("m.bold2", "Bold", PatternInvoke))
		}, wantLog: "expand Font; collapse Font", wantErr: `2 menu items are named "Bold" in the menu of "Font"`},
		{name: "an open submenu's items are not top items", path: []string{"Bold"}, setup: func(t *testing.T, f *fake) {
			f.expand(findName(f.root, ctMenuItem, "Font"))
		}, wantErr: `"Bold" in the window; the items there are "Font", "File"`},
		{name: "the item's own submenu before a popup named like it", path: []string{"Font", "Bold"}, setup: func(t *testing.T, f *fake) {
			f.popups = append(f.popups, node(ctMenu, "Font", "#32768", menuItem("m.straybold", "Bold", PatternInvoke)))
		}, strays: 1, wantLog: "expand Font; invoke Bold"},
		{name: "a popup open before is not the submenu", path: []string{"File", "Save As..."}, setup: func(t *testing.T, f *fake) {
			f.popups = append(f.popups, node(ctMenu, "Tools", "#32768", menuItem("m.straysave", "Save As...", PatternInvoke)))
		}, strays: 1, wantLog: "expand File; invoke Save As..."},
		{name: "win32 item already expanded", path: []string{"File", "Exit"}, setup: func(t *testing.T, f *fake) {
			f.expand(findName(f.root, ctMenuItem, "File"))
		}, wantLog: "invoke Exit"},
		{name: "disabled submenu item", path: []string{"Font", "Size", "Large"}, setup: func(t *testing.T, f *fake) {
			f.submenus[findName(f.root, ctMenuItem, "Font").Ref][1].Enabled = false
		}, wantLog: "expand Font; collapse Font", wantErr: `menu item "Size" is disabled`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, f := menus(t)
			if tt.stuck != "" {
				f.stuck[tt.stuck] = true
			}
			fontOpen := false
			if tt.setup != nil {
				tt.setup(t, f)
				fontOpen = findName(f.root, ctMenuItem, "Font").Expanded == stateExpanded
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
			if len(f.popups) != tt.strays {
				t.Errorf("%d popup menus left open", len(f.popups))
			}
			if font := findName(f.root, ctMenuItem, "Font"); font.Expanded != stateCollapsed && !fontOpen {
				t.Errorf("Font left %s", expandName(font.Expanded))
			}
			if tt.within != "" && d.window != "0x20" {
				t.Errorf("current window %q after menu_path within %q", d.window, tt.within)
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

// TestRecordCompileRunMenuPath records clicks through the snapshot's
// Font menu (the application opening each submenu between the clicks),
// compiles the trace, and runs the workflow: the three clicks are one
// menu_path, which opens the same path by patterns; with --no-api-first
// the clicks stay and replay as clicks.
func TestRecordCompileRunMenuPath(t *testing.T) {
	d, f := menus(t)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r, err := newRecorder(f, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	press := func(ms int, n *Node) {
		t.Helper()
		x, y := n.Rect.Center()
		if err := r.handle(hookEvent{Mouse: true, Button: "left", X: int(x), Y: int(y), Time: t0.Add(time.Duration(ms) * time.Millisecond)}); err != nil {
			t.Fatal(err)
		}
	}
	font := findName(f.root, ctMenuItem, "Font")
	press(1000, font)
	f.expand(font) // the application opens the menu after the click
	press(2000, findName(f.root, ctMenuItem, "Size"))
	f.expand(findName(f.root, ctMenuItem, "Size"))
	press(3000, findName(f.root, ctMenuItem, "Large"))
	f.closeMenus()
	press(4000, findName(f.root, ctButton, "<"))
	tr := r.finish(t0.Add(5 * time.Second))
	if len(tr.Events) != 4 || tr.Events[2].Target.Name != "Large" {
		t.Fatalf("recorded %+v", tr.Events)
	}

	for _, noAPI := range []bool{false, true} {
		res, err := compiler.Compile(tr, compiler.Options{Trace: "menu.trace.json", NoAPIFirst: noAPI})
		if err != nil {
			t.Fatal(err)
		}
		src := string(res.Source)
		// The recorder took the deepest elements under the pointer: the
		// text blocks of Font and of the "<" button.
		want, wantLog := `op3 = menu_path(["Font", "Size", "Large"])`, "expand Font; expand Size; invoke Large; click left 1 @1235.5,398"
		if noAPI {
			want, wantLog = `op3 = click(menuitem(name: "Large"))`, "click left 1 @122.5,822; expand Size; invoke Large; click left 1 @1235.5,398"
		}
		if !strings.Contains(src, want) {
			t.Fatalf("no %q in\n%s", want, src)
		}
		d, f = menus(t)
		if err := runOn(t, d, src); err != nil {
			t.Fatalf("run: %v\n%s\nlog %q", err, src, f.log)
		}
		if got := strings.Join(f.log, "; "); got != wantLog {
			t.Errorf("no-api-first %v: log %q, want %q", noAPI, got, wantLog)
		}
		// The same final state both ways: Large chosen, the menus closed.
		if font := findName(f.root, ctMenuItem, "Font"); font.Expanded != stateCollapsed || len(font.Children) != 1 {
			t.Errorf("no-api-first %v: Font left %s with %d children", noAPI, expandName(font.Expanded), len(font.Children))
		}
	}
}

// TestRecordCompileWin32Menu records clicks through a Win32-style menu,
// whose submenu is a popup window of its own: the snapshot of the click in
// the popup holds it (a root after the window's elements), which proves
// the path, so the clicks compile into one menu_path that runs.
func TestRecordCompileWin32Menu(t *testing.T) {
	_, f := menus(t)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r, err := newRecorder(f, "", t0)
	if err != nil {
		t.Fatal(err)
	}
	press := func(ms int, n *Node) {
		t.Helper()
		x, y := n.Rect.Center()
		if err := r.handle(hookEvent{Mouse: true, Button: "left", X: int(x), Y: int(y), Time: t0.Add(time.Duration(ms) * time.Millisecond)}); err != nil {
			t.Fatal(err)
		}
	}
	file := findName(f.root, ctMenuItem, "File")
	press(1000, file)
	f.expand(file)
	press(2000, findName(f.popupFor[file.Ref], ctMenuItem, "Save As..."))
	f.closeMenus()
	press(3000, findName(f.root, ctButton, "<"))
	tr := r.finish(t0.Add(4 * time.Second))
	if tr.Events[1].Snapshot == "" || tr.Events[1].Target.Name != "Save As..." {
		t.Fatalf("the click in the popup has no snapshot: %+v", tr.Events[1])
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := compiler.Compile(tr, compiler.Options{Trace: "win32.trace.json"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Source), `op2 = menu_path(["File", "Save As..."])`) {
		t.Fatalf("no menu_path in\n%s", res.Source)
	}
	d, f := menus(t)
	if err := runOn(t, d, string(res.Source)); err != nil {
		t.Fatalf("run: %v\nlog %q", err, f.log)
	}
	if got, want := strings.Join(f.log, "; "), "expand File; invoke Save As...; click left 1 @1235.5,398"; got != want {
		t.Errorf("log %q, want %q", got, want)
	}
}
