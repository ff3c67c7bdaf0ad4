package uia

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// apiWidgets adds to widgets what the pattern actions need beyond the
// snapshots: a password box, a three-state check box, a tree item that is
// a leaf, and an edit whose provider ignores SetValue.
func apiWidgets(t *testing.T) (*Node, *fake, *Driver) {
	root := widgets(monsterRoot(t))
	add := func(ct int, name, id, class string, patterns ...int) *Node {
		n := node(ct, name, class)
		n.Ref, n.AutomationID, n.Patterns = "a."+id, id, patterns
		root.Children = append(root.Children, n)
		return n
	}
	add(ctEdit, "Password", "pw", "PasswordBox", PatternValue).Password = true
	add(ctCheckBox, "Wrap", "wrap", "3state", PatternToggle).ToggleState = 1
	add(ctTreeItem, "Readme", "readme", "TreeViewItem", PatternExpandCollapse, PatternSelectionItem).Expanded = stateLeaf
	add(ctEdit, "Stuck", "stuck", "StuckBox", PatternValue)
	add(ctCheckBox, "Frozen", "frozen", "CheckBox", PatternToggle).ToggleState = 0
	add(ctTreeItem, "Docs", "docs", "TreeViewItem", PatternExpandCollapse).Expanded = stateCollapsed
	add(ctEdit, "Single", "single", "SingleLineBox", PatternValue)
	add(ctCheckBox, "Mute", "mute", "CheckBox", PatternToggle) // no ToggleState: -1
	add(ctEdit, "Notes", "notes", "RichEdit", PatternValue)
	d, f := testDriver(root)
	f.stuck["a.stuck"], f.stuck["a.frozen"] = true, true
	f.shown = map[string]func(string) string{
		"a.single": func(s string) string { return strings.Join(strings.Fields(s), " ") }, // squeezes spaces and line breaks
		"a.notes":  func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },  // Windows line ends
	}
	return root, f, d
}

