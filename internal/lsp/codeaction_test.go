package lsp

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCodeActions(t *testing.T) {
	const head = "task t \"é 中 😀\" {\n  driver browser\n  input name: text = \"é中😀\"\n"
	cases := []struct {
		name, text string
		diag       string // part of the message of the diagnostic to fix
		titles     []string
		apply      string // the title of the action to apply
		want       string // the text after the edit
		dropData   bool   // the client does not send Data back
		byteRange  bool   // the client sends the range back in byte columns (Neovim 0.7–0.10)
		clean      bool   // the result checks without any diagnostic
	}{
		{name: "misspelled name after é 中 😀",
			text:   head + "  op1 = type(textbox(name: \"é 中 😀\"), nmae)\n}\n",
			diag:   "undefined name nmae",
			titles: []string{"Change to name", "Declare input nmae: text"}, apply: "Change to name",
			want:  head + "  op1 = type(textbox(name: \"é 中 😀\"), name)\n}\n",
			clean: true},
		{name: "range sent back in byte columns, without Data, after é 中 😀",
			text:   head + "  op1 = type(textbox(name: \"é 中 😀\"), nmae)\n}\n",
			diag:   "undefined name nmae",
			titles: []string{"Change to name"}, apply: "Change to name", dropData: true, byteRange: true,
			want:  head + "  op1 = type(textbox(name: \"é 中 😀\"), name)\n}\n",
			clean: true},
		{name: "misspelled action",
			text: head + "  op1 = clik(button(name: name))\n}\n", diag: "unknown action or function clik",
			titles: []string{"Change to click"}, apply: "Change to click",
			want: head + "  op1 = click(button(name: name))\n}\n", clean: true},
		{name: "misspelled attribute, without Data",
			text: head + "  op1 = click(button(nme: name))\n}\n", diag: "unknown element attribute nme",
			titles: []string{"Change to name"}, apply: "Change to name", dropData: true,
			want: head + "  op1 = click(button(name: name))\n}\n", clean: true},
		{name: "misspelled subcategory",
			text: head + "  op1 = type(textbox(name: \"😀\"), sumarize<\"the text in one line\">(name))\n}\n", diag: "unknown subcategory sumarize",
			titles: []string{"Change to summarize"}, apply: "Change to summarize",
			want: head + "  op1 = type(textbox(name: \"😀\"), summarize<\"the text in one line\">(name))\n}\n", clean: true},
		{name: "missing input, declared under the others",
			text: head + "  op1 = type(textbox(name: \"é\"), name)\n  op2 = type(textbox(name: \"中\"), query)\n}\n", diag: "undefined name query",
			titles: []string{"Declare input query: text"}, apply: "Declare input query: text",
			want:  head + "  input query: text\n  op1 = type(textbox(name: \"é\"), name)\n  op2 = type(textbox(name: \"中\"), query)\n}\n",
			clean: true},
		{name: "missing input, no input yet: under the driver, with the file's indentation",
			text: "task t {\n    driver browser\n\n    op1 = type(textbox(name: \"é\"), query)\n}\n", diag: "undefined name query",
			titles: []string{"Declare input query: text"}, apply: "Declare input query: text",
			want:  "task t {\n    driver browser\n    input query: text\n\n    op1 = type(textbox(name: \"é\"), query)\n}\n",
			clean: true},
		{name: "missing input in a CRLF file: a CRLF line",
			text: "task t {\r\n  driver browser\r\n  input a: text\r\n  op1 = type(textbox(name: \"é\"), query)\r\n}\r\n", diag: "undefined name query",
			titles: []string{"Declare input query: text"}, apply: "Declare input query: text",
			want: "task t {\r\n  driver browser\r\n  input a: text\r\n  input query: text\r\n  op1 = type(textbox(name: \"é\"), query)\r\n}\r\n"},
		{name: "syntax error elsewhere",
			text: head + "  op1 = type(textbox(name: \"é\"), nmae)\n  op2 = click(((\n}\n", diag: "undefined name nmae",
			titles: []string{"Change to name"}, apply: "Change to name",
			want: head + "  op1 = type(textbox(name: \"é\"), name)\n  op2 = click(((\n}\n"},
	}
	c := newTestClient(t, "", Options{})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			uri := c.open(fmt.Sprintf("a%d.cog", i), tc.text)
			var target *Diagnostic
			ds := c.diagnostics(uri, 1)
			for j := range ds {
				if strings.Contains(ds[j].Message, tc.diag) {
					target = &ds[j]
				}
			}
			if target == nil {
				t.Fatalf("no diagnostic %q in %v", tc.diag, ds)
			}
			if tc.dropData {
				target.Data = nil
			}
			if tc.byteRange {
				li := NewLineIndex([]byte(tc.text))
				for _, p := range []*Position{&target.Range.Start, &target.Range.End} {
					p.Character = uint32(li.Offset(*p) - li.Offset(Position{Line: p.Line}))
				}
			}
			var actions []CodeAction
			c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": target.Range,
				"context": map[string]any{"diagnostics": []Diagnostic{*target}}}, &actions)
			var titles []string
			var chosen *CodeAction
			for j, a := range actions {
				titles = append(titles, a.Title)
				if a.Kind != "quickfix" || len(a.Diagnostics) != 1 || a.Diagnostics[0].Message != target.Message {
					t.Errorf("action %q: kind %q, diagnostics %v", a.Title, a.Kind, a.Diagnostics)
				}
				if a.Title == tc.apply {
					chosen = &actions[j]
				}
			}
			for _, w := range tc.titles {
				if !slices.Contains(titles, w) {
					t.Errorf("no action %q in %q", w, titles)
				}
			}
			if chosen == nil {
				t.Fatalf("no action %q", tc.apply)
			}
			got := applyEdits(t, tc.text, chosen.Edit.Changes[uri])
			if got != tc.want {
				t.Fatalf("after %q:\n%s\nwant:\n%s", tc.apply, got, tc.want)
			}
			fixed := c.open(fmt.Sprintf("fixed%d.cog", i), got)
			after := c.diagnostics(fixed, 1)
			if tc.clean && len(after) != 0 {
				t.Errorf("the fixed file has diagnostics: %v", after)
			}
			for _, d := range after {
				if d.Message == target.Message {
					t.Errorf("the diagnostic is still there: %v", d)
				}
			}
			// cogflow fmt keeps every line where the fix put it (it may
			// change white space only).
			if tc.clean {
				var edits []TextEdit
				c.request("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": fixed}, "options": map[string]any{}}, &edits)
				if a, b := trimmedLines(got), trimmedLines(applyEdits(t, got, edits)); !slices.Equal(a, b) {
					t.Errorf("formatting moves lines of the fixed file: %q, formatted %q", a, b)
				}
			}
		})
	}
}

