package trace

import (
	"errors"
	"strings"

	"github.com/cogflow/cogflow/lang/diag"
)

// Diagnostic returns the problem as cogflow's one diagnostic type, located
// by its JSON path in the named file.
func (e *Error) Diagnostic(filename string) *diag.Diagnostic {
	d := diag.AtPath(filename, e.Path, "%s", e.Msg)
	d.Suggestion = e.Suggestion
	return d
}

// Diagnostics returns every problem as a diagnostic of the named file, in
// document order.
func (l Errors) Diagnostics(filename string) diag.List {
	out := make(diag.List, len(l))
	for i, e := range l {
		out[i] = e.Diagnostic(filename)
	}
	return out
}

// Diagnostic returns the warning as a diagnostic of the named recording,
// at the step's JSON path ($.steps[3]).
func (w Warning) Diagnostic(filename string) *diag.Diagnostic {
	d := diag.AtPath(filename, jpath("$").field("steps").index(w.Step).String(), "%s step: %s", w.Type, w.Msg)
	d.Severity = diag.Warning
	return d
}

// Diagnostics converts an error of Read, Parse, Load or FromDevTools about
// the named file to diagnostics, so that a caller prints trace problems the
// way it prints every other (lang/diag): each with the JSON path it is
// about. An error without a path (the file cannot be read) is one
// diagnostic about the whole file; nil gives nil.
func Diagnostics(err error, filename string) diag.List {
	if err == nil {
		return nil
	}
	var list Errors
	if errors.As(err, &list) {
		return list.Diagnostics(filename)
	}
	// What wraps a single problem (FromDevTools' "not a DevTools Recorder
	// recording: ") stays in its message; Load's file name prefix goes,
	// since the position names the file.
	msg := strings.TrimPrefix(err.Error(), filename+": ")
	var one *Error
	if errors.As(err, &one) {
		d := one.Diagnostic(filename)
		d.Message = strings.TrimSuffix(msg, one.Error()) + one.Msg
		return diag.List{d}
	}
	path := ""
	var ve *VersionError
	if errors.As(err, &ve) {
		path = "$.version"
		if ve.Missing {
			path = "$"
		}
	}
	return diag.List{diag.AtPath(filename, path, "%s", msg)}
}
