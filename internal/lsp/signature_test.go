package lsp

import (
	"strings"
	"testing"
	"unicode/utf16"
)

func TestSignatureHelp(t *testing.T) {
	// typing puts a call being written into navSrc, before the loop, with
	// é 中 😀 before the cursor: the line does not parse.
	typing := func(partial string) string {
		return strings.Replace(navSrc, "  for row in", "  op8 = "+partial+"\n  for row in", 1)
	}
	cases := []struct {
		name   string
		text   string
		at     navMark
		label  string // "" means no help
		active string // the active parameter's text in the label; "" means none
	}{
		{"first argument", navSrc, navMark{"type(box", 0, 5}, "type(target: element, text: text) text", "target: element"},
		{"second argument", navSrc, navMark{"keyword)", 0, 3}, "type(target: element, text: text) text", "text: text"},
		{"after a nested call and emoji", navSrc, navMark{"upper(op4))", 0, 0}, "type(target: element, text: text) text", "text: text"},
		{"function after emoji", navSrc, navMark{"(op4))", 0, 2}, "upper(str: text) text", "str: text"},
		{"skill", navSrc, navMark{"keyword)\n  }", 0, 0}, "greet(who: element, name: text)", "name: text"},
		{"element constructor", navSrc, navMark{`"q")`, 0, 0}, "", ""},
		{"dependency inputs", navSrc, navMark{"(op3))", 0, 2}, "", ""},
		{"comment", navSrc, navMark{"# é 中 😀\n  op3", 0, 5}, "", ""},
		{"typing: open paren", typing(`type(textbox(name: "é 中 😀"), `), navMark{`😀"), ` + "\n", 0, len(`😀"), `)}, "type(target: element, text: text) text", "text: text"},
		{"typing: named option", typing(`click(box, button: `), navMark{"button: \n", 0, 8}, "click(target: element, button?: text) element", "button?: text"},
		{"typing: optional", typing(`scroll(box, "é", `), navMark{`"é", ` + "\n", 0, 6}, "scroll(target?: element, direction?: text, amount?: number, x?: number, y?: number)", "amount?: number"},
		{"typing: common option", typing(`click(box, timeout: `), navMark{"timeout: \n", 0, 9}, "click(target: element, button?: text) element", ""},
		{"typing: too many", typing(`enter(box, box, `), navMark{"box, box, \n", 0, 10}, "enter(target?: element)", ""},
		{"typing: variadic", typing(`type(box, join("é", [op1], [op2], `), navMark{"[op2], \n", 0, 7}, "join(separator: text, lists: ...list<text>) text", "lists: ...list<text>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t, "", Options{})
			uri := c.open("s.cog", tc.text)
			var h *SignatureHelp
			c.request("textDocument/signatureHelp", navPosParams(uri, tc.at.at(t, tc.text)), &h)
			if tc.label == "" {
				if h != nil {
					t.Fatalf("help %+v, want null", h)
				}
				return
			}
			if h == nil || len(h.Signatures) != 1 {
				t.Fatalf("help %+v, want %s", h, tc.label)
			}
			sig := h.Signatures[0]
			if sig.Label != tc.label {
				t.Errorf("label %q, want %q", sig.Label, tc.label)
			}
			got := ""
			if int(h.ActiveParameter) < len(sig.Parameters) {
				l := sig.Parameters[h.ActiveParameter].Label
				units := utf16.Encode([]rune(sig.Label))
				got = string(utf16.Decode(units[l[0]:l[1]]))
			}
			if got != tc.active {
				t.Errorf("active parameter %q, want %q", got, tc.active)
			}
		})
	}
}
