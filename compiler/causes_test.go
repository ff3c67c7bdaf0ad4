package compiler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestCauses checks each class of page that issue 12 found compiled
// wrong, on a small hand-made trace per class (the same traces are golden
// cases in testdata/golden): what the workflow must say, what it must not,
// and the warning it must give.
func TestCauses(t *testing.T) {
	tests := []struct {
		name, trace string
		want        []string
		notWant     []string
		warning     string
	}{
		{"a checkbox click is a click", "controls",
			[]string{`op2 = click(checkbox(name: "Newsletter", id: "news"))`}, []string{`"on"`, "type("}, ""},
		{"a radio toggled by its label is the label's click, once", "controls",
			[]string{`op3 = click(element(text: "Weekly"))`}, []string{`radio(`}, ""},
		{"a select change is the choice of its option", "controls",
			[]string{`click(option(name: "Large", within: combobox(name: "Size", id: "size")))`}, []string{`"l"`}, ""},
		{"a field with a unique id in a form taken for a list", "form_as_list",
			[]string{`type(textbox(id: "first"), first_value)`, `type(textbox(id: "last"), last_value)`}, []string{"TODO", "for item", "next("}, ""},
		{"one action on one list item is no loop", "one_list_item",
			nil, []string{"for item", "[1:]"}, "op2: click on a list item"},
		{"the same action on two items is a loop from the first", "list_repeated",
			[]string{`for item in items(list(name: "Inbox")) {`, `click(button(name: "Archive", within: item))`}, []string{"[1:]", "op3 ="}, ""},
		{"icons without text in a loop are told apart by the class they share (not a state class)", "icons_all",
			[]string{`for item in items(list(id: "feed")) {`, `click(element(role: "generic", class: "share", within: item))`}, []string{"active", "op3 ="}, ""},
		{"items passed over (a user's posts among others') are no loop: each is its own step", "icons_some",
			[]string{`op4 = click(element(role: "generic", path: "main/div/div[4]/div/span[3]"))`}, []string{"for item", "div[3]/div"}, "op4: click on a list item"},
		{"an autocomplete's fill-in is the choice's effect: the value typed is the keystrokes", "autocomplete",
			[]string{`input tags: text = "Ira"`, `op4 = click(button(name: "Submit", id: "subbtn"))`}, []string{`"Iran"`, "tags_value"}, ""},
		{"a paste's own input is no second type", "buttons_paste_scroll",
			[]string{`op3 = paste(search_box, search)`}, []string{"type("}, ""},
		{"a middle click on a link opens it in a new tab and comes back", "buttons_paste_scroll",
			[]string{`op4 = new_tab("http://127.0.0.1:8088/wiki/About")`, `op5 = switch_window("Wiki")`}, []string{`click(link(`}, ""},
		{"back button is back(), forward is warned, trailing scroll dropped", "buttons_paste_scroll",
			[]string{`op6 = back()`}, []string{"scroll("}, "a click with the forward button (e10) has no action"},
		{"a click on a checkbox's label and the click it forwards toggle once", "label_click",
			[]string{`op2 = click(checkbox(name: "I agree", id: "agree"))`, `op3 = click(button(name: "Continue"))`}, []string{`text(`}, ""},
		{"a list box keeps every option picked", "listbox",
			[]string{`op2 = click(option(name: "Banana", within: fruit))`, `op3 = multi_select([option(name: "Damson", within: fruit)])`, `op4 = click(button(name: "Order"))`}, []string{"scroll(", "type("}, ""},
		{"retyping a field: no step for Ctrl+A's selection, no program over the old content", "retype",
			[]string{`op5 = key("Ctrl+A", target: guess_box)  `, `op6 = type(guess_box, guess_value)`, `input guess_value: text = "8"`}, []string{"select_text", "parse_number"}, ""},
		{"a different button per item, as the item's number is even or odd, is a loop over every item with an if, not next()", "per_item_choice",
			[]string{"for item in items(list(id: \"numbers\")) {", `if parse_number(regex("-?[0-9]+", item.text)) % 2 == 0 {`, `op3 = click(button(name: "Even", within: item))`, `op2 = click(button(name: "Odd", within: item))`, `op6 = click(checkbox(path: "main/form/p[2]/input"))`},
			[]string{"next(", "items(list(id: \"numbers\"))[", "listitem(text:"}, "as the item's number is even or not"},
		{"a password is a secret input with no default", "password",
			[]string{"input password: secret\n", `type(password_box, password)`}, []string{"••", `secret =`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := compileOK(t, load(t, "testdata/"+tt.trace+".trace.json"), tt.trace+".cog")
			src := string(res.Source)
			assertSource(t, src, tt.want, tt.notWant)
			if tt.warning != "" && !hasWarning(res.Warnings.Messages(), tt.warning) {
				t.Errorf("no warning %q in %q", tt.warning, res.Warnings)
			}
		})
	}
}