func TestCandidates(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"did you mean name?", []string{"name"}},
		{"did you mean a, b or c?", []string{"a", "b", "c"}},
		{`did you mean "kind"?`, []string{"kind"}},
		{"Did you mean op1 or op2?", []string{"op1", "op2"}},
		{"describe the element: button(name: \"x\"), or element(text: \"x\") for any element showing it", nil},
		{"did you mean a step, like x?", nil},
		{"", nil},
	}
	for _, tc := range cases {
		if got := candidates(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("candidates(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Asked without diagnostics (a menu on a range), the server uses the
// document's own; a kind filter without quickfix gives none.
func TestCodeActionsWithoutContext(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text := "task t {\n  driver browser\n  input name: text\n  op1 = type(textbox(name: \"😀\"), nmae)\n}\n"
	uri := c.open("a.cog", text)
	c.diagnostics(uri, 1)
	rng := Range{Start: Position{3, 0}, End: Position{3, 40}}
	var actions []CodeAction
	c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rng, "context": map[string]any{"diagnostics": []any{}}}, &actions)
	if len(actions) != 2 || actions[0].Title != "Change to name" {
		t.Errorf("actions %+v", actions)
	}
	c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rng, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, &actions)
	if len(actions) != 0 {
		t.Errorf("with only refactor: %+v", actions)
	}
}

func trimmedLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Formatting, code lenses and code actions answer on broken files, for
// every diagnostic, without failing.
func TestEditingFeaturesOnBrokenFiles(t *testing.T) {
	c := newTestClient(t, "", Options{})
	texts := []string{
		"task t {\n  for x in rows(table(name: \"😀\"))[1:] {\n    if x.txt == \"a\" { y = clik(x) } else {\n  }\n  while exists(",
		"task {\n}\nskill s(a: txt) { b = type(a, c) }\ntask u \"é\" { driver browser\n op1 = type(textbox(nme: \"x\"), qq) }",
		"\"unclosed\n# comment ( [ {\n}}}}\n",
		"",
	}
	for i, text := range texts {
		uri := c.open(fmt.Sprintf("b%d.cog", i), text)
		ds := c.diagnostics(uri, 1)
		var edits []TextEdit
		c.request("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{}}, &edits)
		var lenses []CodeLens
		c.request("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
		for _, d := range ds {
			var actions []CodeAction
			c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": d.Range,
				"context": map[string]any{"diagnostics": []Diagnostic{d}}}, &actions)
			for _, a := range actions {
				if got := applyEdits(t, text, a.Edit.Changes[uri]); got == text {
					t.Errorf("%q changes nothing", a.Title)
				}
			}
		}
	}
}
