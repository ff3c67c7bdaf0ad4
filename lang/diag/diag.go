// Package diag holds the diagnostics that the parser and checker report, and
// renders them the way compilers do: `file:line:col: error: message`, then the
// offending source line with a caret under the range.
package diag

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/cogflow/cogflow/lang/ast"
)

// Severity says whether a diagnostic stops the workflow from running.
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota
	Warning
)

// String names the severity as diagnostics print it.
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Diagnostic is one problem found in a source file.
type Diagnostic struct {
	Severity Severity
	Range    ast.Range
	Message  string
	// Notes add context: the candidates considered, where a name was first
	// declared. Each is printed on a line of its own.
	Notes []string
}

// String renders the diagnostic's first line: file:line:col: severity: message.
func (d *Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Range, d.Severity, d.Message)
}

// List is the diagnostics of one or more files.
type List []*Diagnostic

// Errorf appends an error at rng.
func (l *List) Errorf(rng ast.Range, format string, args ...any) *Diagnostic {
	d := &Diagnostic{Severity: Error, Range: rng, Message: fmt.Sprintf(format, args...)}
	*l = append(*l, d)
	return d
}

// Warnf appends a warning at rng.
func (l *List) Warnf(rng ast.Range, format string, args ...any) *Diagnostic {
	d := &Diagnostic{Severity: Warning, Range: rng, Message: fmt.Sprintf(format, args...)}
	*l = append(*l, d)
	return d
}

// HasErrors reports whether any diagnostic is an error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders the list by file, then position, then severity, keeping the
// order of reports made at the same place.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Range, l[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset < b.Start.Offset
		}
		return l[i].Severity < l[j].Severity
	})
}

// Err returns the list as an error when it holds errors, nil otherwise.
func (l List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return ListError(l)
}

// ListError is a List used as an error value.
type ListError List

// Error lists the diagnostics, one first line each.
func (e ListError) Error() string {
	var lines []string
	for _, d := range e {
		lines = append(lines, d.String())
	}
	return strings.Join(lines, "\n")
}

// Sources finds the text of a file by name, for rendering source lines.
type Sources func(filename string) []byte

// Render writes every diagnostic with its source line and caret.
func (l List) Render(w io.Writer, src Sources) {
	for _, d := range l {
		var text []byte
		if src != nil {
			text = src(d.Range.Filename)
		}
		d.Render(w, text)
	}
}

// Render writes the diagnostic, the source line it points at and a caret
// line under its range. src may be nil, then only the first line is written.
func (d *Diagnostic) Render(w io.Writer, src []byte) {
	fmt.Fprintln(w, d.String())
	if line, ok := sourceLine(src, d.Range.Start); ok {
		fmt.Fprintf(w, "  %s\n  %s\n", line, caret(line, d.Range))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(w, "  = %s\n", n)
	}
}

func sourceLine(src []byte, p ast.Pos) (string, bool) {
	if src == nil || p.Line < 1 {
		return "", false
	}
	start := p.Offset - (p.Column - 1)
	if start < 0 || start > len(src) {
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
