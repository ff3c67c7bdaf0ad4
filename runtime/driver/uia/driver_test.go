package uia

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	cfrt "github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
)

// widgets adds to the Monster window what the snapshots lack: a check
// box, a combo box, a read-only text box and a disabled button.
func widgets(root *Node) *Node {
	add := func(ct int, name, id string, rect driver.Rect, patterns ...int) *Node {
		n := node(ct, name, ControlTypeName(ct))
		n.Ref, n.AutomationID, n.Rect, n.Patterns = "w."+id, id, rect, patterns
		root.Children = append(root.Children, n)
		return n
	}
	add(ctCheckBox, "Bold", "bold", driver.Rect{X: 10, Y: 900, W: 60, H: 20}, PatternToggle).ToggleState = 0
	add(ctComboBox, "Size", "size", driver.Rect{X: 10, Y: 930, W: 80, H: 20}, PatternExpandCollapse, PatternValue).Expanded = 0
	ro := add(ctEdit, "Log", "log", driver.Rect{X: 10, Y: 960, W: 200, H: 40}, PatternValue, PatternText)
	ro.ReadOnly, ro.Value = true, "started"
	add(ctButton, "Delete", "delete", driver.Rect{X: 10, Y: 1010, W: 60, H: 20}, PatternInvoke).Enabled = false
	return root
}

// target observes and anchors like a workflow step.
func target(t *testing.T, d *Driver, l *cfrt.Locator) *driver.Element {
	t.Helper()
	tree, err := d.Observe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	el, err := cfrt.Choose(l, tree.Elements)
	if err != nil {
		t.Fatal(err)
	}
	return el
}

// TestClickAPIFirst checks that a click goes through the pattern the
// control's own click runs, and through input only when there is none or
// it fails.
func TestClickAPIFirst(t *testing.T) {
	tests := []struct {
		name string
		l    *cfrt.Locator
		fail PatternOp
		want []string
	}{
		{"button", loc("button", -1, "name", "<"), -1, []string{"invoke <"}},
		{"list item", loc("listitem", -1, "name", "Birds"), -1, []string{"select Birds"}},
		{"menu item", loc("menuitem", -1, "name", "Font"), -1, []string{"expand Font"}},
		{"check box", loc("checkbox", -1, "name", "Bold"), -1, []string{"toggle Bold"}},
		{"combo box", loc("combobox", -1, "id", "size"), -1, []string{"expand Size"}},
		{"text", loc("text", -1, "name", "$$$!"), -1, []string{"click left 1 @169,718"}},
		{"disabled", loc("button", -1, "name", "Delete"), -1, []string{"click left 1 @40,1020"}},
		{"invoke fails", loc("button", -1, "name", "<"), OpInvoke, []string{"invoke < failed", "click left 1 @1235.5,398"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, f := testDriver(widgets(monsterRoot(t)))
			if tt.fail >= 0 {
				f.fail[tt.fail] = true
			}
			el := target(t, d, tt.l)
			if _, err := d.Do(context.Background(), driver.Action{Op: "click", Target: el}); err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(f.log, "; "); got != strings.Join(tt.want, "; ") {
				t.Errorf("log %q, want %q", got, tt.want)
			}
		})
	}
}

