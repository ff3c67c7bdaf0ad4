// Package hcldiag converts the HCL parser's diagnostics to cogflow's one
// diagnostic type (lang/diag). The packages that read HCL files
// (runtime/config for cogflow.hcl, stdlib/kb for knowledge.hcl) call it at
// their boundary, so that their callers see one type and lang/diag does
// not depend on HCL.
package hcldiag

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
)

// Convert turns HCL diagnostics into cogflow's, sorted by file and
// position. The message is the summary (first letter lower-cased, as
// cogflow's messages are) and the detail; a "Did you mean …?" at the end
// of the detail becomes the suggestion. src finds a file's text by name
// (nil: none); with it, columns are recounted in bytes as lang/diag counts
// them (HCL counts characters). file names a diagnostic that has no
// range of its own (a file that cannot be read).
func Convert(ds hcl.Diagnostics, src diag.Sources, file string) diag.List {
	var out diag.List
	for _, d := range ds {
		sev := diag.Error
		if d.Severity == hcl.DiagWarning {
			sev = diag.Warning
		}
		msg, suggestion := message(d.Summary, d.Detail)
		rng := ast.Range{Filename: file}
		if s := d.Subject; s != nil {
			var text []byte
			if src != nil {
				text = src(s.Filename)
			}
			rng = ast.Range{Filename: s.Filename, Start: pos(s.Start, text), End: pos(s.End, text)}
		}
		out = append(out, &diag.Diagnostic{Severity: sev, Range: rng, Message: msg, Suggestion: suggestion})
	}
	out.Sort()
	return out
}

// message joins summary and detail, and splits off the suggestion.
func message(summary, detail string) (msg, suggestion string) {
	msg = lowerFirst(summary)
	if i := strings.Index(detail, "Did you mean "); i >= 0 {
		suggestion = "d" + detail[i+1:]
		detail = strings.TrimSpace(detail[:i])
	}
	if detail = strings.TrimSuffix(detail, "."); detail != "" {
		if msg != "" {
			msg += ": "
		}
		msg += detail
	}
	return msg, suggestion
}

// lowerFirst lower-cases a sentence's first letter, leaving an acronym
// ("LLM block …") as it is.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	if next, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(next) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

// pos converts an HCL position, recounting the column in bytes from the
// byte offset when the text is known.
func pos(p hcl.Pos, text []byte) ast.Pos {
	out := ast.Pos{Line: p.Line, Column: p.Column, Offset: p.Byte}
	if text != nil && p.Byte <= len(text) {
		out.Column = p.Byte - (bytes.LastIndexByte(text[:p.Byte], '\n') + 1) + 1
	}
	return out
}
