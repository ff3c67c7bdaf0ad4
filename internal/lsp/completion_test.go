package lsp

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/syntax"
)

// completionSrc has a line marked ‸LINE‸ that each case replaces with the
// line being typed; ‸ in that line is the cursor.
const completionSrc = `skill greet(who: text) {
  g1 = type(textbox(name: "Hello"), who)
‸SKILL‸
}

task t "é 中 😀" {
  driver browser
  input query: text = "é中😀"
  anchor box = textbox(name: "Search", id: "q")
  op1 = type(box, query)
  for row in rows(table(name: "T")) {
    inner = click(row)
‸INNER‸
  }
  op2 = click(button(name: "Go"))
‸LINE‸
  later = click(box)
}
‸TOP‸
`

// cursorDoc puts line at the marker where (the other markers vanish) and
// returns the text and the cursor's position in UTF-16 units.
func cursorDoc(t *testing.T, where, line string) (string, Position) {
	t.Helper()
	text := completionSrc
	for _, m := range []string{"‸LINE‸", "‸INNER‸", "‸TOP‸", "‸SKILL‸"} {
		if m == where {
			text = strings.Replace(text, m, line, 1)
		} else {
			text = strings.Replace(text, m, "", 1)
		}
	}
	at := strings.Index(text, "‸")
	if at < 0 {
		t.Fatalf("no cursor in %q", line)
	}
	text = text[:at] + text[at+len("‸"):]
	return text, NewLineIndex([]byte(text)).Position(at)
}

func labels(items []CompletionItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Label
	}
	return out
}

