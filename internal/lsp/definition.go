package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
)

func init() {
	register("textDocument/definition", definition, func(caps map[string]any) { caps["definitionProvider"] = true })
	register("textDocument/references", references, func(caps map[string]any) { caps["referencesProvider"] = true })
	register("textDocument/prepareRename", prepareRename, nil)
	register("textDocument/rename", rename, func(caps map[string]any) {
		caps["renameProvider"] = map[string]any{"prepareProvider": true}
	})
}

// navCodeRequestFailed is the protocol's RequestFailed: a valid request
// the server cannot carry out.
const navCodeRequestFailed = -32803

// navOccAt decodes a position request into p and finds the name at the
// position at reads from it.
func navOccAt(s *Server, params json.RawMessage, p any, at *TextDocumentPositionParams) (*Document, *navIndex, *navOcc, error) {
	if err := decode(params, p); err != nil {
		return nil, nil, nil, err
	}
	d, err := s.Document(at.TextDocument.URI)
	if err != nil {
		return nil, nil, nil, err
	}
	ix := newNavIndex(d)
	return d, ix, ix.occAt(d.Offset(at.Position)), nil
}

// definition goes from a name to its declaration: a step, input, anchor,
// loop variable, parameter or skill. On a declaration it is the
// declaration itself.
func definition(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	d, _, o, err := navOccAt(s, params, &p, &p)
	if err != nil || o == nil {
		return nil, err
	}
	return d.Location(navDeclIdent(o.decl).Range), nil
}

type referenceParams struct {
	TextDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// references lists every use of the name at the position, in file order,
// with its declaration when the client asks for it.
func references(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p referenceParams
	d, ix, o, err := navOccAt(s, params, &p, &p.TextDocumentPositionParams)
	if err != nil || o == nil {
		return nil, err
	}
	out := []Location{}
	for _, u := range ix.uses(o.decl) {
		if u.isDecl && !p.Context.IncludeDeclaration {
			continue
		}
		out = append(out, d.Location(u.id.Range))
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Range.Start, out[j].Range.Start
		return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
	})
	return out, nil
}

// prepareRename says whether the name at the position can be renamed, and
// which text a rename replaces.
func prepareRename(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	d, _, o, err := navOccAt(s, params, &p, &p)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, &ResponseError{Code: CodeInvalidRequest, Message: "there is no step, input, anchor, loop variable, parameter, skill or task name here to rename"}
	}
	if err := navRenameSafe(d, o.id.Name, ""); err != nil {
		return nil, err
	}
	return map[string]any{"range": d.Range(o.id.Range), "placeholder": o.id.Name}, nil
}

type renameParams struct {
	TextDocumentPositionParams
	NewName string `json:"newName"`
}

// rename renames a name at its declaration and every use, or refuses
// with the reason: a new name that is not a name, a keyword, or one that
// is taken where the name is visible.
func rename(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p renameParams
	d, ix, o, err := navOccAt(s, params, &p, &p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, &ResponseError{Code: CodeInvalidRequest, Message: "there is no step, input, anchor, loop variable, parameter, skill or task name here to rename"}
	}
	if err := navCheckNewName(ix, o, p.NewName); err != nil {
		return nil, err
	}
	if err := navRenameSafe(d, o.id.Name, p.NewName); err != nil {
		return nil, err
	}
	edits := []TextEdit{}
	for _, u := range ix.uses(o.decl) {
		edits = append(edits, TextEdit{Range: d.Range(u.id.Range), NewText: p.NewName})
	}
	return WorkspaceEdit{Changes: map[string][]TextEdit{d.URI: edits}}, nil
}

// navCheckNewName refuses a new name that is no identifier, a keyword, or
// a name already declared where the renamed one lives: in the same task or
// skill (names are unique in one, wherever they are visible), or at the top
// level for a skill or task, which also may not take an action's or a
// function's name.
func navCheckNewName(ix *navIndex, o *navOcc, name string) error {
	refuse := func(format string, args ...any) error {
		return &ResponseError{Code: CodeInvalidParams, Message: fmt.Sprintf(format, args...)}
	}
	if !navIsIdent(name) {
		return refuse("%q is not a name: a name starts with a letter or _ and holds only letters, digits and _", name)
	}
	if syntax.Keywords[name] {
		return refuse("%s is a keyword of the language and cannot be a name", name)
	}
	if name == o.id.Name {
		return nil
	}
	_, topLevel := o.decl.(ast.Decl)
	for _, other := range ix.occs {
		if !other.isDecl || other.id.Name != name {
			continue
		}
		_, otherTop := other.decl.(ast.Decl)
		if topLevel == otherTop && (topLevel || other.owner == o.owner) {
			return refuse("%s is already declared at line %d (as %s %s)", name, other.id.Range.Start.Line, navDeclKind(other.decl), name)
		}
	}
	if _, isSkill := o.decl.(*ast.Skill); isSkill {
		if _, fn := navFuncSigs()[name]; fn || check.Actions[name] != nil || check.ElementRoles[name] || check.ElementPredicates[name] {
			return refuse("%s is the name of an action or function: a skill of that name would hide it or be hidden by it", name)
		}
	}
	return nil
}

// navRenameSafe refuses to rename in a file with syntax errors when the
// text the parser dropped uses the old name or the new one: the rename
// would miss those uses, or capture them, and say nothing. Elsewhere in
// such a file a rename is as exact as in a clean one.
func navRenameSafe(d *Document, old, new string) error {
	if d.Workflow == nil || d.Workflow.File() != nil {
		return nil
	}
	p := syntax.ParsePartial(d.Path, d.Text)
	for _, n := range []string{old, new} {
		if n != "" && (p.Mentioned[n] || p.Broken[n]) {
			line := 0
			if len(p.Dropped) > 0 {
				line = p.Dropped[0].Start.Line
			}
			return &ResponseError{Code: navCodeRequestFailed, Message: fmt.Sprintf("cannot rename %s: the line with a syntax error (line %d) mentions %s; fix it first, so that the rename sees every use", old, line, n)}
		}
	}
	return nil
}

func navIsIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, c := range []byte(s) {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
