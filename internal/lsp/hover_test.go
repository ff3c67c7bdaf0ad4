package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/stdlib"
)

// navSrc is a file with é, 中 and 😀 before most of the places the tests
// point at, so that a position counted in bytes or runes lands elsewhere.
const navSrc = `# é 中 😀 a file to hover over
task t "é 中 😀" {
  driver browser
  input keyword: text = "é中😀"
  anchor box = textbox(name: "é 中 😀", id: "q")

  op1 = open("http://127.0.0.1:8088/wiki")
  op2 = type(box, keyword)  # é 中 😀
  op3 = select_text(extract_information<"é 中 😀 the intro">(op2))
  op4 = type(textbox(name: "é 中 😀"), summarize<"é 中 😀 in one sentence">(op3))
  op5 = type(textbox(name: "é 中 😀"), upper(op4))
  for row in rows(table(name: "é 中 😀")) {
    op6 = click(row.cell("Title"))
    op7 = greet(row, keyword)
  }
}

skill greet(who: element, name: text) {
  s1 = type(who, name)
}
`

// navBroken is navSrc with a syntax error in the middle: what parsed
// around it must still answer.
var navBroken = strings.Replace(navSrc, "\n\n  op1", "\n  zz = click(((   # é 中 😀\n  op1", 1)

// navAt is the protocol position of the n-th (from 0) occurrence of
// marker in text, plus skip bytes into it, computed independently of
// LineIndex: line by counting '\n', character by encoding the line's
// prefix to UTF-16.
func navAt(t *testing.T, text, marker string, n, skip int) Position {
	t.Helper()
	off := -1
	for i, from := 0, 0; i <= n; i++ {
		j := strings.Index(text[from:], marker)
		if j < 0 {
			t.Fatalf("marker %q #%d not in the text", marker, n)
		}
		off = from + j
		from = off + 1
	}
	off += skip
	lineStart := strings.LastIndexByte(text[:off], '\n') + 1
	return Position{Line: uint32(strings.Count(text[:off], "\n")), Character: uint32(len(utf16.Encode([]rune(text[lineStart:off]))))}
}

func navPosParams(uri string, p Position) map[string]any {
	return pos(uri, p.Line, p.Character)
}