func TestCompletion(t *testing.T) {
	cases := []struct {
		name, where, line string
		want, not         []string
		notVars           []string          // not offered as names in scope
		detail            map[string]string // label → part of its detail
		doc               map[string]string // label → part of its documentation
	}{
		{name: "step value: actions and skills", where: "‸LINE‸", line: "  op3 = cl‸",
			want: []string{"click", "type", "greet"}, not: []string{"query", "button", "if"},
			detail: map[string]string{"click": "click(target: element, button?: text", "greet": "skill greet(who: text)"}},
		{name: "first argument of an action: names in scope", where: "‸LINE‸", line: "  op3 = click(‸",
			want: []string{"query", "box", "op1", "op2", "button", "button:", "dialog:", "summarize", "rows", "exists"},
			not:  []string{"inner", "later", "op3", "g1", "who"}, notVars: []string{"row"}, // row is also a constructor
			detail: map[string]string{"query": "input: text", "op1": "step: text", "box": "anchor: element",
				"rows": "rows(", "summarize": "information_comprehension.summarize"}},
		{name: "element attributes", where: "‸LINE‸", line: "  op3 = click(button(na‸",
			want: []string{"name:", "id:", "within:"}, not: []string{"click"}},
		{name: "attributes not given yet, after 😀", where: "‸LINE‸", line: "  op3 = click(button(name: \"é 中 😀\", ‸",
			want: []string{"id:", "within:", "text:"}, not: []string{"name:", "query"}},
		{name: "within: elements only", where: "‸LINE‸", line: "  op3 = click(button(name: \"é\", within: ‸",
			want: []string{"box", "list", "table"}, not: []string{"query", "op1", "rows"}},
		{name: "subcategory with its definition", where: "‸LINE‸", line: "  op3 = type(box, summ‸",
			want: []string{"summarize", "replace"},
			doc:  map[string]string{"summarize": "Condense a text to its main points"}},
		{name: "after <: example descriptions", where: "‸LINE‸", line: "  op3 = type(box, summarize<‸",
			want: []string{`"summarize the selected paragraph in one sentence"`}, not: []string{"click"}},
		{name: "inside the quotes of a description after 中", where: "‸LINE‸", line: "  op3 = type(box, summarize<\"中 the‸",
			want: []string{"summarize the selected paragraph in one sentence"}, not: []string{"query"}},
		{name: "main category's subcategories", where: "‸LINE‸", line: "  op3 = type(box, information_comprehension.‸",
			want: []string{"summarize", "translate"}, not: []string{"repeat", "query"}},
		{name: "statement start: keywords and snippets", where: "‸LINE‸", line: "  ‸",
			want:   []string{"for", "if", "if else", "repeat", "while", "until", "try", "explore", "anchor", "confirm"},
			not:    []string{"task", "click"},
			detail: map[string]string{"while": "max:", "try": "fallback"}},
		{name: "loop body: its variable and earlier steps", where: "‸INNER‸", line: "    x = type(box, ‸",
			want: []string{"row", "inner", "op1", "query"}, not: []string{"op2", "later"},
			detail: map[string]string{"row": "loop variable"}},
		{name: "skill body: its parameters", where: "‸SKILL‸", line: "  g2 = type(textbox(name: \"😀\"), ‸",
			want: []string{"who", "g1"}, not: []string{"query", "op1", "box"}, detail: map[string]string{"who": "parameter: text"}},
		{name: "while options", where: "‸LINE‸", line: "  while exists(box), ‸", want: []string{"max:", "within:"}, not: []string{"budget:", "query"}},
		{name: "explore option", where: "‸LINE‸", line: "  explore \"the é screen\", ‸", want: []string{"budget:"}, not: []string{"max:"}},
		{name: "an element's properties and methods", where: "‸INNER‸", line: "    x = type(box, row.‸",
			want: []string{"text", "value", "cell", "checked"}, not: []string{"query", "title"},
			detail: map[string]string{"cell": "cell(header: text) → element", "text": "element.text: text"}},
		{name: "a window's properties", where: "‸LINE‸", line: "  w = open(\"http://127.0.0.1:1/\")\n  op3 = type(box, w.‸",
			want: []string{"title", "url"}, not: []string{"cell", "text"}},
		{name: "top level: task", where: "‸TOP‸", line: "ta‸", want: []string{"task", "skill"}, not: []string{"query", "click", "for"}},
		{name: "driver", where: "‸LINE‸", line: "  driver ‸", want: []string{"browser", "android", "uia"}, not: []string{"click"}},
		{name: "input type", where: "‸LINE‸", line: "  input n: ‸", want: []string{"text", "number", "secret"}, not: []string{"click"}},
		{name: "anchor value: constructors", where: "‸LINE‸", line: "  anchor a = tex‸", want: []string{"textbox", "link"}, not: []string{"click", "query"}},
		{name: "after a closing brace", where: "‸INNER‸", line: "    if true {\n    } ‸", want: []string{"else", "fallback"}},
		{name: "step value after a lone CR", where: "‸LINE‸", line: "  op0 = back()\r  op3 = cl‸",
			want: []string{"click", "type"}, not: []string{"query", "button"}},
		{name: "comment: nothing", where: "‸LINE‸", line: "  # op3 = click(‸", not: []string{"click", "query", "button"}},
		{name: "plain string: nothing", where: "‸LINE‸", line: "  op3 = click(button(name: \"qu‸", not: []string{"query", "name:"}},
	}
	c := newTestClient(t, "", Options{})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text, at := cursorDoc(t, tc.where, tc.line)
			uri := c.open("c"+string(rune('a'+i))+".cog", text)
			var list CompletionList
			c.request("textDocument/completion", pos(uri, at.Line, at.Character), &list)
			got := labels(list.Items)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("%q not offered; got %v", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%q offered, should not be", n)
				}
			}
			for _, it := range list.Items {
				if it.Kind == kindVariable && slices.Contains(tc.notVars, it.Label) {
					t.Errorf("%s offered as a name in scope", it.Label)
				}
			}
			for label, want := range tc.detail {
				if !slices.ContainsFunc(list.Items, func(it CompletionItem) bool { return it.Label == label && strings.Contains(it.Detail, want) }) {
					t.Errorf("no %s whose detail contains %q", label, want)
				}
			}
			for label, want := range tc.doc {
				if !slices.ContainsFunc(list.Items, func(it CompletionItem) bool {
					return it.Label == label && it.Documentation != nil && strings.Contains(it.Documentation.Value, want)
				}) {
					t.Errorf("no %s whose documentation contains %q", label, want)
				}
			}
			for _, it := range list.Items {
				// Every edit replaces what was typed, up to the cursor, on
				// the cursor's line.
				if it.TextEdit == nil || it.TextEdit.Range.End != at || it.TextEdit.Range.Start.Line != at.Line || it.TextEdit.Range.Start.Character > at.Character {
					t.Fatalf("%s: edit %+v, want one ending at the cursor %v", it.Label, it.TextEdit, at)
				}
			}
		})
	}
}

