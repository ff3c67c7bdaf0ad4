package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/stdlib/funcs"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// Completion: what may be written at the cursor, read from the text around
// it (completion_context.go) and the names in scope from the partial tree
// (completion_scope.go), with the signatures of the checker's tables, the
// function library and the project's knowledge base, so that what it
// offers is what `cogflow check` accepts.

// CompletionItem is the protocol's completion item (the fields cogflow
// sets).
type CompletionItem struct {
	Label            string         `json:"label"`
	Kind             int            `json:"kind,omitempty"`
	Detail           string         `json:"detail,omitempty"`
	Documentation    *MarkupContent `json:"documentation,omitempty"`
	SortText         string         `json:"sortText,omitempty"`
	FilterText       string         `json:"filterText,omitempty"`
	InsertTextFormat int            `json:"insertTextFormat,omitempty"`
	TextEdit         *TextEdit      `json:"textEdit,omitempty"`
}

// CompletionList is the completion result.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// Completion item kinds (the protocol's numbers).
const (
	kindFunction    = 3
	kindConstructor = 4
	kindVariable    = 6
	kindClass       = 7
	kindModule      = 9
	kindProperty    = 10
	kindValue       = 12
	kindKeyword     = 14
	kindSnippet     = 15
	kindEnumMember  = 20
	kindTypeParam   = 25
)

// Insert text formats.
const (
	formatPlain   = 1
	formatSnippet = 2
)

func init() {
	register("textDocument/completion", completion, func(caps map[string]any) {
		caps["completionProvider"] = map[string]any{"triggerCharacters": []string{".", "<", "\"", "("}}
	})
}

func completion(_ context.Context, s *Server, params json.RawMessage) (any, error) {
	var p TextDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.Document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	off := d.Offset(p.Position)
	b := &itemBuilder{d: d, ctx: contextAt(d.Text, off), off: off, snippets: s.ClientSupportsSnippets(), markdown: s.ClientSupportsMarkdown()}
	b.build()
	return CompletionList{Items: b.items}, nil
}

// itemBuilder collects the items for one request.
type itemBuilder struct {
	d                  *Document
	ctx                cursorContext
	off                int
	snippets, markdown bool
	items              []CompletionItem
	// rng is the range items replace, once computed (rngAt is its start).
	rng   Range
	rngAt int
}

// add appends an item that replaces the word typed before the cursor.
// insert is a snippet when the client takes them, plain otherwise.
func (b *itemBuilder) add(label string, kind int, detail, doc, plain, snippet string) {
	it := CompletionItem{Label: label, Kind: kind, Detail: detail, SortText: fmt.Sprintf("%02d%s", sortRank(kind), label)}
	if doc != "" {
		it.Documentation = &MarkupContent{Kind: "plaintext", Value: doc}
		if b.markdown {
			it.Documentation.Kind = "markdown"
		}
	}
	text, format := plain, formatPlain
	if b.snippets && snippet != "" && (plain == "" || !b.callFollows()) {
		text, format = snippet, formatSnippet
	}
	it.InsertTextFormat = format
	if b.rng == (Range{}) || b.rngAt != b.ctx.wordStart {
		b.rng, b.rngAt = Range{Start: b.d.Lines.Position(b.ctx.wordStart), End: b.d.Lines.Position(b.off)}, b.ctx.wordStart
	}
	it.TextEdit = &TextEdit{Range: b.rng, NewText: text}
	b.items = append(b.items, it)
}

// callFollows reports whether the cursor stands right before `(` or `<`,
// as when a name is changed in `cl▮(button(…))`: the name alone goes in,
// not a second pair of parentheses.
func (b *itemBuilder) callFollows() bool {
	return b.off < len(b.d.Text) && (b.d.Text[b.off] == '(' || b.d.Text[b.off] == '<')
}