func TestHover(t *testing.T) {
	cases := []struct {
		name   string
		marker string
		n      int // occurrence
		skip   int
		want   []string // in the hover's text
		range_ string   // the text the hover's range covers
	}{
		{"dependency", "summarize<", 0, 3, []string{"information_comprehension.summarize → text", "Examples:", "summarize<", "default knowledge base"}, "summarize"},
		{"dependency description", "in one sentence", 0, 2, []string{"information_comprehension.summarize"}, "summarize"},
		{"dependency recall", "extract_information", 0, 0, []string{"information_recall.extract_information"}, "extract_information"},
		{"step name", "op2 =", 0, 1, []string{"op2 = type(box, keyword)", "step op2: text", "type(target: element, text: text) text", "type text into the element"}, "op2"},
		{"action callee", "type(box", 0, 1, []string{"type(target: element, text: text) text"}, "type"},
		{"input reference", "keyword)", 0, 2, []string{"input keyword: text — line 4", `input keyword: text = "é中😀"`}, "keyword"},
		{"anchor reference", "box,", 0, 0, []string{"anchor box: element — line 5", `anchor box = textbox(name: "é 中 😀", id: "q")`}, "box"},
		{"step reference after emoji", "(op4))", 0, 2, []string{"step op4: text — line 10"}, "op4"},
		{"function after emoji", "upper(", 0, 2, []string{"upper(str: text) text", "upper"}, "upper"},
		{"loop variable", "row.cell", 0, 1, []string{"loop variable row — line 12", "for row in rows("}, "row"},
		{"skill call", "greet(row", 0, 2, []string{"skill greet — line 18", "skill greet(who: element, name: text) {"}, "greet"},
		{"parameter", "who, name", 0, 0, []string{"parameter who: element — line 18"}, "who"},
		{"element constructor", "table(name", 0, 1, []string{"element constructor", "Attributes: class: text, css: text, description: text", "within: element, xpath: text."}, "table"},
		{"step running a skill", "op7 =", 0, 0, []string{"greet(who: element, name: text)", "runs skill greet, declared at line 18"}, "op7"},
	}
	for _, src := range []struct{ name, text string }{{"ok", navSrc}, {"syntax error", navBroken}} {
		c := newTestClient(t, "", Options{})
		uri := c.open("h.cog", src.text)
		navWantSyntaxError(t, c, uri, src.text)
		for _, tc := range cases {
			t.Run(src.name+"/"+tc.name, func(t *testing.T) {
				var h *Hover
				c.request("textDocument/hover", navPosParams(uri, navAt(t, src.text, tc.marker, tc.n, tc.skip)), &h)
				if h == nil {
					t.Fatal("no hover")
				}
				if h.Contents.Kind != "markdown" {
					t.Errorf("kind %s, want markdown (the client supports it)", h.Contents.Kind)
				}
				text := strings.ReplaceAll(h.Contents.Value, `\`, "") // markdown escapes
				for _, w := range tc.want {
					if !strings.Contains(text, w) {
						t.Errorf("hover lacks %q:\n%s", w, h.Contents.Value)
					}
				}
				start := navAt(t, src.text, tc.marker, tc.n, strings.Index(tc.marker, tc.range_))
				if tc.marker != tc.range_ && !strings.HasPrefix(tc.marker, tc.range_) {
					start = h.Range.Start // the range is elsewhere on the line: checked by length only
				}
				if h.Range == nil || h.Range.Start != start || h.Range.End.Character-h.Range.Start.Character != uint32(len(utf16.Encode([]rune(tc.range_)))) {
					t.Errorf("range %+v, want %q at %+v", h.Range, tc.range_, start)
				}
			})
		}
		// Nothing to say: white space, a keyword, a string.
		for _, p := range []Position{{Line: 5, Character: 0}, navAt(t, src.text, "driver", 0, 1), navAt(t, src.text, "Title", 0, 1)} {
			var h *Hover
			c.request("textDocument/hover", navPosParams(uri, p), &h)
			if h != nil {
				t.Errorf("%s: hover at %+v: %q, want null", src.name, p, h.Contents.Value)
			}
		}
	}
}

// TestHoverPlaintext: a client that does not list markdown gets plain text,
// without markdown's fences and escapes.
func TestHoverPlaintext(t *testing.T) {
	c := newTestClientWith(t, "", Options{}, map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"plaintext"}}}})
	uri := c.open("h.cog", navSrc)
	var h *Hover
	c.request("textDocument/hover", navPosParams(uri, navAt(t, navSrc, "summarize<", 0, 0)), &h)
	if h == nil || h.Contents.Kind != "plaintext" {
		t.Fatalf("hover %+v, want plaintext", h)
	}
	if strings.Contains(h.Contents.Value, "```") || strings.Contains(h.Contents.Value, `\_`) || !strings.Contains(h.Contents.Value, "information_comprehension.summarize") {
		t.Errorf("plaintext hover:\n%s", h.Contents.Value)
	}
}

// TestHoverProjectKB: a dependency in a project with its own knowledge
// base is explained from that file, a subcategory the default lacks.
func TestHoverProjectKB(t *testing.T) {
	dir := t.TempDir()
	kbText := strings.Replace(navDefaultKB(t), `  subcategory "summarize" {`,
		"  subcategory \"haiku\" {\n    definition = \"Write a haiku about the input é 中 😀.\"\n    examples = [\n      \"haiku<\\\"a haiku about the page\\\">(op1)\",\n      \"haiku<\\\"a haiku about the title\\\">(op2)\",\n    ]\n  }\n\n  subcategory \"summarize\" {", 1)
	navWrite(t, dir+"/.cogflow/knowledge.hcl", kbText)
	c := newTestClient(t, dir, Options{})
	src := strings.Replace(navSrc, "summarize<", "haiku<", 1)
	uri := c.open("h.cog", src)
	var h *Hover
	c.request("textDocument/hover", navPosParams(uri, navAt(t, src, "haiku<", 0, 1)), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "Write a haiku about the input é 中 😀.") || !strings.Contains(h.Contents.Value, "knowledge.hcl") {
		t.Fatalf("hover %+v", h)
	}
}

func navDefaultKB(t *testing.T) string {
	t.Helper()
	if !strings.Contains(string(stdlib.KnowledgeHCL), `  subcategory "summarize" {`) {
		t.Fatal("the default knowledge base has no summarize block to insert before")
	}
	return string(stdlib.KnowledgeHCL)
}

func navWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// navWantSyntaxError checks that the broken variant of a test file really
// is broken (its error on the zz line), and the good one clean.
func navWantSyntaxError(t *testing.T, c *testClient, uri, text string) {
	t.Helper()
	ds := c.diagnostics(uri, 1)
	broken := strings.Contains(text, "zz = click(((")
	if !broken {
		if len(ds) != 0 {
			t.Fatalf("the test file has diagnostics: %v", ds)
		}
		return
	}
	line := navAt(t, text, "zz = click", 0, 0).Line
	for _, d := range ds {
		if d.Range.Start.Line == line && d.Severity == SeverityError {
			return
		}
	}
	t.Fatalf("no syntax error on line %d: %v", line, ds)
}

// TestHoverUnknownSubcategory: a subcategory the knowledge base lacks says
// so, with its main category's definition when one is written.
func TestHoverUnknownSubcategory(t *testing.T) {
	c := newTestClient(t, "", Options{})
	src := strings.Replace(navSrc, "summarize<", "information_comprehension.summarise<", 1)
	uri := c.open("h.cog", src)
	var h *Hover
	c.request("textDocument/hover", navPosParams(uri, navAt(t, src, "summarise<", 0, 2)), &h)
	if h == nil {
		t.Fatal("no hover")
	}
	text := strings.ReplaceAll(h.Contents.Value, `\`, "")
	for _, w := range []string{"information_comprehension.summarise is not a subcategory of the default knowledge base", "information_comprehension (main category, result text): Understand"} {
		if !strings.Contains(text, w) {
			t.Errorf("hover lacks %q:\n%s", w, text)
		}
	}
}

// Lines from cogflow (a node's, a journal's) count "\n" only; the
// protocol's lines also end at a lone "\r": each is read as its own.
func TestCogflowLinesAfterLoneCR(t *testing.T) {
	text := "task t {\r  driver browser\n  op1 = back()\n}\n"
	d := analyze("file:///l.cog", "/l.cog", 1, []byte(text), nil, "")
	if got := navLine(d, 2); got != "  op1 = back()" {
		t.Errorf("navLine(2) = %q, want the step's line", got)
	}
	if got := navLine(d, 9); got != "" {
		t.Errorf("navLine past the end = %q", got)
	}
	// A journal's step that is no longer in the file: its line, line 2 for
	// cogflow, is the protocol's line 2 (0-based) after the lone "\r".
	if got := stepRange(d, &journal.Position{Task: "t", Step: "gone", Line: 2}); got.Start.Line != 2 {
		t.Errorf("stepRange of line 2 starts on protocol line %d, want 2", got.Start.Line)
	}
}
