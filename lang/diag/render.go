package diag

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/ast"
)

// Sources finds the text of a file by name, for rendering source lines. It
// returns nil when the text is not known; then only the first line of a
// diagnostic is written.
type Sources func(filename string) []byte

// Text is Sources for a single file already in memory: src for every
// name.
func Text(src []byte) Sources {
	return func(string) []byte { return src }
}

// ReadFiles is Sources that reads each file from disk once, for a
// command that reports on files it did not keep in memory. A file that
// cannot be read has no source lines.
func ReadFiles() Sources {
	var mu sync.Mutex
	seen := map[string][]byte{}
	return func(name string) []byte {
		mu.Lock()
		defer mu.Unlock()
		if b, ok := seen[name]; ok {
			return b
		}
		b, _ := os.ReadFile(name)
		seen[name] = b
		return b
	}
}

// Render writes every diagnostic with its source line and caret. It is the
// one way cogflow prints diagnostics, whatever their source.
func (l List) Render(w io.Writer, src Sources) {
	for _, d := range l {
		var text []byte
		if src != nil && d.Path == "" && d.Range.Start.IsValid() {
			text = src(d.Range.Filename)
		}
		d.Render(w, text)
	}
}

// Render writes the diagnostic's first line; for a source range with src
// given, the source line it points at and a caret line under its range;
// then its notes and its suggestion, each on a line of its own:
//
//	flow.cog:3:14: error: undefined name keywrd
//	  op2 = type(box, keywrd)
//	                  ^~~~~~
//	  = help: did you mean keyword?
func (d *Diagnostic) Render(w io.Writer, src []byte) {
	fmt.Fprintln(w, d.String())
	if d.Path == "" {
		if line, ok := sourceLine(src, d.Range.Start); ok {
			fmt.Fprintf(w, "  %s\n  %s\n", line, caret(line, d.Range))
		}
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "  = %s\n", n)
	}
	if d.Suggestion != "" {
		fmt.Fprintf(w, "  = help: %s\n", d.Suggestion)
	}
}

// sourceLine finds the line p is on. The offset and column must agree
// with the text; a position from another version of the file gives no
// line rather than the wrong one.
func sourceLine(src []byte, p ast.Pos) (string, bool) {
	if src == nil || p.Line < 1 {
		return "", false
	}
	start := p.Offset - (p.Column - 1)
	if start < 0 || start > len(src) || p.Offset > len(src) || bytes.IndexByte(src[start:p.Offset], '\n') >= 0 {
		return "", false
	}
	line := src[start:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	return strings.TrimRight(string(line), "\r"), true
}

// caret builds the marker line: the same whitespace as the source up to the
// start (tabs kept so columns line up), '^' at the start and '~' under the
// rest of the range when it ends on the same line.
func caret(line string, r ast.Range) string {
	col := r.Start.Column - 1
	if col > len(line) {
		col = len(line)
	}
	var b strings.Builder
	for _, c := range line[:col] {
		if c == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	if r.End.Line == r.Start.Line && r.End.Column > r.Start.Column {
		end := r.End.Column - 1
		if end > len(line) {
			end = len(line)
		}
		if end > col {
			n := utf8.RuneCountInString(line[col:end]) - 1
			b.WriteString(strings.Repeat("~", max(n, 0)))
		}
	}
	return b.String()
}
