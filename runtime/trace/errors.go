package trace

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error is one problem with a trace, located by a JSON path from the
// document's root: $.events[3].target.context.list.index,
// $.snapshots.s1.elements[0].parent.
type Error struct {
	Path string
	Msg  string
	// Suggestion is a likely fix, like `did you mean "kind"?`; empty when
	// there is none.
	Suggestion string
}

func (e *Error) Error() string {
	if e.Suggestion != "" {
		return e.Path + ": " + e.Msg + " (" + e.Suggestion + ")"
	}
	return e.Path + ": " + e.Msg
}

// Errors are all the problems validation found, in document order.
type Errors []*Error

func (l Errors) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d problems in the trace:", len(l))
	for _, e := range l {
		b.WriteString("\n\t")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap gives errors.As and errors.Is each problem.
func (l Errors) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

// ErrUnsupportedVersion is wrapped by VersionError.
var ErrUnsupportedVersion = errors.New("unsupported trace version")

// VersionError is a trace whose version this package does not read: a
// newer or older format, or none at all.
type VersionError struct {
	// Version is the version the file gave; Raw is its JSON text when it
	// is not an integer. Missing is set when the file gives none.
	Version int
	Raw     string
	Missing bool
}

func (e *VersionError) Error() string {
	switch {
	case e.Missing:
		return fmt.Sprintf("trace has no version: this cogflow reads version %d (the file must begin with \"format\": %q, \"version\": %d)", Version, Format, Version)
	case e.Raw != "":
		return fmt.Sprintf("trace version %s is not supported: this cogflow reads version %d", e.Raw, Version)
	}
	return fmt.Sprintf("trace version %d is not supported: this cogflow reads version %d", e.Version, Version)
}

// Unwrap makes errors.Is(err, ErrUnsupportedVersion) hold.
func (e *VersionError) Unwrap() error { return ErrUnsupportedVersion }

// jpath is a JSON path under construction, like $.events[2].target.
type jpath string

func (p jpath) field(name string) jpath {
	if isIdent(name) {
		return p + jpath("."+name)
	}
	return p + jpath("["+strconv.Quote(name)+"]")
}

// isIdent reports whether a key can follow a dot in a path:
// [A-Za-z_][A-Za-z0-9_]*.
func isIdent(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9' {
			continue
		}
		return false
	}
	return s != ""
}

func (p jpath) String() string { return string(p) }

func (p jpath) index(i int) jpath { return p + jpath("["+strconv.Itoa(i)+"]") }

func (p jpath) errorf(format string, args ...any) *Error {
	return &Error{Path: string(p), Msg: fmt.Sprintf(format, args...)}
}
