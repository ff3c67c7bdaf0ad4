package lsp

import (
	"sort"
	"strings"
	"testing"
)

// applyEdits applies protocol edits to text, as a client does: every range
// is in the text before any edit.
func applyEdits(t *testing.T, text string, edits []TextEdit) string {
	t.Helper()
	li := NewLineIndex([]byte(text))
	type span struct {
		start, end int
		text       string
	}
	var spans []span
	for _, e := range edits {
		spans = append(spans, span{li.Offset(e.Range.Start), li.Offset(e.Range.End), e.NewText})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			t.Fatalf("edits overlap: %+v", edits)
		}
	}
	for i := len(spans) - 1; i >= 0; i-- {
		text = text[:spans[i].start] + spans[i].text + text[spans[i].end:]
	}
	return text
}

func TestFormatting(t *testing.T) {
	messy := "task t \"é 中 😀\" {\n    driver browser\n  input q: text = \"中\"   # é\n\n\n" +
		"  anchor box = textbox(name:\"é 中 😀\",id:\"q\")\n  op1 = type(box,q)\n  op22 = click(button(name: \"Go\"))  # 😀 go\n}\n"
	canonical := "task t \"é 中 😀\" {\n  driver browser\n  input q: text = \"中\"  # é\n\n" +
		"  anchor box = textbox(name: \"é 中 😀\", id: \"q\")\n  op1  = type(box, q)\n  op22 = click(button(name: \"Go\"))  # 😀 go\n}\n"
	cases := []struct {
		name, text, want string
		maxEdits         int // the edits are minimal: at most this many
	}{
		{"messy, comments kept", messy, canonical, 4},
		{"canonical already", canonical, canonical, 0},
		{"no final line break", strings.TrimSuffix(canonical, "\n"), canonical, 1},
		{"one line changed after 😀", strings.Replace(canonical, "op1  = type(box, q)", "op1 = type( box,q )", 1), canonical, 2},
		// A syntax error elsewhere: no edits, the text stays as it is.
		{"syntax error", strings.Replace(messy, "op1 = type(box,q)", "op1 = type(box,q", 1), strings.Replace(messy, "op1 = type(box,q)", "op1 = type(box,q", 1), 0},
	}
	c := newTestClient(t, "", Options{})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			uri := c.open(string(rune('a'+i))+".cog", tc.text)
			var edits []TextEdit
			c.request("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri},
				"options": map[string]any{"tabSize": 2, "insertSpaces": true}}, &edits)
			if edits == nil {
				t.Fatalf("null result, want a list")
			}
			if len(edits) > tc.maxEdits {
				t.Errorf("%d edits, want at most %d: %+v", len(edits), tc.maxEdits, edits)
			}
			if got := applyEdits(t, tc.text, edits); got != tc.want {
				t.Errorf("formatted:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// The edits of a change in one line touch that line only, with its
// position after 😀 counted in UTF-16 units.
func TestFormattingEditsAreLineLocal(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text := "task t {\n  driver browser\n  op1 = click(button(name: \"😀\"))\n  op2 = click(button(name:\"é\"))\n}\n"
	uri := c.open("a.cog", text)
	var edits []TextEdit
	c.request("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri}, "options": map[string]any{}}, &edits)
	if len(edits) != 1 || edits[0].Range.Start.Line != 3 || edits[0].Range.End.Line != 4 || edits[0].Range.Start.Character != 0 {
		t.Fatalf("edits %+v, want one replacing line 3", edits)
	}
	if edits[0].NewText != "  op2 = click(button(name: \"é\"))\n" {
		t.Errorf("new text %q", edits[0].NewText)
	}
}
