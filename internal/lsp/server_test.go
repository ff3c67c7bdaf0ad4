package lsp

import (
	"strings"
	"testing"
)

// A file whose error comes after é, 中 and 😀 on its line: the column the
// client receives counts UTF-16 units (é 1, 中 1, 😀 2), not bytes (2, 3, 4).
const unicodeSrc = `task t "é 中 😀" {
  driver browser
  input name: text = "é中😀"
  op1 = type(textbox(name: "é 中 😀"), nmae)
}
`

func TestDiagnosticsUTF16AndIncrementalFix(t *testing.T) {
	c := newTestClient(t, "", Options{})
	uri := c.open("a.cog", unicodeSrc)
	ds := c.diagnostics(uri, 1)
	var found *Diagnostic
	for i := range ds {
		if strings.Contains(ds[i].Message, "nmae") {
			found = &ds[i]
		}
	}
	if found == nil {
		t.Fatalf("no diagnostic about nmae in %v", ds)
	}
	// line 3: `  op1 = type(textbox(name: "é 中 😀"), nmae)`; before nmae:
	// 29 ASCII characters, then é, space, 中, space, 😀 (2 units), `"), `.
	line := `  op1 = type(textbox(name: "é 中 😀"), nmae)`
	want := uint32(len(utf16Units(line[:strings.Index(line, "nmae")])))
	if found.Range.Start.Line != 3 || found.Range.Start.Character != want || found.Range.End.Character != want+4 {
		t.Errorf("nmae at %v, want 3:%d-3:%d", found, want, want+4)
	}
	if len(found.RelatedInformation) == 0 || !strings.Contains(found.RelatedInformation[0].Message, "name") {
		t.Errorf("the suggestion is not related information: %+v", found.RelatedInformation)
	}
	// Fix it with an incremental edit of exactly the misspelled word.
	c.change(uri, 2, found.Range, "name")
	if ds := c.diagnostics(uri, 2); len(ds) != 0 {
		t.Errorf("after the fix: %v", ds)
	}
}

func utf16Units(s string) []uint16 {
	var out []uint16
	for _, r := range s {
		out = append(out, 0)
		if r >= 0x10000 {
			out = append(out, 0)
		}
	}
	return out
}

func TestLifecycleErrors(t *testing.T) {
	c := newTestClient(t, "", Options{})
	if err := c.requestErr("textDocument/noSuchThing", map[string]any{}, nil); err == nil || err.Code != CodeMethodNotFound {
		t.Errorf("unknown method: %v, want code %d", err, CodeMethodNotFound)
	}
	if err := c.requestErr("textDocument/hover", pos("file:///not/open.cog", 0, 0), nil); err == nil {
		t.Errorf("hover of a document not open: no error")
	}
}

func TestLineIndex(t *testing.T) {
	text := []byte("ab\né中😀x\r\nlast")
	li := NewLineIndex(text)
	cases := []struct {
		offset int
		pos    Position
	}{
		{0, Position{0, 0}},
		{2, Position{0, 2}},
		{3, Position{1, 0}},
		{5, Position{1, 1}},  // after é
		{8, Position{1, 2}},  // after 中
		{12, Position{1, 4}}, // after 😀
		{13, Position{1, 5}}, // after x
		{15, Position{2, 0}},
		{19, Position{2, 4}},
	}
	for _, tc := range cases {
		if got := li.Position(tc.offset); got != tc.pos {
			t.Errorf("Position(%d) = %v, want %v", tc.offset, got, tc.pos)
		}
		if got := li.Offset(tc.pos); got != tc.offset {
			t.Errorf("Offset(%v) = %d, want %d", tc.pos, got, tc.offset)
		}
	}
	// Past the line's end: the end of the line, before "\r\n".
	if got := li.Offset(Position{1, 99}); got != 13 {
		t.Errorf("Offset past the line = %d, want 13", got)
	}
	// Inside the surrogate pair of 😀: the start of 😀.
	if got := li.Offset(Position{1, 3}); got != 8 {
		t.Errorf("Offset inside a surrogate pair = %d, want 8", got)
	}
	if got := li.Offset(Position{9, 0}); got != len(text) {
		t.Errorf("Offset past the last line = %d, want %d", got, len(text))
	}
	// A lone "\r" ends a line, as the protocol says; "\r\n" is one break.
	cr := NewLineIndex([]byte("a\r😀b\r\nc\r"))
	for _, tc := range []struct {
		offset int
		pos    Position
	}{{0, Position{0, 0}}, {2, Position{1, 0}}, {6, Position{1, 2}}, {7, Position{1, 3}}, {9, Position{2, 0}}, {11, Position{3, 0}}} {
		if got := cr.Position(tc.offset); got != tc.pos {
			t.Errorf("lone CR: Position(%d) = %v, want %v", tc.offset, got, tc.pos)
		}
		if got := cr.Offset(tc.pos); got != tc.offset {
			t.Errorf("lone CR: Offset(%v) = %d, want %d", tc.pos, got, tc.offset)
		}
	}
	if got := cr.Offset(Position{0, 9}); got != 1 {
		t.Errorf("lone CR: Offset past line 0 = %d, want 1 (before the \\r)", got)
	}
	if got := cr.Offset(Position{1, 9}); got != 7 {
		t.Errorf("lone CR: Offset past line 1 = %d, want 7 (before the \\r\\n)", got)
	}
}