// sortRank puts the names in scope first, then the rest by kind.
func sortRank(kind int) int {
	switch kind {
	case kindVariable, kindProperty:
		return 0
	case kindSnippet:
		return 1
	}
	return 5
}

func (b *itemBuilder) build() {
	switch b.ctx.place {
	case placeTopLevel:
		b.keywords("task", "skill")
		b.snippet("task", "task NAME \"GOAL\" { … }", "task ${1:name} \"${2:goal}\" {\n\tdriver ${3:browser}\n\t$0\n}")
	case placeStatement:
		b.statementStart()
	case placeAfterBrace:
		b.keywords("else", "fallback")
		b.snippet("else", "else { … }", "else {\n\t$0\n}")
		b.snippet("else if", "else if COND { … }", "else if ${1:condition} {\n\t$0\n}")
	case placeDriver:
		for _, name := range check.DefaultDrivers {
			b.add(name, kindEnumMember, "driver", "", name, "")
		}
	case placeType:
		for _, name := range types.Names() {
			b.add(name, kindTypeParam, "type", "", name, "")
		}
	case placeStepValue:
		b.actions()
		b.skills()
	case placeAnchorValue:
		b.constructors()
	case placeArgName:
		b.argNames()
		if !check.ElementRoles[b.ctx.callee] || len(b.ctx.attrsGiven) > 0 {
			break
		}
		b.expressions() // a constructor's first argument may be its name
	case placeExpr:
		if b.ctx.argName == "within" { // an element a choice is made inside
			b.constructors()
			b.names(func(n scopeName) bool { return n.typ == "element" })
			return
		}
		b.expressions()
	case placeMember:
		b.members()
	case placeAfterLess:
		if _, sub, ok := b.d.KB.Lookup(b.ctx.receiver); ok {
			for _, desc := range exampleDescriptions(sub) {
				b.add(strconv.Quote(desc), kindValue, "example of "+sub.Name, sub.Definition, strconv.Quote(desc), "")
			}
		}
	case placeDescription:
		b.descriptions()
	case placeLoopOption:
		// The options the parser takes after a loop's condition or an
		// explore's goal (docs/language.md).
		if b.ctx.receiver == "explore" {
			b.add("budget:", kindProperty, "the most exploration steps", "", "budget: ", "")
			break
		}
		b.add("max:", kindProperty, "the most iterations", "", "max: ", "")
		b.add("within:", kindProperty, "the most seconds", "", "within: ", "")
	}
}

func (b *itemBuilder) keywords(words ...string) {
	for _, w := range words {
		b.add(w, kindKeyword, "keyword", "", w, "")
	}
}

// snippet adds a snippet item, for clients that take snippets only.
func (b *itemBuilder) snippet(label, detail, body string) {
	if !b.snippets {
		return
	}
	b.add(label, kindSnippet, detail, "", "", body)
}

// statementStart offers what may begin a statement in a block.
func (b *itemBuilder) statementStart() {
	b.keywords("driver", "input", "anchor", "confirm", "for", "if", "repeat", "while", "until", "break", "continue", "try", "explore")
	for _, sn := range statementSnippets {
		b.snippet(sn.label, sn.detail, sn.body)
	}
}

var statementSnippets = []struct{ label, detail, body string }{
	{"for", "for ITEM in LIST { … }", "for ${1:item} in ${2:rows(table(name: \"${3}\"))} {\n\t$0\n}"},
	{"if", "if COND { … }", "if ${1:condition} {\n\t$0\n}"},
	{"if else", "if COND { … } else { … }", "if ${1:condition} {\n\t$2\n} else {\n\t$0\n}"},
	{"repeat", "repeat N { … }", "repeat ${1:3} {\n\t$0\n}"},
	{"while", "while COND, max: N { … }", "while ${1:condition}, max: ${2:100} {\n\t$0\n}"},
	{"until", "until COND, max: N { … }", "until ${1:condition}, max: ${2:100} {\n\t$0\n}"},
	{"try", "try { … } fallback { … }", "try {\n\t$1\n} fallback {\n\t$0\n}"},
	{"explore", "explore \"GOAL\", budget: N { … }", "explore \"${1:goal}\", budget: ${2:30} {\n\t$0\n}"},
	{"input", "input NAME: TYPE", "input ${1:name}: ${2:text}"},
	{"anchor", "anchor NAME = ROLE(…)", "anchor ${1:name} = ${2:textbox}(name: \"${3}\")"},
}

