package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
)

func init() {
	register("textDocument/hover", hover, func(caps map[string]any) { caps["hoverProvider"] = true })
}

// Hover is the protocol's hover result.
type Hover struct {
	Contents MarkupContent `json:"contents"`
	Range    *Range        `json:"range,omitempty"`
}

// hover explains what is under the cursor: a dependency's category from
// the document's knowledge base, a step's action and the value its
// demonstration saw, the declaration a name refers to, a function's
// documentation. Nothing to explain is null, not an error.
func hover(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.Document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if h := navHover(d, d.Offset(p.Position), s.ClientSupportsMarkdown()); h != nil {
		return h, nil
	}
	return nil, nil
}

// navHover is the hover at byte offset off, nil when there is nothing to
// explain there.
func navHover(d *Document, off int, md bool) *Hover {
	ix := newNavIndex(d)
	w := &navText{md: md}
	var rng ast.Range
	switch {
	case ix.occAt(off) != nil:
		o := ix.occAt(off)
		rng = o.id.Range
		if st, ok := o.decl.(*ast.Step); ok && o.isDecl {
			hoverStep(w, d, st)
		} else {
			hoverDecl(w, d, o.decl)
		}
	case ix.depHeadAt(off) != nil:
		dep := ix.depHeadAt(off)
		rng = dep.Sub.Range
		hoverDependency(w, d, dep)
	case ix.calleeAt(off) != nil:
		call := ix.calleeAt(off)
		rng = call.Fun.Rng()
		if !hoverCallee(w, call.CalleeName()) && !hoverLibrarySkill(w, d, call.CalleeName(), off) {
			return nil
		}
	default:
		return nil
	}
	r := d.Range(rng)
	return &Hover{Contents: w.content(), Range: &r}
}

// hoverStep shows a step's action (or skill) and what the demonstration
// saw there.
func hoverStep(w *navText, d *Document, st *ast.Step) {
	w.code(navLine(d, st.Range.Start.Line))
	if d.Info != nil {
		if t, ok := d.Info.StepTypes[st]; ok {
			w.para(fmt.Sprintf("step %s: %s", st.Name.Name, t))
		}
	}
	if call, ok := st.Value.(*ast.Call); ok {
		if sk := newNavIndex(d).skills[call.CalleeName()]; sk != nil {
			w.code(navSkillSig(sk).label)
			w.para(fmt.Sprintf("runs skill %s, declared at line %d", sk.Name.Name, sk.Name.Range.Start.Line))
		} else if !hoverLibrarySkill(w, d, call.CalleeName(), st.Range.Start.Offset) {
			hoverCallee(w, call.CalleeName())
		}
	}
	if v, ok := demoValue(d, st); ok {
		w.para("Seen in the demonstration: " + v)
	}
}

// hoverDecl shows the declaration a name refers to: its kind, its type
// when known, and its source line.
func hoverDecl(w *navText, d *Document, decl ast.Node) {
	id := navDeclIdent(decl)
	head := navDeclKind(decl) + " " + id.Name
	switch n := decl.(type) {
	case *ast.InputDecl:
		if n.Type != nil {
			head += ": " + n.Type.String()
		}
	case *ast.Param:
		if n.Type != nil {
			head += ": " + n.Type.String()
		}
	case *ast.Step:
		if d.Info != nil {
			if t, ok := d.Info.StepTypes[n]; ok {
				head += ": " + t.String()
			}
		}
	case *ast.AnchorDecl:
		head += ": element"
	}
	w.para(fmt.Sprintf("%s — line %d", head, id.Range.Start.Line))
	w.code(navLine(d, decl.Rng().Start.Line))
	if st, ok := decl.(*ast.Step); ok {
		if v, ok := demoValue(d, st); ok {
			w.para("Seen in the demonstration: " + v)
		}
	}
}

// hoverCallee documents an action, a library function, an element
// constructor or predicate; false when the name is none of them (a skill
// is a declaration, an unknown name has its diagnostic).
func hoverCallee(w *navText, name string) bool {
	if a := check.Actions[name]; a != nil {
		sig := navActionSig(a)
		w.code(sig.label)
		w.para("action: " + sig.doc + ".")
		return true
	}
	if fs, ok := navFuncSigs()[name]; ok {
		sig := navFuncSig(fs)
		w.code(sig.label)
		w.para(sig.doc)
		for _, p := range sig.params {
			if p.doc != "" {
				w.item(p.name + ": " + p.doc)
			}
		}
		return true
	}
	if check.ElementRoles[name] {
		w.code(name + "(name: text, id: text, …) element")
		w.para("element constructor: describes a " + name + " by the attributes it was recorded with; the run anchors it on the live screen.")
		var attrs []string
		for _, a := range slices.Sorted(maps.Keys(check.ElementAttrs)) {
			attrs = append(attrs, a+": "+check.ElementAttrs[a].String())
		}
		w.para("Attributes: " + strings.Join(attrs, ", ") + ".")
		return true
	}
	if check.ElementPredicates[name] {
		w.code(name + "(target: element) bool")
		w.para("tests the screen: whether the element " + map[string]string{"exists": "exists", "visible": "is visible"}[name] + ", without failing the run.")
		return true
	}
	return false
}