// The edit's range counts UTF-16 units: it starts where the typed word
// starts, after é, 中 and 😀 (😀 is two units).
func TestCompletionRangeUTF16(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text, at := cursorDoc(t, "‸LINE‸", "  op3 = type(textbox(name: \"é中😀\"), que‸")
	uri := c.open("u.cog", text)
	var list CompletionList
	c.request("textDocument/completion", pos(uri, at.Line, at.Character), &list)
	for _, it := range list.Items {
		if it.Label != "query" {
			continue
		}
		line := `  op3 = type(textbox(name: "é中😀"), `
		want := Position{Line: at.Line, Character: uint32(len(utf16Units(line)))}
		if it.TextEdit.Range.Start != want || it.TextEdit.NewText != "query" {
			t.Fatalf("edit %+v, want %v-%v → query", it.TextEdit, want, at)
		}
		if at.Character != want.Character+3 {
			t.Fatalf("cursor at %v", at)
		}
		return
	}
	t.Fatalf("query not offered: %v", labels(list.Items))
}

// Changing a name before its parentheses inserts the name alone.
func TestCompletionBeforeParentheses(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text, at := cursorDoc(t, "‸LINE‸", "  op3 = cl‸(button(name: \"é\"))")
	uri := c.open("p.cog", text)
	var list CompletionList
	c.request("textDocument/completion", pos(uri, at.Line, at.Character), &list)
	for _, it := range list.Items {
		if it.Label == "click" {
			if it.TextEdit.NewText != "click" || it.InsertTextFormat != formatPlain {
				t.Errorf("click inserts %q (format %d), want the name alone", it.TextEdit.NewText, it.InsertTextFormat)
			}
			return
		}
	}
	t.Fatal("click not offered")
}

// Snippets are snippets (format 2) with placeholders; keywords offered are
// the parser's.
func TestCompletionSnippetsAndKeywords(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text, at := cursorDoc(t, "‸LINE‸", "  ‸")
	uri := c.open("s.cog", text)
	var list CompletionList
	c.request("textDocument/completion", pos(uri, at.Line, at.Character), &list)
	snippets := 0
	for _, it := range list.Items {
		switch it.Kind {
		case kindSnippet:
			snippets++
			if it.InsertTextFormat != formatSnippet || !strings.Contains(it.TextEdit.NewText, "$1") && !strings.Contains(it.TextEdit.NewText, "${1") {
				t.Errorf("snippet %s: format %d, text %q", it.Label, it.InsertTextFormat, it.TextEdit.NewText)
			}
		case kindKeyword:
			if !syntax.Keywords[it.Label] {
				t.Errorf("%s is offered as a keyword but the parser has no such keyword", it.Label)
			}
		}
	}
	if snippets < 8 {
		t.Errorf("%d snippets", snippets)
	}
}

// A syntax error elsewhere (an unclosed call two lines up, a broken
// statement) leaves the rest of the tree serving completion.
func TestCompletionWithSyntaxErrorElsewhere(t *testing.T) {
	c := newTestClient(t, "", Options{})
	text, at := cursorDoc(t, "‸LINE‸", "  bad = click(((\n  op3 = type(box, ‸")
	uri := c.open("e.cog", text)
	if ds := c.diagnostics(uri, 1); len(ds) == 0 {
		t.Fatal("the file has no syntax error")
	}
	var list CompletionList
	c.request("textDocument/completion", pos(uri, at.Line, at.Character), &list)
	got := labels(list.Items)
	for _, w := range []string{"query", "box", "op1", "op2"} {
		if !slices.Contains(got, w) {
			t.Errorf("%s not offered; got %v", w, got)
		}
	}
	for _, n := range []string{"bad", "later", "inner"} {
		if slices.Contains(got, n) {
			t.Errorf("%s offered", n)
		}
	}
}