// actions offers every action with its signature.
func (b *itemBuilder) actions() {
	for _, name := range check.ActionNames() {
		a := check.Actions[name]
		var req []string
		for _, p := range a.Params {
			if !p.Optional && !p.NamedOnly {
				req = append(req, p.Name)
			}
		}
		b.add(name, kindFunction, actionSignature(a), "action: "+a.Doc, name, callSnippet(name, req))
	}
}

// actionSignature renders `type(target: element, text: text) → text`.
func actionSignature(a *check.Action) string {
	ps := make([]string, len(a.Params))
	for i, p := range a.Params {
		ts := make([]string, len(p.Types))
		for j, t := range p.Types {
			ts[j] = t.String()
		}
		opt := ""
		if p.Optional {
			opt = "?"
		}
		ps[i] = p.Name + opt + ": " + strings.Join(ts, " | ")
	}
	sig := string(a.Name) + "(" + strings.Join(ps, ", ") + ")"
	if a.Result.Kind != types.Void {
		sig += " → " + a.Result.String()
	}
	return sig
}

// callSnippet is `name(${1:a}, ${2:b})`.
func callSnippet(name string, params []string) string {
	ph := make([]string, len(params))
	for i, p := range params {
		ph[i] = fmt.Sprintf("${%d:%s}", i+1, p)
	}
	if len(ph) == 0 {
		return name + "($0)"
	}
	return name + "(" + strings.Join(ph, ", ") + ")"
}

func (b *itemBuilder) skills() {
	if b.d.File == nil {
		return
	}
	for _, d := range b.d.File.Decls {
		sk, ok := d.(*ast.Skill)
		if !ok {
			continue
		}
		var names, ps []string
		for _, p := range sk.Params {
			names = append(names, p.Name.Name)
			ps = append(ps, p.Name.Name+": "+typeString(p.Type))
		}
		b.add(sk.Name.Name, kindFunction, "skill "+sk.Name.Name+"("+strings.Join(ps, ", ")+")", "", sk.Name.Name, callSnippet(sk.Name.Name, names))
	}
	b.librarySkills()
}

// librarySkills offers the skills of the file's driver's library (and
// the project's) that the file does not hide with its own.
func (b *itemBuilder) librarySkills() {
	if b.d.Workflow == nil {
		return
	}
	driver := driverAt(b.d.File, b.off)
	for _, s := range b.d.Workflow.Skills().All(driver) {
		if driver == "" || hasSkillDecl(b.d.File, s.Name()) {
			continue
		}
		var names, ps []string
		for _, p := range s.Decl.Params {
			names = append(names, p.Name.Name)
			ps = append(ps, p.Name.Name+": "+typeString(p.Type))
		}
		doc := s.Description()
		if ex := s.Example(); ex != "" {
			doc += "\n\nExample: " + ex
		}
		b.add(s.Name(), kindFunction, s.Driver+" skill "+s.Name()+"("+strings.Join(ps, ", ")+")", doc, s.Name(), callSnippet(s.Name(), names))
	}
}

// driverAt is the driver of the task the cursor at off is in (the last
// declaration starting before it, since a line being typed may cut the
// task short in the tree), or for a skill the file's: a file's tasks may
// run on different drivers, and each calls its own driver's skills.
func driverAt(f *ast.File, off int) string {
	if f == nil {
		return ""
	}
	var at ast.Decl
	for _, d := range f.Decls {
		if d.Rng().Start.Offset <= off {
			at = d
		}
	}
	if t, ok := at.(*ast.Task); ok && t.Body != nil {
		for _, s := range t.Body.Stmts {
			if dd, ok := s.(*ast.DriverDecl); ok {
				return dd.Name.Name
			}
		}
	}
	return fileDriverName(f)
}