// TestClickStateChanges checks that the tree after a click shows what
// the pattern changed: expanded once, the next click collapses.
func TestClickStateChanges(t *testing.T) {
	d, f := testDriver(widgets(monsterRoot(t)))
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		el := target(t, d, loc("menuitem", -1, "name", "Font"))
		if _, err := d.Do(ctx, driver.Action{Op: "click", Target: el}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(f.log, "; "); got != "expand Font; collapse Font" {
		t.Errorf("log %q", got)
	}
	box := target(t, d, loc("checkbox", -1, "name", "Bold"))
	if box.Checked {
		t.Fatal("checked before the click")
	}
	d.Do(ctx, driver.Action{Op: "click", Target: box})
	if !target(t, d, loc("checkbox", -1, "name", "Bold")).Checked {
		t.Error("not checked after the click")
	}
}

// TestType checks ValuePattern.SetValue first, keys for a read-only
// element (focus, select all, type).
func TestType(t *testing.T) {
	d, f := testDriver(widgets(monsterRoot(t)))
	ctx := context.Background()
	res, err := d.Do(ctx, driver.Action{Op: "type", Target: target(t, d, loc("textbox", -1, "class", "TextBox")), Text: "Kilimanjaro"})
	if err != nil || res.Text != "Kilimanjaro" {
		t.Fatalf("%+v %v", res, err)
	}
	if got := target(t, d, loc("textbox", -1, "class", "TextBox")).Value; got != "Kilimanjaro" {
		t.Errorf("value after type %q", got)
	}
	f.log = nil
	if _, err := d.Do(ctx, driver.Action{Op: "type", Target: target(t, d, loc("textbox", -1, "id", "log")), Text: "é!"}); err != nil {
		t.Fatal(err)
	}
	want := `focus Log; keys [17] 65 '\x00'; type "é!"`
	if got := strings.Join(f.log, "; "); got != want {
		t.Errorf("log %q, want %q", got, want)
	}
}

// TestClipboardActions checks copy (clipboard API), paste (Ctrl+V) and
// the refusals of select_text.
func TestClipboardActions(t *testing.T) {
	d, f := testDriver(widgets(monsterRoot(t)))
	ctx := context.Background()
	res, err := d.Do(ctx, driver.Action{Op: "copy", Target: target(t, d, loc("listitem", -1, "name", "Birds"))})
	if err != nil || res.Text != "Birds" || f.clipboard != "Birds" {
		t.Fatalf("copy: %+v %v, clipboard %q", res, err, f.clipboard)
	}
	f.log = nil
	res, err = d.Do(ctx, driver.Action{Op: "paste", Target: target(t, d, loc("textbox", -1, "class", "TextBox"))})
	if err != nil || res.Text != "Birds" || strings.Join(f.log, "; ") != `focus TextBox; keys [17] 86 '\x00'` {
		t.Errorf("paste: %+v %v %q", res, err, f.log)
	}
	_, err = d.Do(ctx, driver.Action{Op: "select_text", Target: target(t, d, loc("text", -1, "name", "$$$!")), Text: "$$"})
	if err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("select_text of a part: %v", err)
	}
	res, err = d.Do(ctx, driver.Action{Op: "select_text", Target: target(t, d, loc("text", -1, "name", "$$$!"))})
	if err != nil || res.Text != "$$$!" {
		t.Errorf("select_text: %+v %v", res, err)
	}
}

// TestWindows checks launching, switching by title and closing.
func TestWindows(t *testing.T) {
	d, f := testDriver(monsterRoot(t))
	ctx := context.Background()
	res, err := d.Do(ctx, driver.Action{Op: "open_window", Text: "notepad.exe"})
	if err != nil || res.Window == nil || res.Window.ID != "0x40" || d.window != "0x40" {
		t.Fatalf("open_window: %+v %v", res, err)
	}
	if _, err := d.Do(ctx, driver.Action{Op: "launch", Text: "missing.exe"}); err == nil || !strings.Contains(err.Error(), "uia: launch: the system cannot find") {
		t.Errorf("launch of a missing app: %v", err)
	}
	if _, err := d.Do(ctx, driver.Action{Op: "switch_window", Text: "notepad"}); err == nil || !strings.Contains(err.Error(), "several windows match") {
		t.Errorf("ambiguous switch: %v", err)
	}
	res, err = d.Do(ctx, driver.Action{Op: "switch_window", Text: "untitled - NOTEPAD"})
	if err != nil || res.Window.ID != "0x20" {
		t.Fatalf("switch: %+v %v", res, err)
	}
	if _, err := d.Do(ctx, driver.Action{Op: "switch_window", Text: "Paint"}); err == nil {
		t.Error("switched to a window that does not exist")
	}
	if _, err := d.Do(ctx, driver.Action{Op: "close_window"}); err != nil || d.window != "" {
		t.Errorf("close: %v, window %q", err, d.window)
	}
	if got := strings.Join(f.log, "; "); got != "launch notepad.exe; launch missing.exe; activate 0x20; close 0x20" {
		t.Errorf("log %q", got)
	}
}

