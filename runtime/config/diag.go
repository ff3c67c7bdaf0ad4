package config

import (
	"bytes"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
)

// ToDiag converts HCL diagnostics to cogflow's own, so that configuration
// problems print like workflow problems: `file:line:col: error: message`,
// the source line and a caret. src finds a file's text by name (nil: none);
// with it, columns are recounted in bytes as lang/diag counts them (HCL
// counts characters). The list is sorted by file and position.
func ToDiag(ds hcl.Diagnostics, src diag.Sources) diag.List {
	var out diag.List
	for _, d := range ds {
		sev := diag.Error
		if d.Severity == hcl.DiagWarning {
			sev = diag.Warning
		}
		msg := d.Summary
		if msg != "" {
			msg = strings.ToLower(msg[:1]) + msg[1:]
		}
		if detail := strings.TrimSuffix(d.Detail, "."); detail != "" {
			if msg != "" {
				msg += ": "
			}
			msg += detail
		}
		var rng ast.Range
		if d.Subject != nil {
			var text []byte
			if src != nil {
				text = src(d.Subject.Filename)
			}
			rng = ast.Range{
				Filename: d.Subject.Filename,
				Start:    pos(d.Subject.Start, text),
				End:      pos(d.Subject.End, text),
			}
		}
		out = append(out, &diag.Diagnostic{Severity: sev, Range: rng, Message: msg})
	}
	out.Sort()
	return out
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

// Render writes diagnostics from Load in lang/diag's style, with the
// source lines of the files c read.
func (c *Config) Render(w io.Writer, ds hcl.Diagnostics) {
	ToDiag(ds, c.FileText).Render(w, c.FileText)
}