// A client without snippet support gets plain text (format 1), no snippet
// items, and calls without placeholders.
func TestCompletionWithoutSnippets(t *testing.T) {
	for _, line := range []string{"  ‸", "  op3 = cl‸", "  op3 = type(box, summ‸"} {
		text, at := cursorDoc(t, "‸LINE‸", line)
		d := analyze("file:///p.cog", "/p.cog", 1, []byte(text), nil, "")
		b := &itemBuilder{d: d, ctx: contextAt(d.Text, d.Offset(at)), off: d.Offset(at)}
		b.build()
		if len(b.items) == 0 {
			t.Fatalf("%q: no items", line)
		}
		for _, it := range b.items {
			if it.Kind == kindSnippet || it.InsertTextFormat != formatPlain || strings.ContainsAny(it.TextEdit.NewText, "${}") {
				t.Errorf("%q: %s: kind %d, format %d, text %q", line, it.Label, it.Kind, it.InsertTextFormat, it.TextEdit.NewText)
			}
		}
	}
}

// BenchmarkCompletion is one completion in a task of 2,000 steps, the
// document analyzed already (as after the debounce).
func BenchmarkCompletion(b *testing.B) {
	var src strings.Builder
	src.WriteString("task big {\n  driver browser\n  input q: text = \"x\"\n")
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&src, "  op%d = type(textbox(name: \"é %d\"), q)\n", i, i)
	}
	src.WriteString("  op9999 = type(textbox(name: \"x\"), op1\n}\n")
	text := []byte(src.String())
	d := analyze("file:///big.cog", "/big.cog", 1, text, nil, "")
	off := len(text) - len("\n}\n")
	b.ResetTimer()
	for b.Loop() {
		ib := &itemBuilder{d: d, ctx: contextAt(d.Text, off), off: off, snippets: true}
		ib.build()
		if len(ib.items) < 2000 {
			b.Fatalf("%d items", len(ib.items))
		}
	}
}

// Completion answers at every position of files with and without errors,
// never failing (a panic would come back as an internal error).
func TestCompletionEveryPosition(t *testing.T) {
	c := newTestClient(t, "", Options{})
	texts := []string{
		strings.NewReplacer("‸LINE‸", "  op3 = click(button(name: \"é\", within: list(", "‸INNER‸", "", "‸TOP‸", "task", "‸SKILL‸", "  x = summarize<\"中").Replace(completionSrc),
		"task t {\n  for x in rows(table(name: \"😀\"))[1:] {\n    if x.text == \"a\" { y = click(x) } else {\n  }\n  while exists(",
		"",
		"\"unclosed\n# comment ( [ {\n}}}}\n",
	}
	for i, text := range texts {
		uri := c.open(fmt.Sprintf("p%d.cog", i), text)
		li := NewLineIndex([]byte(text))
		for off := 0; off <= len(text); off++ {
			at := li.Position(off)
			var list CompletionList
			if err := c.requestErr("textDocument/completion", pos(uri, at.Line, at.Character), &list); err != nil {
				t.Fatalf("text %d at %v: %v", i, at, err)
			}
		}
	}
}

// Names in scope are those of the declaration the cursor is in: when the
// one being typed is missing from the partial tree (its header is broken),
// the task before it lends it none of its names.
func TestCompletionScopeOfABrokenDeclaration(t *testing.T) {
	const first = "task a {\n  driver browser\n  input fromA: text\n  opA = back()\n}\n\n"
	cases := []struct {
		name, text string
		want       []string
	}{
		{"skill with a broken header", first + "skill b(p: text {\n  op1 = type(textbox(name: \"é\"), ‸)\n}\n", nil},
		{"task without a driver name", first + "task b {\n  driver\n  op1 = type(textbox(name: \"😀\"), ‸)\n}\n", nil},
		{"unclosed task at the end", first + "task b {\n  driver browser\n  input q: text\n  op1 = type(textbox(name: \"中\"), ‸", []string{"q"}},
		{"unclosed loop at the end", first + "task b {\n  driver browser\n  input q: text\n  for x in [1] {\n  op1 = type(textbox(name: \"x\"), ‸", []string{"q"}},
		{"the first task", "task a {\n  driver browser\n  input fromA: text\n  op2 = type(textbox(name: \"x\"), ‸)\n}\n\ntask b {\n  driver browser\n}\n", []string{"fromA"}},
	}
	for _, tc := range cases {
		at := strings.Index(tc.text, "‸")
		text := tc.text[:at] + tc.text[at+len("‸"):]
		d := analyze("file:///s.cog", "/s.cog", 1, []byte(text), nil, "")
		var got []string
		for _, n := range namesInScope(d.File, d.Info, d.Text, at) {
			got = append(got, n.name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: names %q, want %q", tc.name, got, tc.want)
		}
	}
}