// hoverLibrarySkill documents a library skill the file calls: its
// signature, description, example and the library file that declares it.
// The skill is the one of the driver of the task at off: two tasks of a
// file may call skills of one name from different drivers' libraries.
func hoverLibrarySkill(w *navText, d *Document, name string, off int) bool {
	if d.Info == nil || d.Workflow == nil {
		return false
	}
	decl := d.Info.LibraryByDriver[driverAt(d.File, off)][name]
	if decl == nil {
		decl = d.Info.LibrarySkills[name]
	}
	if decl == nil {
		return false
	}
	w.code(navSkillSig(decl).label)
	for _, s := range d.Workflow.Skills().All("") {
		if s.Decl == decl {
			if desc := s.Description(); desc != "" {
				w.para(desc)
			}
			if ex := s.Example(); ex != "" {
				w.para("Example: " + ex)
			}
			w.para(fmt.Sprintf("%s library skill, declared in %s at line %d", s.Driver, s.File, decl.Name.Range.Start.Line))
			return true
		}
	}
	w.para("library skill")
	return true
}

// hoverDependency shows a dependency's subcategory and main category
// from the document's knowledge base, with the examples it holds.
func hoverDependency(w *navText, d *Document, dep *ast.Dependency) {
	name := dep.Sub.Name
	if dep.Main != nil {
		name = dep.Main.Name + "." + name
	}
	source := "the default knowledge base"
	if d.ProjectDir != "" {
		source = filepath.Join(d.ProjectDir, "knowledge.hcl")
	}
	main, sub, ok := d.KB.Lookup(name)
	if !ok {
		w.para(fmt.Sprintf("%s is not a subcategory of %s.", name, source))
		if dep.Main != nil {
			if c := d.KB.Main(dep.Main.Name); c != nil {
				w.para(fmt.Sprintf("%s (main category, result %s): %s", c.Name, c.Result, c.Definition))
			}
		}
		return
	}
	result := sub.Result
	if result == "" {
		result = main.Result
	}
	w.heading(fmt.Sprintf("%s.%s → %s", main.Name, sub.Name, result))
	w.para(sub.Definition)
	w.para(fmt.Sprintf("%s (main category): %s", main.Name, main.Definition))
	if len(sub.Examples) > 0 {
		w.para("Examples:")
		for _, ex := range sub.Examples {
			w.itemCode(ex)
		}
	}
	w.para("From " + source + ".")
}

// navLine is the text of a 1-based source line, without its line break.
// The line is cogflow's (ast.Pos.Line, a journal's line), which counts
// "\n" only: not the protocol's, which a lone "\r" also ends.
func navLine(d *Document, line int) string {
	start, ok := cogLineStart(d.Text, line)
	if !ok {
		return ""
	}
	end := start
	for end < len(d.Text) && d.Text[end] != '\n' {
		end++
	}
	return strings.TrimRight(string(d.Text[start:end]), "\r")
}

// cogLineStart is the byte offset where cogflow's 1-based line begins.
func cogLineStart(text []byte, line int) (int, bool) {
	if line < 1 {
		return 0, false
	}
	off := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	return off, true
}

// navText writes hover text as markdown, or as plain text for clients
// that show no markdown.
type navText struct {
	md bool
	b  strings.Builder
}

func (w *navText) sep() {
	if w.b.Len() > 0 {
		w.b.WriteString("\n\n")
	}
}

func (w *navText) code(s string) {
	if strings.TrimSpace(s) == "" {
		return
	}
	w.sep()
	if w.md {
		w.b.WriteString("```cogflow\n" + strings.TrimSpace(s) + "\n```")
	} else {
		w.b.WriteString(strings.TrimSpace(s))
	}
}

func (w *navText) heading(s string) {
	w.sep()
	if w.md {
		w.b.WriteString("**" + navEscape(s) + "**")
	} else {
		w.b.WriteString(s)
	}
}

func (w *navText) para(s string) {
	if s == "" {
		return
	}
	w.sep()
	if w.md {
		w.b.WriteString(navEscape(s))
	} else {
		w.b.WriteString(s)
	}
}

func (w *navText) item(s string) {
	if w.md {
		w.b.WriteString("\n- " + navEscape(s))
	} else {
		w.b.WriteString("\n  - " + s)
	}
}

func (w *navText) itemCode(s string) {
	if w.md {
		w.b.WriteString("\n- `" + strings.ReplaceAll(s, "`", "'") + "`")
	} else {
		w.b.WriteString("\n  - " + s)
	}
}

func (w *navText) content() MarkupContent {
	if w.md {
		return MarkupContent{Kind: "markdown", Value: w.b.String()}
	}
	return MarkupContent{Kind: "plaintext", Value: w.b.String()}
}

// navEscape keeps a text's markdown characters literal: a definition with
// an underscore or an asterisk must not turn into emphasis.
func navEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
