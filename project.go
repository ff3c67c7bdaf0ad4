package cogflow

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// KnowledgeFileName is the project's knowledge base file inside its
// folder.
const KnowledgeFileName = "knowledge.hcl"

// ProjectKBPath is where a project keeps its knowledge base.
func ProjectKBPath(dir string) string { return filepath.Join(dir, KnowledgeFileName) }

// ProjectKB returns the knowledge base of the project folder dir: its
// knowledge.hcl when there is one, so that what reflect learned is used,
// and the default shipped with cogflow otherwise. A file that does not
// parse gives nil and its errors, each with its position.
func ProjectKB(dir string) (*kb.KB, diag.List) {
	path := ProjectKBPath(dir)
	src, err := kb.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return kb.Default(), nil
	}
	if err != nil {
		var l diag.List
		l.Errorf(ast.Range{Filename: path}, "cannot read the knowledge base: %v", err)
		return nil, l
	}
	k, hdiags := kb.Parse(src, path)
	ds := KBDiags(hdiags, path)
	if ds.HasErrors() {
		return nil, ds
	}
	return k, nil
}

// KBDiags turns the knowledge base parser's diagnostics into the
// language's, so that they print like every other cogflow diagnostic:
// file:line:col, the source line and a caret.
func KBDiags(hd hcl.Diagnostics, path string) diag.List {
	var out diag.List
	for _, d := range hd {
		rng := ast.Range{Filename: path, Start: ast.Pos{Line: 1, Column: 1}, End: ast.Pos{Line: 1, Column: 1}}
		if d.Subject != nil {
			rng = ast.Range{Filename: d.Subject.Filename,
				Start: ast.Pos{Line: d.Subject.Start.Line, Column: d.Subject.Start.Column, Offset: d.Subject.Start.Byte},
				End:   ast.Pos{Line: d.Subject.End.Line, Column: d.Subject.End.Column, Offset: d.Subject.End.Byte}}
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + strings.TrimSuffix(d.Detail, ".")
		}
		sev := diag.Error
		if d.Severity == hcl.DiagWarning {
			sev = diag.Warning
		}
		out = append(out, &diag.Diagnostic{Severity: sev, Range: rng, Message: msg})
	}
	return out
}