// fileDriverName is the driver of the file's first task that names one.
func fileDriverName(f *ast.File) string {
	if f == nil {
		return ""
	}
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok && t.Body != nil {
			for _, s := range t.Body.Stmts {
				if dd, ok := s.(*ast.DriverDecl); ok {
					return dd.Name.Name
				}
			}
		}
	}
	return ""
}

func hasSkillDecl(f *ast.File, name string) bool {
	if f == nil {
		return false
	}
	for _, d := range f.Decls {
		if s, ok := d.(*ast.Skill); ok && s.Name.Name == name {
			return true
		}
	}
	return false
}

func (b *itemBuilder) constructors() {
	for _, role := range sortedRoles() {
		b.add(role, kindConstructor, role+"(name: text, …) → element", "describes an element of role "+role+"; attributes: "+strings.Join(sortedAttrs(), ", "), role, role+"(${1})")
	}
}

func sortedRoles() []string {
	out := make([]string, 0, len(check.ElementRoles))
	for r := range check.ElementRoles {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

func sortedAttrs() []string {
	out := make([]string, 0, len(check.ElementAttrs))
	for a := range check.ElementAttrs {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

// argNames offers the names an argument of the open call may take: an
// element's attributes not given yet, an action's named-only options.
func (b *itemBuilder) argNames() {
	callee := b.ctx.callee
	switch {
	case check.ElementRoles[callee]:
		for _, attr := range sortedAttrs() {
			if !b.ctx.attrsGiven[attr] {
				b.add(attr+":", kindProperty, "attribute: "+check.ElementAttrs[attr].String(), "", attr+": ", "")
			}
		}
		return
	case check.Actions[callee] != nil:
		for _, p := range append(append([]check.Param(nil), check.Actions[callee].Params...), check.StepOptions...) {
			if p.NamedOnly || paramIsStepOption(p.Name) {
				if !b.ctx.attrsGiven[p.Name] {
					b.add(p.Name+":", kindProperty, "option of "+callee, "", p.Name+": ", "")
				}
			}
		}
	}
	b.expressions()
}

func paramIsStepOption(name string) bool {
	for _, p := range check.StepOptions {
		if p.Name == name {
			return true
		}
	}
	return false
}

// expressions offers what an expression may start with.
func (b *itemBuilder) expressions() {
	b.names(nil)
	sigs := signatures()
	for _, name := range funcs.Names() {
		sig := sigs[name]
		var ps []string
		for _, p := range sig.Params {
			ps = append(ps, p.Name)
		}
		b.add(name, kindFunction, funcSignature(sig), sig.Description, name, callSnippet(name, ps))
	}
	for name := range check.ElementPredicates {
		b.add(name, kindFunction, name+"(element) → bool", "true when the description picks exactly one element now", name, name+"(${1})")
	}
	b.constructors()
	b.categories()
	b.keywords("true", "false")
}

// signatures are the library's, computed once: building them builds the
// whole function table.
var signatures = sync.OnceValue(funcs.Signatures)

func funcSignature(sig funcs.Signature) string {
	var ps []string
	for _, p := range sig.Params {
		ps = append(ps, p.Name+": "+p.Type.String())
	}
	if sig.Variadic != nil {
		ps = append(ps, sig.Variadic.Name+"…: "+sig.Variadic.Type.String())
	}
	return sig.Name + "(" + strings.Join(ps, ", ") + ") → " + sig.Result.String()
}

// names offers the names in scope that keep passes (all when nil).
func (b *itemBuilder) names(keep func(scopeName) bool) {
	for _, n := range namesInScope(b.d.File, b.d.Info, b.d.Text, b.off) {
		if keep != nil && !keep(n) {
			continue
		}
		detail := n.kind
		if n.typ != "" {
			detail += ": " + n.typ
		}
		b.add(n.name, kindVariable, detail, declSource(b.d.Text, n.decl), n.name, "")
	}
}

// categories offers the knowledge base's subcategories, written as a
// dependency, and its main categories (for main.sub).
func (b *itemBuilder) categories() {
	k := b.d.KB
	if k == nil {
		return
	}
	for _, c := range k.Categories {
		b.add(c.Name, kindModule, "main category → "+c.Result, c.Definition, c.Name, "")
		for _, sub := range c.Subcategories {
			b.subcategory(c, sub)
		}
	}
}

func (b *itemBuilder) subcategory(c *kb.Category, sub *kb.Subcategory) {
	result := sub.Result
	if result == "" {
		result = c.Result
	}
	doc := sub.Definition
	if ex := sub.Examples; len(ex) > 0 {
		if b.markdown {
			doc += "\n\nExamples:\n```cog\n" + strings.Join(ex, "\n") + "\n```"
		} else {
			doc += "\n\nExamples:\n" + strings.Join(ex, "\n")
		}
	}
	b.add(sub.Name, kindClass, c.Name+"."+sub.Name+"<\"…\">(…) → "+result, doc, sub.Name, sub.Name+"<\"${1:description}\">(${2})")
}

// members offers after a dot: a main category's subcategories, or the
// properties and methods of the name's value (an element's text, cell(…)).
func (b *itemBuilder) members() {
	if b.d.KB != nil {
		if c := b.d.KB.Main(b.ctx.receiver); c != nil {
			for _, sub := range c.Subcategories {
				b.subcategory(c, sub)
			}
			return
		}
	}
	for _, n := range namesInScope(b.d.File, b.d.Info, b.d.Text, b.off) {
		if n.name != b.ctx.receiver {
			continue
		}
		t := n.t
		if t.Kind == types.Any && n.kind == "loop variable" {
			t = types.ElementT // most loops go over rows or items
		}
		props := check.Properties(t)
		for _, name := range sortedKeys(props) {
			b.add(name, kindProperty, t.String()+"."+name+": "+props[name].String(), "", name, "")
		}
		meths := check.Methods(t)
		for _, name := range sortedKeys(meths) {
			m := meths[name]
			var ps, names []string
			for _, p := range m.Params {
				ps = append(ps, p.Name+": "+typeNames(p.Types))
				names = append(names, p.Name)
			}
			b.add(name, kindFunction, name+"("+strings.Join(ps, ", ")+") → "+m.Result.String(), "", name, callSnippet(name, names))
		}
	}
}

func typeNames(ts []types.Type) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return strings.Join(out, " | ")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// descriptions offers, inside `sub<"…">`, the descriptions of the
// subcategory's examples: they show the kind of sentence it takes.
func (b *itemBuilder) descriptions() {
	_, sub, ok := b.d.KB.Lookup(b.ctx.receiver)
	if !ok {
		return
	}
	b.ctx.wordStart = b.ctx.stringStart // replace what is typed in the quotes
	for _, desc := range exampleDescriptions(sub) {
		q := strconv.Quote(desc)
		b.add(desc, kindValue, "example of "+sub.Name, sub.Definition, q[1:len(q)-1], "")
	}
}

// exampleDescriptions are the descriptions of a subcategory's examples,
// which are written as dependencies: `repeat<"the order number">(op4)`.
func exampleDescriptions(sub *kb.Subcategory) []string {
	var out []string
	for _, ex := range sub.Examples {
		i := strings.Index(ex, "<\"")
		if i < 0 {
			continue
		}
		q, err := strconv.QuotedPrefix(ex[i+1:])
		if err != nil {
			continue
		}
		if s, err := strconv.Unquote(q); err == nil {
			out = append(out, s)
		}
	}
	return out
}
