package lsp

import (
	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// Document is one open .cog file as the server last analyzed it. It is
// never changed once made: an edit makes a new Document, so that a handler
// holding one reads a consistent text, tree and position index.
type Document struct {
	URI     string
	Path    string // the file's path on disk (from the URI)
	Version int32
	Text    []byte
	Lines   *LineIndex
	// Workflow is the file loaded the way `cogflow check` loads it.
	Workflow *cogflow.Workflow
	// File is the tree as far as it parsed (also with syntax errors) and
	// Info what the checker learned of it; Info's maps may miss the parts
	// that did not parse.
	File *ast.File
	Info *check.Info
	// Diags are the file's diagnostics, exactly as `cogflow check` gives
	// them, except those about the project's knowledge.hcl, which are
	// published on that file.
	Diags diag.List
	// KB is the knowledge base the file was checked against: the project's
	// (ProjectDir's knowledge.hcl) or the default.
	KB *kb.KB
	// ProjectDir is the .cogflow folder that applies to the file ("" when
	// there is none: the default knowledge base).
	ProjectDir string
}

// analyze parses and checks text as the file at path, against the
// knowledge base k.
func analyze(uri, path string, version int32, text []byte, k *kb.KB, projectDir string) *Document {
	w, ds := cogflow.LoadSource(path, text, cogflow.Options{Knowledge: k, ProjectDir: projectDir})
	f, info := w.Tree()
	return &Document{URI: uri, Path: path, Version: version, Text: text, Lines: NewLineIndex(text),
		Workflow: w, File: f, Info: info, Diags: ds, KB: w.Knowledge(), ProjectDir: projectDir}
}

// Offset is the byte offset of a protocol position in the document.
func (d *Document) Offset(p Position) int { return d.Lines.Offset(p) }

// Range converts a source range of the parser to the protocol's.
func (d *Document) Range(r ast.Range) Range { return d.Lines.Range(r) }

// Location is a source range of this document as a protocol location.
func (d *Document) Location(r ast.Range) Location { return Location{URI: d.URI, Range: d.Range(r)} }
