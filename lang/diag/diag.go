// Package diag holds cogflow's one diagnostic type, used for every kind of
// input a person writes or a tool records: workflow files (.cog), the
// configuration (cogflow.hcl), the knowledge base (knowledge.hcl), traces
// (JSON) and the compiler's warnings. It renders them one way, as compilers
// do: `file:line:col: error: message` (or `file: $.events[3]: error:
// message` for a trace), the offending source line with a caret under the
// range, then notes and a "did you mean" suggestion.
//
// Other formats convert to it at their own boundary (HCL diagnostics in
// internal/hcldiag, trace errors in runtime/trace), so this package depends
// on nothing but lang/ast.
package diag

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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

// Diagnostic is one problem found in an input. It is located either by a
// source range (a text file: .cog, .hcl) or by a JSON path (a trace); in
// both cases Range.Filename names the file.
type Diagnostic struct {
	Severity Severity
	// Range is the span of source text the problem is about. Only its
	// Filename is set for a diagnostic located by Path or for one about a
	// whole file (it cannot be read).
	Range ast.Range
	// Path locates the problem in a JSON document from its root, like
	// $.events[3].target; empty for source text.
	Path    string
	Message string
	// Suggestion is a likely fix, such as `did you mean "kind"?`, printed
	// on a line of its own after the source line.
	Suggestion string
	// Notes add context: the candidates considered, where a name was first
	// declared. Each is printed on a line of its own.
	Notes []string
}

// AtPath returns an error located by a JSON path in the named file.
func AtPath(filename, path, format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Range: ast.Range{Filename: filename}, Path: path, Message: fmt.Sprintf(format, args...)}
}

// Position renders where the diagnostic points: file:line:col for source
// text, `file: $.path` for a JSON document, the file name alone for a
// whole file, and "" when nothing is known.
func (d *Diagnostic) Position() string {
	r := d.Range
	switch {
	case d.Path != "" && r.Filename != "":
		return r.Filename + ": " + d.Path
	case d.Path != "":
		return d.Path
	case r.Start.IsValid():
		return r.String()
	}
	return r.Filename
}

// String renders the diagnostic's first line: position: severity: message.
func (d *Diagnostic) String() string {
	if p := d.Position(); p != "" {
		return fmt.Sprintf("%s: %s: %s", p, d.Severity, d.Message)
	}
	return fmt.Sprintf("%s: %s", d.Severity, d.Message)
}

// Error makes a single diagnostic usable as an error value; it reads like
// String, followed by the suggestion when there is one.
func (d *Diagnostic) Error() string {
	if d.Suggestion != "" {
		return d.String() + " (" + d.Suggestion + ")"
	}
	return d.String()
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

// Errors returns the errors of the list, in order.
func (l List) Errors() List { return l.of(Error) }

// Warnings returns the warnings of the list, in order.
func (l List) Warnings() List { return l.of(Warning) }

func (l List) of(sev Severity) List {
	var out List
	for _, d := range l {
		if d.Severity == sev {
			out = append(out, d)
		}
	}
	return out
}

// Messages returns each diagnostic's message, in order: what a test or a
// summary compares when the position does not matter.
func (l List) Messages() []string {
	out := make([]string, len(l))
	for i, d := range l {
		out[i] = d.Message
	}
	return out
}

// Sort orders the list by file, then position, then severity, keeping the
// order of reports made at the same place. Diagnostics located by a JSON
// path keep the order they were reported in, which is the document's order
// for the trace reader (sorting paths as text would put events[10] before
// events[2]).
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Range, l[j].Range
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Start.Offset != b.Start.Offset {
			return a.Start.Offset < b.Start.Offset
		}
		if l[i].Path != "" || l[j].Path != "" {
			return false
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

// Error lists the diagnostics, one line each.
func (e ListError) Error() string {
	var lines []string
	for _, d := range e {
		lines = append(lines, d.Error())
	}
	return strings.Join(lines, "\n")
}

// Unwrap gives errors.As each diagnostic.
func (e ListError) Unwrap() []error {
	out := make([]error, len(e))
	for i, d := range e {
		out[i] = d
	}
	return out
}

// FromError returns the diagnostics an error carries: a ListError's, or a
// single *Diagnostic's; any other error becomes one diagnostic without a
// position, so that a caller can print every failure the one way.
func FromError(err error) List {
	var l ListError
	var d *Diagnostic
	switch {
	case err == nil:
		return nil
	case errors.As(err, &l):
		return List(l)
	case errors.As(err, &d):
		return List{d}
	}
	return List{{Severity: Error, Message: err.Error()}}
}