// TestPasswordNeverInOutput: neither the clear nor the masked password of
// a trace reaches the workflow or a warning, wherever the recorder left it.
func TestPasswordNeverInOutput(t *testing.T) {
	for _, value := range []string{"hunter22", "••••••••"} {
		tr := load(t, "testdata/password.trace.json")
		for i := range tr.Events {
			if e := &tr.Events[i]; e.Target != nil && e.Target.Secret && e.Value != "" {
				e.Value = value
			}
		}
		res := compileOK(t, tr, "password.cog")
		if strings.Contains(string(res.Source), value) || strings.Contains(strings.Join(res.Warnings.Messages(), "\n"), value) {
			t.Errorf("%q leaked:\n%s", value, res.Source)
		}
		if !strings.Contains(string(res.Source), "input password: secret\n") {
			t.Errorf("no secret input:\n%s", res.Source)
		}
	}
}

// TestRepetitionIgnoresIncidentalOps: a selection inside a text field
// that the recorder saw in one repetition and not in the other (it
// depends on how long the selection rested) does not hide the evidence of
// iteration.
func TestRepetitionIgnoresIncidentalOps(t *testing.T) {
	cell := func(text, col string, row, ci int) *trace.Target {
		return &trace.Target{Attributes: trace.Attributes{Role: "cell", Text: text},
			Context: &trace.Context{Headers: &trace.Headers{Table: "main/table", Column: col, RowIndex: row, ColumnIndex: ci}}}
	}
	note := &trace.Target{Attributes: trace.Attributes{Role: "textbox", ID: "note", Name: "Note", Editable: true}}
	for _, extra := range []int{0, 1} {
		tr := trace.New(trace.DriverBrowser)
		add := func(e trace.Event) {
			e.ID = fmt.Sprintf("e%d", len(tr.Events)+1)
			e.Time = int64(len(tr.Events))
			tr.Events = append(tr.Events, e)
		}
		add(trace.Event{Kind: trace.KindNavigate, URL: "http://127.0.0.1:8088/people"})
		for row, name := range []string{"Ada", "Alan"} {
			add(trace.Event{Kind: trace.KindDblClick, Target: cell(name, "Name", row, 0), Button: "left"})
			if row == extra {
				add(trace.Event{Kind: trace.KindSelect, Target: note, Text: "old"})
			}
			add(trace.Event{Kind: trace.KindInput, Target: note, Text: name, Value: name})
			add(trace.Event{Kind: trace.KindClick, Target: &trace.Target{Attributes: trace.Attributes{Role: "button", Name: "Add", ID: "add"}}, Button: "left"})
		}
		res := compileOK(t, tr, "incidental.cog")
		if !strings.Contains(string(res.Source), `for row in rows(table(path: "main/table")) {`) {
			t.Errorf("extra selection in row %d hid the repetition:\n%s", extra, res.Source)
		}
	}
}

func TestGeneratedID(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want bool
	}{
		{"ui-id-3", true}, {"ember123", true}, {":r1f:", true}, {"«r3»", true}, {"mat-option-12", true},
		{"headlessui-menu-item-7", true}, {"react-select-2-option-4", true}, {"downshift-0-item-3", true}, {"mui-42", true},
		{"ch0", false}, {"subbtn", false}, {"q", false}, {"rename-name", false}, {"ui-id", false}, {"item-3", false},
	} {
		if got := generatedID(tt.id); got != tt.want {
			t.Errorf("generatedID(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

// assertSource checks that a compiled workflow has every piece of want and
// none of notWant.
func assertSource(t *testing.T, src string, want, notWant []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(src, w) {
			t.Errorf("missing %q in\n%s", w, src)
		}
	}
	for _, w := range notWant {
		if strings.Contains(src, w) {
			t.Errorf("unexpected %q in\n%s", w, src)
		}
	}
}
