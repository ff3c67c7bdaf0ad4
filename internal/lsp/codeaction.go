package lsp

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
)

// Code actions (quick fixes) for the checker's diagnostics:
//
//   - a "did you mean" suggestion (undefined name, unknown action,
//     attribute, parameter, subcategory …), or the main category a
//     subcategory belongs to, or a key of a chord: one action per candidate,
//     replacing the misspelled name, which is exactly the diagnostic's
//     range;
//   - "undefined name X" in a task: declare the input, `input X: text`,
//     under the task's inputs (or its driver), at their indentation: the
//     line `cogflow fmt` would write there, so formatting keeps it.

// CodeAction is the protocol's code action.
type CodeAction struct {
	Title       string         `json:"title"`
	Kind        string         `json:"kind"`
	Diagnostics []Diagnostic   `json:"diagnostics,omitempty"`
	IsPreferred bool           `json:"isPreferred,omitempty"`
	Edit        *WorkspaceEdit `json:"edit,omitempty"`
}

type codeActionParams struct {
	TextDocument TextDocumentIdentifier `json:"textDocument"`
	Range        Range                  `json:"range"`
	Context      struct {
		Diagnostics []Diagnostic `json:"diagnostics"`
		Only        []string     `json:"only"`
	} `json:"context"`
}

const kindQuickFix = "quickfix"

func init() {
	register("textDocument/codeAction", codeAction, func(caps map[string]any) {
		caps["codeActionProvider"] = map[string]any{"codeActionKinds": []string{kindQuickFix}}
	})
}

func codeAction(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.Document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	actions := []CodeAction{}
	if len(p.Context.Only) > 0 && !onlyAllows(p.Context.Only, kindQuickFix) {
		return actions, nil
	}
	diags := p.Context.Diagnostics
	if len(diags) == 0 {
		// A client that asks without the diagnostics (a menu on a range):
		// the document's own, where they touch the range.
		for _, x := range d.ProtocolDiagnostics() {
			if !before(x.Range.End, p.Range.Start) && !before(p.Range.End, x.Range.Start) {
				diags = append(diags, x)
			}
		}
	}
	own := d.ProtocolDiagnostics()
	for _, x := range diags {
		if x.Source != "" && x.Source != "cogflow" {
			continue
		}
		x = ownDiagnostic(own, x)
		actions = append(actions, suggestionActions(d, x)...)
		actions = append(actions, keyActions(d, x)...)
		if a, ok := declareInputAction(d, x); ok {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// ownDiagnostic returns the server's own diagnostic that the client sent
// back: the one at the same range with the same message, else the only one
// on the same line with the same message. A client may send ranges in
// other units than it received them (Neovim 0.7 to 0.10 sends byte
// columns back, neovim/neovim#29500), and a fix applied at such a range
// would replace the wrong characters after é or 中 on the line. A
// diagnostic the server does not know is returned as it is.
func ownDiagnostic(own []Diagnostic, x Diagnostic) Diagnostic {
	var match *Diagnostic
	for i := range own {
		o := &own[i]
		if o.Message != x.Message {
			continue
		}
		if o.Range == x.Range {
			return *o
		}
		if o.Range.Start.Line == x.Range.Start.Line {
			if match != nil {
				return x // two on the line: the client's range must choose
			}
			match = o
		}
	}
	if match != nil {
		return *match
	}
	return x
}

func onlyAllows(only []string, kind string) bool {
	for _, k := range only {
		if k == kind || strings.HasPrefix(kind, k+".") {
			return true
		}
	}
	return false
}

func before(a, b Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}

// suggestionOf returns the diagnostic's "did you mean" text: from its Data
// as the server published it, or, for a client that does not send Data
// back, from the document's diagnostic at the same place.
func suggestionOf(d *Document, x Diagnostic) string {
	if m, ok := x.Data.(map[string]any); ok {
		if s, ok := m["suggestion"].(string); ok {
			return s
		}
	}
	for _, own := range d.ProtocolDiagnostics() {
		if own.Range == x.Range && own.Message == x.Message {
			if m, ok := own.Data.(map[string]string); ok {
				return m["suggestion"]
			}
		}
	}
	return ""
}

var identRe = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// candidates parses `did you mean a, b or c?` (the checker's form; names
// may be quoted, as the trace decoder writes them) into its names. A
// suggestion of another form (a rewrite to explain) gives none.
func candidates(suggestion string) []string {
	s := strings.TrimSpace(suggestion)
	const prefix = "did you mean "
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return nil
	}
	s = strings.TrimSuffix(strings.TrimSpace(s[len(prefix):]), "?")
	var out []string
	for _, part := range strings.Split(s, ", ") {
		for _, name := range strings.Split(part, " or ") {
			name = strings.Trim(strings.TrimSpace(name), "\"`'")
			if !identRe.MatchString(name) {
				return nil // not a list of names: offer nothing rather than a wrong edit
			}
			out = append(out, name)
		}
	}
	return out
}

// belongsRe is the checker's message for a known subcategory under a
// wrong main category: it names the right one in the message, not as a
// suggestion (a "did you mean" would repeat it in `cogflow check`).
var belongsRe = regexp.MustCompile(`^unknown main category [A-Za-z_][A-Za-z0-9_]*; [A-Za-z_][A-Za-z0-9_]* belongs to ([A-Za-z_][A-Za-z0-9_]*)$`)

// suggestionActions makes one action per candidate. The range must hold
// a name now (the client's diagnostic may be of an older text): else none.
func suggestionActions(d *Document, x Diagnostic) []CodeAction {
	names := candidates(suggestionOf(d, x))
	if m := belongsRe.FindStringSubmatch(x.Message); m != nil && len(names) == 0 {
		names = []string{m[1]}
	}
	if len(names) == 0 {
		return nil
	}
	start, end := d.Offset(x.Range.Start), d.Offset(x.Range.End)
	if start >= end || !identRe.Match(d.Text[start:end]) {
		return nil
	}
	var out []CodeAction
	for _, n := range names {
		edit := TextEdit{Range: x.Range, NewText: n}
		out = append(out, CodeAction{Title: "Change to " + n, Kind: kindQuickFix, Diagnostics: []Diagnostic{x},
			IsPreferred: len(names) == 1, Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.URI: {edit}}}})
	}
	return out
}

