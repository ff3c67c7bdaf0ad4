package lsp

import (
	"fmt"
	"strings"
	"testing"
)

// Every "did you mean" the checker writes (lang/check's hint, and the
// knowledge base's subcategories) becomes an action that replaces exactly
// the misspelled name, and the fixed file no longer has that diagnostic.
func TestCodeActionsEverySuggestionFormat(t *testing.T) {
	const head = "task t \"é 中 😀\" {\n  driver browser\n  input name: text = \"é中😀\"\n"
	cases := []struct{ name, bad, good, diag string }{
		{"type", "  input n: nmber\n", "  input n: number\n", "unknown type nmber"},
		{"list element type", "  input n: list<nmber>\n", "  input n: list<number>\n", "unknown type nmber"},
		{"action", "  op1 = clck(button(name: name))\n", "  op1 = click(button(name: name))\n", "unknown action or function clck"},
		{"parameter", "  op1 = click(button(name: name), buton: \"left\")\n", "  op1 = click(button(name: name), button: \"left\")\n", "has no parameter buton"},
		{"attribute", "  op1 = click(button(nam: name))\n", "  op1 = click(button(name: name))\n", "unknown element attribute nam"},
		{"property", "  op1 = type(textbox(name: \"é\"), button(name: name).txt)\n", "  op1 = type(textbox(name: \"é\"), button(name: name).text)\n", "has no property txt"},
		{"method", "  op1 = click(table(name: name).cel(\"A\"))\n", "  op1 = click(table(name: name).cell(\"A\"))\n", "has no method cel"},
		{"main category", "  op1 = type(textbox(name: \"😀\"), informaton_comprehension.summarize<\"in one line\">(name))\n",
			"  op1 = type(textbox(name: \"😀\"), information_comprehension.summarize<\"in one line\">(name))\n", "unknown main category"},
		{"subcategory", "  op1 = type(textbox(name: \"😀\"), sumarize<\"in one line\">(name))\n",
			"  op1 = type(textbox(name: \"😀\"), summarize<\"in one line\">(name))\n", "unknown subcategory sumarize"},
		{"key in a chord, after é", "  op1 = key(\"Ctrl+Entr\", target: textbox(name: \"é\"))\n", "  op1 = key(\"Ctrl+Enter\", target: textbox(name: \"é\"))\n", "unknown key"},
		{"key alone", "  op1 = key(\"Escap\")\n", "  op1 = key(\"Escape\")\n", "unknown key"},
		{"name", "  op1 = type(textbox(name: \"😀\"), nme)\n", "  op1 = type(textbox(name: \"😀\"), name)\n", "undefined name nme"},
	}
	c := newTestClient(t, "", Options{})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text := head + tc.bad + "}\n"
			uri := c.open(fmt.Sprintf("f%d.cog", i), text)
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
			var actions []CodeAction
			c.request("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": target.Range,
				"context": map[string]any{"diagnostics": []Diagnostic{*target}}}, &actions)
			want := head + tc.good + "}\n"
			var titles []string
			for _, a := range actions {
				titles = append(titles, a.Title)
				if strings.HasPrefix(a.Title, "Change to ") && applyEdits(t, text, a.Edit.Changes[uri]) == want {
					return
				}
			}
			t.Errorf("no action gives the fix; actions %q, suggestion %v", titles, target.Data)
		})
	}
}
