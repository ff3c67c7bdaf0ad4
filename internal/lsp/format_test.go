package lsp

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
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

// bigMessy is a task of n steps, every other one out of layout.
func bigMessy(n int) []byte {
	var b strings.Builder
	b.WriteString("task big {\n  driver browser\n  input q: text = \"é\"\n")
	for i := 1; i <= n; i++ {
		if i%2 == 0 {
			fmt.Fprintf(&b, "  op%d = type(textbox(name:\"中 %d\"),q)\n", i, i)
		} else {
			fmt.Fprintf(&b, "  op%d = type(textbox(name: \"😀 %d\"), q)\n", i, i)
		}
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// BenchmarkFormatting is formatting's answer for 2,000 steps (parse,
// print, line diff); BenchmarkFormattingBaseline is `cogflow fmt`'s part
// of it (parse and print), the baseline to read it against.
func BenchmarkFormatting(b *testing.B) {
	d := analyze("file:///big.cog", "/big.cog", 1, bigMessy(2000), nil, "")
	for b.Loop() {
		if len(formatEdits(d)) == 0 {
			b.Fatal("no edits")
		}
	}
}

func BenchmarkFormattingBaseline(b *testing.B) {
	src := bigMessy(2000)
	for b.Loop() {
		f, _ := syntax.Parse("/big.cog", src)
		printer.Format(f)
	}
}

// The linear diff a big file takes gives edits that make the canonical
// text, as the exact one does.
func TestFormattingBigFile(t *testing.T) {
	src := bigMessy(2000)
	d := analyze("file:///big.cog", "/big.cog", 1, src, nil, "")
	edits := formatEdits(d)
	f, _ := syntax.Parse("/big.cog", src)
	if got, want := applyEdits(t, string(src), edits), string(printer.Format(f)); got != want {
		t.Fatalf("the edits do not give cogflow fmt's text")
	}
	// As few lines changed as the exact diff finds.
	a, b := splitLinesKeep(src), splitLinesKeep(printer.Format(f))
	if w, x := changed(windowHunks(a, b)), changed(diffHunks(a, b)); w > x {
		t.Errorf("the linear diff changes %d lines, the exact one %d", w, x)
	}
	for _, h := range [][2][]string{
		{{"a", "b", "c"}, {"a", "x", "c"}},
		{{"a", "b"}, {"b", "a"}},
		{{}, {"x", "y"}},
		{{"x", "y"}, {}},
		{{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"}, {"0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "11"}},
	} {
		a, b := h[0], h[1]
		var out []string
		i := 0
		for _, hk := range windowHunks(a, b) {
			out = append(out, a[i:hk.a0]...)
			out = append(out, b[hk.b0:hk.b1]...)
			i = hk.a1
		}
		out = append(out, a[i:]...)
		if strings.Join(out, ",") != strings.Join(b, ",") {
			t.Errorf("windowHunks(%q, %q) makes %q", a, b, out)
		}
	}
}

func changed(hs []hunk) int {
	n := 0
	for _, h := range hs {
		n += h.a1 - h.a0 + h.b1 - h.b0
	}
	return n
}
