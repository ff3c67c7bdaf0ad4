package lsp

import (
	"sort"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/ast"
)

// LineIndex converts between byte offsets into a document, which is how
// cogflow's parser places things (ast.Pos.Offset), and the protocol's
// positions: zero-based lines and UTF-16 code units within the line. A
// character outside the BMP (😀) is two units, é and 中 are one each, and
// none of them is one byte: a column in bytes or runes is wrong in an
// editor as soon as such a character comes before it on the line.
//
// Lines end at "\n", "\r\n" or a lone "\r", the three breaks the protocol
// names: a client counts a lone "\r" (which cogflow's lexer takes for
// white space or comment text) as a line, so a server that did not would
// place every range after one on the wrong line, and formatting would
// replace the wrong lines.
type LineIndex struct {
	text  []byte
	lines []int // byte offset of each line's start
}

// NewLineIndex indexes text. It keeps text; do not change it.
func NewLineIndex(text []byte) *LineIndex {
	li := &LineIndex{text: text, lines: []int{0}}
	for i, b := range text {
		if b == '\n' || b == '\r' && (i+1 == len(text) || text[i+1] != '\n') {
			li.lines = append(li.lines, i+1)
		}
	}
	return li
}

// Position returns the protocol position of a byte offset. An offset in
// the middle of a UTF-8 sequence counts as the start of that character;
// one past the end is the end of the document.
func (li *LineIndex) Position(offset int) Position {
	offset = max(0, min(offset, len(li.text)))
	line := sort.Search(len(li.lines), func(i int) bool { return li.lines[i] > offset }) - 1
	units := 0
	for i := li.lines[line]; i < offset; {
		r, size := utf8.DecodeRune(li.text[i:])
		if i+size > offset {
			break
		}
		units += utf16Len(r)
		i += size
	}
	return Position{Line: uint32(line), Character: uint32(units)}
}

// Offset returns the byte offset of a protocol position. As the protocol
// says, a character past the end of its line means the line's end (before
// its line break), and a line past the last means the document's end. A
// position inside a surrogate pair means the character it splits.
func (li *LineIndex) Offset(p Position) int {
	if int(p.Line) >= len(li.lines) {
		return len(li.text)
	}
	start := li.lines[p.Line]
	end := len(li.text)
	if int(p.Line)+1 < len(li.lines) {
		end = li.lines[p.Line+1] - 1 // the '\n' or lone '\r'
		if end > start && li.text[end] == '\n' && li.text[end-1] == '\r' {
			end--
		}
	}
	units := 0
	for i := start; i < end; {
		if units >= int(p.Character) {
			return i
		}
		r, size := utf8.DecodeRune(li.text[i:])
		units += utf16Len(r)
		if units > int(p.Character) {
			return i
		}
		i += size
	}
	return end
}

// Range converts a source range of cogflow's parser. A range with no end
// (a diagnostic about one point) is empty at its start.
func (li *LineIndex) Range(r ast.Range) Range {
	start := li.Position(r.Start.Offset)
	if !r.End.IsValid() || r.End.Offset < r.Start.Offset {
		return Range{Start: start, End: start}
	}
	return Range{Start: start, End: li.Position(r.End.Offset)}
}

// LineCount is the number of lines (a document that ends in a line break
// has an empty last line).
func (li *LineIndex) LineCount() int { return len(li.lines) }

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