// unknownKeyRe is the checker's message for a misspelled key in a key
// chord, whose "did you mean" is in the message: the diagnostic's range is
// the whole string literal, the fix replaces the key at its end.
var unknownKeyRe = regexp.MustCompile(`^unknown key ("(?:[^"\\]|\\.)*"); (did you mean .*\?)$`)

// keyActions makes one action per key the message suggests.
func keyActions(d *Document, x Diagnostic) []CodeAction {
	m := unknownKeyRe.FindStringSubmatch(x.Message)
	if m == nil {
		return nil
	}
	key, err := strconv.Unquote(m[1])
	names := candidates(m[2])
	if err != nil || key == "" || len(names) == 0 {
		return nil
	}
	start, end := d.Offset(x.Range.Start), d.Offset(x.Range.End)
	lit := string(d.Text[start:end])
	if !strings.HasPrefix(lit, "\"") || !strings.HasSuffix(lit, key+"\"") || len(lit) < len(key)+2 {
		return nil // not the literal the diagnostic was about (an older text), or the key is escaped
	}
	rng := Range{Start: d.Lines.Position(end - 1 - len(key)), End: d.Lines.Position(end - 1)}
	var out []CodeAction
	for _, n := range names {
		edit := TextEdit{Range: rng, NewText: n}
		out = append(out, CodeAction{Title: "Change to " + n, Kind: kindQuickFix, Diagnostics: []Diagnostic{x},
			IsPreferred: len(names) == 1, Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.URI: {edit}}}})
	}
	return out
}

var undefinedRe = regexp.MustCompile(`^undefined name ([A-Za-z_][A-Za-z0-9_]*)$`)

// declareInputAction declares the undefined name as a text input of the
// task that uses it.
func declareInputAction(d *Document, x Diagnostic) (CodeAction, bool) {
	m := undefinedRe.FindStringSubmatch(x.Message)
	if m == nil || syntax.Keywords[m[1]] || d.File == nil {
		return CodeAction{}, false
	}
	name := m[1]
	off := d.Offset(x.Range.Start)
	var task *ast.Task
	for _, decl := range d.File.Decls {
		if t, ok := decl.(*ast.Task); ok && t.Range.Start.Offset <= off && off < t.Range.End.Offset {
			task = t
		}
	}
	if task == nil || task.Body == nil {
		return CodeAction{}, false // a skill takes parameters, not inputs
	}
	at, indent, ok := inputInsertPoint(d, task)
	if !ok || d.Offset(at) > off {
		return CodeAction{}, false // the input would come after its use: declared later
	}
	edit := TextEdit{Range: Range{Start: at, End: at}, NewText: indent + "input " + name + ": text" + lineBreakBefore(d.Text, d.Offset(at))}
	return CodeAction{Title: "Declare input " + name + ": text", Kind: kindQuickFix, Diagnostics: []Diagnostic{x},
		Edit: &WorkspaceEdit{Changes: map[string][]TextEdit{d.URI: {edit}}}}, true
}

// inputInsertPoint is the start of the line after the task's last input,
// or after its driver, or its first statement's line; and the indentation
// of that input, driver or statement.
func inputInsertPoint(d *Document, task *ast.Task) (Position, string, bool) {
	var after ast.Stmt
	for _, s := range task.Body.Stmts {
		switch s.(type) {
		case *ast.InputDecl:
			after = s
		case *ast.DriverDecl:
			if after == nil {
				after = s
			}
		}
	}
	if after != nil {
		end := after.Rng().End.Offset
		next := len(d.Text)
		if i := strings.IndexByte(string(d.Text[end:]), '\n'); i >= 0 {
			next = end + i + 1
		}
		return d.Lines.Position(next), lineIndent(d.Text, after.Rng().Start.Offset), true
	}
	if len(task.Body.Stmts) == 0 {
		return Position{}, "", false
	}
	first := task.Body.Stmts[0].Rng().Start.Offset
	lineStart := strings.LastIndexByte(string(d.Text[:first]), '\n') + 1
	if strings.TrimSpace(string(d.Text[lineStart:first])) != "" {
		return Position{}, "", false // `task t { op1 = …`: not the printer's layout
	}
	return d.Lines.Position(lineStart), lineIndent(d.Text, first), true
}

// lineBreakBefore is the line break that ends the line before offset,
// "\r\n" in a file written with them, so that a line inserted there
// does not mix the file's line breaks.
func lineBreakBefore(text []byte, off int) string {
	if off >= 2 && text[off-2] == '\r' && text[off-1] == '\n' {
		return "\r\n"
	}
	return "\n"
}

// lineIndent is the white space that begins the line holding offset.
func lineIndent(text []byte, off int) string {
	start := strings.LastIndexByte(string(text[:off]), '\n') + 1
	end := start
	for end < len(text) && (text[end] == ' ' || text[end] == '\t') {
		end++
	}
	return string(text[start:end])
}
