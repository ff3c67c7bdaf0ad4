package lsp

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// navDecode turns the encoded integers back into "text type+mods" per
// token, by line, reading each token's text out of the source through
// UTF-16: a wrong delta, start or length shows as wrong text.
func navDecode(t *testing.T, text string, data []uint32, legend []string) map[int][]string {
	t.Helper()
	if len(data)%5 != 0 {
		t.Fatalf("%d integers, not a multiple of 5", len(data))
	}
	lines := strings.Split(text, "\n")
	out := map[int][]string{}
	line, char := 0, 0
	for i := 0; i < len(data); i += 5 {
		if data[i] > 0 {
			line += int(data[i])
			char = int(data[i+1])
		} else {
			char += int(data[i+1])
		}
		if line >= len(lines) {
			t.Fatalf("token %d on line %d, past the end", i/5, line)
		}
		units := utf16.Encode([]rune(lines[line]))
		end := char + int(data[i+2])
		if end > len(units) {
			t.Fatalf("token %d: %d:%d+%d is past the line %q", i/5, line, char, data[i+2], lines[line])
		}
		s := fmt.Sprintf("%s %s", string(utf16.Decode(units[char:end])), legend[data[i+3]])
		for b, m := range navTokenModifiers {
			if data[i+4]&(1<<b) != 0 {
				s += "+" + m
			}
		}
		out[line] = append(out[line], s)
	}
	return out
}

func TestSemanticTokens(t *testing.T) {
	c := newTestClient(t, "", Options{})
	var init struct {
		Capabilities struct {
			SemanticTokensProvider struct {
				Legend struct {
					TokenTypes []string `json:"tokenTypes"`
				} `json:"legend"`
				Full bool `json:"full"`
			} `json:"semanticTokensProvider"`
		} `json:"capabilities"`
	}
	// The legend as announced is what the client decodes with.
	c2 := newTestClient(t, "", Options{})
	c2.request("initialize", map[string]any{"capabilities": map[string]any{}}, &init)
	legend := init.Capabilities.SemanticTokensProvider.Legend.TokenTypes
	if !init.Capabilities.SemanticTokensProvider.Full || len(legend) == 0 {
		t.Fatalf("semantic tokens capability: %+v", init.Capabilities)
	}
	want := map[string][]string{
		`task t "é 中 😀" {`:                               {"task keyword", "t namespace+declaration", `"é 中 😀" string`},
		`  input keyword: text = "é中😀"`:                  {"input keyword", "keyword parameter+declaration+readonly", "text type", `"é中😀" string`},
		`  anchor box = textbox(name: "é 中 😀", id: "q")`: {"anchor keyword", "box property+declaration+readonly", "textbox class+defaultLibrary", `"é 中 😀" string`, `"q" string`},
		`  op2 = type(box, keyword)  # é 中 😀`:            {"op2 variable+declaration", "type function+defaultLibrary", "box property+readonly", "keyword parameter+readonly", "# é 中 😀 comment"},
		`  op4 = type(textbox(name: "é 中 😀"), summarize<"é 中 😀 in one sentence">(op3))`: {
			"op4 variable+declaration", "type function+defaultLibrary", "textbox class+defaultLibrary", `"é 中 😀" string`,
			"summarize macro", `<"é 中 😀 in one sentence"> string`, "op3 variable"},
		`  op5 = type(textbox(name: "é 中 😀"), upper(op4))`: {"op5 variable+declaration", "type function+defaultLibrary", "textbox class+defaultLibrary", `"é 中 😀" string`, "upper function+defaultLibrary", "op4 variable"},
		`  for row in rows(table(name: "é 中 😀")) {`:        {"for keyword", "row variable+declaration+readonly", "in keyword", "rows function+defaultLibrary", "table class+defaultLibrary", `"é 中 😀" string`},
		`    op7 = greet(row, keyword)`:                    {"op7 variable+declaration", "greet function", "row variable+readonly", "keyword parameter+readonly"},
		`skill greet(who: element, name: text) {`:          {"skill keyword", "greet function+declaration", "who parameter+declaration+readonly", "element type", "name parameter+declaration+readonly", "text type"},
	}
	for _, src := range []struct{ name, text string }{{"ok", navSrc}, {"syntax error", navBroken}} {
		uri := c.open(src.name+".cog", src.text)
		var toks SemanticTokens
		c.request("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &toks)
		got := navDecode(t, src.text, toks.Data, legend)
		for i, line := range strings.Split(src.text, "\n") {
			w, ok := want[line]
			if !ok {
				continue
			}
			if strings.Join(got[i], " | ") != strings.Join(w, " | ") {
				t.Errorf("%s: line %d %q:\n got %s\nwant %s", src.name, i, line, strings.Join(got[i], " | "), strings.Join(w, " | "))
			}
			delete(want, line)
		}
		if src.name == "ok" && len(want) != 0 {
			t.Fatalf("lines not in the source: %v", want)
		}
	}
}

// TestSemanticTokensSplitLines: a token that spans lines is sent as one
// token per line, each measured in UTF-16 units.
func TestSemanticTokensSplitLines(t *testing.T) {
	text := "ab \"é中\r\n😀x\"\nz"
	d := &Document{Text: []byte(text), Lines: NewLineIndex([]byte(text))}
	str := navTokenType("string")
	data := navEncode(d, []navTok{{start: 0, end: 2, typ: 0}, {start: 3, end: strings.Index(text, "\nz"), typ: str}, {start: len(text) - 1, end: len(text), typ: 1}})
	want := []uint32{
		0, 0, 2, 0, 0, // ab
		0, 3, 3, uint32(str), 0, // "é中 (the \r left out)
		1, 0, 4, uint32(str), 0, // 😀x" : 2+1+1 units
		1, 0, 1, 1, 0, // z
	}
	if fmt.Sprint(data) != fmt.Sprint(want) {
		t.Errorf("encoded %v, want %v", data, want)
	}
}

// A lone "\r" inside a token (a comment runs to "\n" only) is a line break
// for the client: the token is cut there, and the lines after it count it.
func TestSemanticTokensLoneCR(t *testing.T) {
	text := "# é\r😀 x\nab"
	d := &Document{Text: []byte(text), Lines: NewLineIndex([]byte(text))}
	cmt := navTokenType("comment")
	data := navEncode(d, []navTok{{start: 0, end: strings.IndexByte(text, '\n'), typ: cmt}, {start: len(text) - 2, end: len(text), typ: 0}})
	want := []uint32{
		0, 0, 3, uint32(cmt), 0, // # é
		1, 0, 4, uint32(cmt), 0, // 😀 x: 2+1+1 units
		1, 0, 2, 0, 0, // ab
	}
	if fmt.Sprint(data) != fmt.Sprint(want) {
		t.Errorf("encoded %v, want %v", data, want)
	}
}