// TestKeysScrollWait checks the keyboard actions, scrolling and waiting.
func TestKeysScrollWait(t *testing.T) {
	d, f := testDriver(widgets(monsterRoot(t)))
	ctx := context.Background()
	for _, a := range []driver.Action{
		{Op: "key", Text: "Ctrl+Shift+S"},
		{Op: "enter"},
		{Op: "scroll", Target: target(t, d, loc("listitem", -1, "name", "Trees"))},
		{Op: "scroll", Text: "down", Number: 2, Target: target(t, d, loc("list", -1))},
		{Op: "wait", Text: "Spaniels"},
		{Op: "wait", Number: 0.01},
	} {
		if _, err := d.Do(ctx, a); err != nil {
			t.Fatalf("%s: %v", a.Op, err)
		}
	}
	want := `keys [17 16] 83 '\x00'; keys [] 13 '\x00'; scroll-into-view Trees; wheel -2 @2041,522`
	if got := strings.Join(f.log, "; "); got != want {
		t.Errorf("log %q\nwant %q", got, want)
	}
	for _, bad := range []driver.Action{
		{Op: "key", Text: "Hyper+Q"},
		{Op: "scroll", Text: "sideways"},
		{Op: "swipe"},
		{Op: "click"},
		{Op: "wait", Text: "never shown", Timeout: 50_000_000},
	} {
		if _, err := d.Do(ctx, bad); err == nil {
			t.Errorf("%+v did not fail", bad)
		}
	}
}

// TestStaleTarget checks that an element of an older observation is
// found again by its id or its role and name.
func TestStaleTarget(t *testing.T) {
	d, f := testDriver(widgets(monsterRoot(t)))
	ctx := context.Background()
	old := &driver.Element{Ref: "gone", Role: "checkbox", ID: "bold"}
	if _, err := d.Do(ctx, driver.Action{Op: "click", Target: old}); err != nil {
		t.Fatal(err)
	}
	byName := &driver.Element{Ref: "gone", Role: "listitem", Name: "Trees"}
	if _, err := d.Do(ctx, driver.Action{Op: "click", Target: byName}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.log, "; "); got != "toggle Bold; select Trees" {
		t.Errorf("log %q", got)
	}
	_, err := d.Do(ctx, driver.Action{Op: "click", Target: &driver.Element{Ref: "gone", Role: "button", Name: "Nope"}})
	if err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Errorf("a gone element: %v", err)
	}
}