// TestPatternActions checks each API-first action: the one pattern call
// it makes, the state it leaves, and the clear failure (never a click)
// when the element lacks the pattern, is disabled or read-only, or does
// not show the state asked for afterwards.
func TestPatternActions(t *testing.T) {
	on, off := true, false
	tests := []struct {
		name    string
		a       driver.Action
		target  []string // locator: role, then attribute pairs
		wantLog string
		wantErr string
		check   func(t *testing.T, e *driver.Element)
	}{
		{name: "set_value", a: driver.Action{Op: action.SetValue, Text: "Kilimanjaro"}, target: []string{"textbox", "class", "TextBox"},
			wantLog: "set-value TextBox", check: func(t *testing.T, e *driver.Element) {
				if e.Value != "Kilimanjaro" {
					t.Errorf("value %q", e.Value)
				}
			}},
		{name: "set_value read-only", a: driver.Action{Op: action.SetValue, Text: "Kilimanjaro"}, target: []string{"textbox", "id", "log"}, wantErr: `textbox "Log" is read-only`},
		{name: "set_value no pattern", a: driver.Action{Op: action.SetValue, Text: "Kilimanjaro"}, target: []string{"button", "name", "<"}, wantErr: `button "<" has no Value pattern`},
		{name: "set_value password", a: driver.Action{Op: action.SetValue, Text: "hunter2"}, target: []string{"textbox", "id", "pw"}, wantErr: "password field"},
		{name: "set_value ignored", a: driver.Action{Op: action.SetValue, Text: "s3cr3t"}, target: []string{"textbox", "id", "stuck"},
			wantLog: "set-value Stuck", wantErr: `does not show the value set`},
		{name: "set_value squeezed", a: driver.Action{Op: action.SetValue, Text: "two  spaces\nand a line"}, target: []string{"textbox", "id", "single"},
			wantLog: "set-value Single", wantErr: `does not show the value set`},
		{name: "set_value with line breaks", a: driver.Action{Op: action.SetValue, Text: "line one\nline two"}, target: []string{"textbox", "id", "notes"},
			wantLog: "set-value Notes"},
		{name: "invoke", a: driver.Action{Op: action.Invoke}, target: []string{"button", "name", "<"}, wantLog: "invoke <"},
		{name: "invoke no pattern", a: driver.Action{Op: action.Invoke}, target: []string{"listitem", "name", "Birds"}, wantErr: `listitem "Birds" has no Invoke pattern`},
		{name: "invoke disabled", a: driver.Action{Op: action.Invoke}, target: []string{"button", "name", "Delete"}, wantErr: `button "Delete" is disabled`},
		{name: "toggle", a: driver.Action{Op: action.Toggle}, target: []string{"checkbox", "name", "Bold"}, wantLog: "toggle Bold",
			check: func(t *testing.T, e *driver.Element) {
				if !e.Checked {
					t.Error("not checked")
				}
			}},
		{name: "toggle on", a: driver.Action{Op: action.Toggle, On: &on}, target: []string{"checkbox", "name", "Bold"}, wantLog: "toggle Bold"},
		{name: "toggle off already off", a: driver.Action{Op: action.Toggle, On: &off}, target: []string{"checkbox", "name", "Bold"}, wantLog: ""},
		{name: "toggle three states to off", a: driver.Action{Op: action.Toggle, On: &off}, target: []string{"checkbox", "name", "Wrap"},
			wantLog: "toggle Wrap; toggle Wrap", check: func(t *testing.T, e *driver.Element) {
				if e.Checked {
					t.Error("still checked")
				}
			}},
		{name: "toggle ignored", a: driver.Action{Op: action.Toggle}, target: []string{"checkbox", "name", "Frozen"}, wantLog: "toggle Frozen", wantErr: `checkbox "Frozen" is still off after toggling`},
		{name: "toggle on ignored", a: driver.Action{Op: action.Toggle, On: &on}, target: []string{"checkbox", "name", "Frozen"},
			wantLog: "toggle Frozen; toggle Frozen; toggle Frozen", wantErr: `is off, not on`},
		{name: "toggle on unreadable state", a: driver.Action{Op: action.Toggle, On: &on}, target: []string{"checkbox", "name", "Mute"},
			wantErr: `checkbox "Mute" does not report its toggle state`},
		{name: "toggle unreadable state", a: driver.Action{Op: action.Toggle}, target: []string{"checkbox", "name", "Mute"},
			wantErr: `checkbox "Mute" does not report its toggle state`},
		{name: "toggle no pattern", a: driver.Action{Op: action.Toggle}, target: []string{"button", "name", "<"}, wantErr: `has no Toggle pattern`},
		{name: "select_item", a: driver.Action{Op: action.SelectItem}, target: []string{"listitem", "name", "Birds"}, wantLog: "select Birds",
			check: func(t *testing.T, e *driver.Element) {
				if !e.Checked {
					t.Error("not selected")
				}
			}},
		{name: "select_item no pattern", a: driver.Action{Op: action.SelectItem}, target: []string{"checkbox", "name", "Bold"}, wantErr: `has no SelectionItem pattern`},
		{name: "expand", a: driver.Action{Op: action.Expand}, target: []string{"combobox", "id", "size"}, wantLog: "expand Size"},
		{name: "collapse collapsed", a: driver.Action{Op: action.Collapse}, target: []string{"combobox", "id", "size"}, wantLog: ""},
		{name: "expand leaf", a: driver.Action{Op: action.Expand}, target: []string{"treeitem", "name", "Readme"}, wantErr: `is a leaf`},
		{name: "expand no pattern", a: driver.Action{Op: action.Expand}, target: []string{"listitem", "name", "Birds"}, wantErr: `has no ExpandCollapse pattern`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, f, d := apiWidgets(t)
			l := loc(tt.target[0], -1, tt.target[1:]...)
			tt.a.Target = target(t, d, l)
			f.log = nil
			_, err := d.Do(context.Background(), tt.a)
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), tt.a.Text) && tt.a.Text != "" {
				t.Errorf("the error quotes the value: %v", err)
			}
			if got := strings.Join(f.log, "; "); got != tt.wantLog {
				t.Errorf("log %q, want %q", got, tt.wantLog)
			}
			if tt.check != nil {
				tt.check(t, target(t, d, l))
			}
		})
	}
}

// TestExpandCollapseState: expand, then expand again (nothing to do),
// then collapse; a provider that ignores the call is reported.
func TestExpandCollapseState(t *testing.T) {
	_, f, d := apiWidgets(t)
	ctx := context.Background()
	for _, op := range []action.Name{action.Expand, action.Expand, action.Collapse} {
		if _, err := d.Do(ctx, driver.Action{Op: op, Target: target(t, d, loc("treeitem", -1, "name", "Docs"))}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(f.log, "; "); got != "expand Docs; collapse Docs" {
		t.Errorf("log %q", got)
	}
	f.stuck["a.docs"] = true
	_, err := d.Do(ctx, driver.Action{Op: action.Expand, Target: target(t, d, loc("treeitem", -1, "name", "Docs"))})
	if err == nil || !strings.Contains(err.Error(), `treeitem "Docs" is collapsed after expand`) {
		t.Errorf("error %v", err)
	}
}