// TestObserveFind checks the observed tree and Find's filtering.
func TestObserveFind(t *testing.T) {
	d, _ := testDriver(monsterRoot(t))
	ctx := context.Background()
	tree, err := d.Observe(ctx)
	if err != nil || tree.Title != "Monster" || len(tree.Elements) != 15 {
		t.Fatalf("observe: %v, %d elements, title %q", err, len(tree.Elements), tree.Title)
	}
	tests := []struct {
		q    driver.Query
		want int
	}{
		{driver.Query{Name: "birds"}, 2},                   // the item and its TextBlock
		{driver.Query{Role: "listitem", Name: "birds"}, 4}, // any attribute: 3 items, 1 TextBlock
		{driver.Query{Role: "listitem"}, 3},
		{driver.Query{Class: "TextBlock"}, 6},
		{driver.Query{}, 7}, // with a pattern that acts: button, text box, list, 3 items, menu item
		{driver.Query{Class: "TextBlock", Within: tree.Elements[byIndex(tree, "Window/ListView")].Ref}, 3},
	}
	for _, tt := range tests {
		got, err := d.Find(ctx, tt.q)
		if err != nil || len(got) != tt.want {
			var paths []string
			for _, e := range got {
				paths = append(paths, e.Path)
			}
			t.Errorf("%+v: %d found (%v), want %d; %v", tt.q, len(got), paths, tt.want, err)
		}
	}
	// Found elements form a tree of their own: a TextBlock's parent is
	// its item when the item is found too, else none.
	found, _ := d.Find(ctx, driver.Query{Name: "birds"})
	if len(found) != 2 || found[0].Parent != -1 || found[1].Parent != 0 || found[1].Role != "text" {
		t.Errorf("find's tree: %+v %+v", found[0], found[1])
	}
	if i := byIndex(d.last, "Window/ListView/ListBoxItem[2]/TextBlock"); i < 0 || d.last.Elements[i].Parent != byIndex(d.last, "Window/ListView/ListBoxItem[2]") {
		t.Error("find changed the observed elements' parents")
	}
	if _, err := d.Find(ctx, driver.Query{Within: "gone"}); err == nil || !strings.Contains(err.Error(), "no longer in the window") {
		t.Errorf("find within a gone element: %v", err)
	}
	text, err := d.ScreenText(ctx)
	if err != nil || !strings.Contains(text, "Spaniels\nBirds") || strings.Count(text, "Birds") != 1 {
		t.Errorf("screen text %q, %v", text, err)
	}
}

func byIndex(t *driver.Tree, path string) int {
	for i, e := range t.Elements {
		if e.Path == path {
			return i
		}
	}
	return -1
}

func TestCapabilitiesAndClose(t *testing.T) {
	d, f := testDriver(monsterRoot(t))
	c := d.Capabilities()
	for _, op := range []action.Name{"click", "type", "open_window", "switch_window", "close_window", "launch"} {
		if !c.Supports(op) {
			t.Errorf("does not support %s", op)
		}
	}
	if !strings.Contains(strings.Join(c.Shortcuts, " "), "type:set-value") {
		t.Error("no type:set-value shortcut")
	}
	if png, err := d.Screenshot(context.Background()); err != nil || len(png) == 0 {
		t.Errorf("screenshot %v", err)
	}
	if err := d.Close(); err != nil || !f.closed {
		t.Fatal("not closed")
	}
	if _, err := d.Observe(context.Background()); err == nil {
		t.Error("observe after close")
	}
	if _, err := d.Do(context.Background(), driver.Action{Op: "enter"}); err == nil {
		t.Error("do after close")
	}
	if d.Close() != nil {
		t.Error("a second close fails")
	}
}

// TestOpenOffWindows checks the registered factory's error off Windows:
// it wraps driver.ErrUnavailable and says where the driver runs.
func TestOpenOffWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the driver runs here")
	}
	_, err := driver.Open(context.Background(), "uia", driver.Options{})
	if !errors.Is(err, driver.ErrUnavailable) || !strings.Contains(err.Error(), "the uia driver runs on Windows (this is "+runtime.GOOS+")") {
		t.Errorf("open: %v", err)
	}
}

// TestClearNotSupported: an action the driver does not perform fails with
// a message naming it, never as a silent success.
func TestClearNotSupported(t *testing.T) {
	d, _ := testDriver(widgets(monsterRoot(t)))
	box := target(t, d, loc("textbox", -1, "class", "TextBox"))
	_, err := d.Do(context.Background(), driver.Action{Op: "clear", Target: box})
	if err == nil || !strings.Contains(err.Error(), `does not perform "clear"`) {
		t.Errorf("clear = %v, want: does not perform", err)
	}
	if got := target(t, d, loc("textbox", -1, "class", "TextBox")).Value; got != box.Value {
		t.Errorf("the field changed: %q → %q", box.Value, got)
	}
}
