// Package reflection evolves the knowledge base from a person's edits of a
// compiled workflow, after TaskMind's reflection module. It finds the
// cognitive dependencies the person changed (Changes), asks a language
// model why the compiled one was wrong and how the knowledge base should
// change (Prompt, Ask), reads the answer strictly (ParseReply) and applies
// it to a copy of the knowledge base under rules that keep the main
// categories closed and never take away what a subcategory covered
// (Apply). docs/knowledge.md describes the protocol for users.
package reflection

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
)

// Kind says how a dependency changed. A modified dependency can have
// several kinds at once (its description edited and its inputs changed),
// so Kind is a set of bits.
type Kind uint8

// The kinds of change.
const (
	Added             Kind = 1 << iota // a dependency the compiled workflow lacked
	Deleted                            // a compiled dependency the person removed
	DescriptionEdited                  // same subcategory, other description
	InputsChanged                      // other arguments
	CategoryChanged                    // other subcategory or main category
)

var kindNames = []struct {
	k    Kind
	name string
}{
	{Added, "added"}, {Deleted, "deleted"}, {DescriptionEdited, "description edited"},
	{InputsChanged, "inputs changed"}, {CategoryChanged, "category changed"},
}

// String names the kinds in k, e.g. "description edited, inputs changed".
func (k Kind) String() string {
	var names []string
	for _, n := range kindNames {
		if k&n.k != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "unchanged"
	}
	return strings.Join(names, ", ")
}

// Change is one modification of a cognitive dependency between the
// compiled and the edited workflow.
type Change struct {
	Kind Kind
	Task string // the task or skill that holds the step
	Step string // the step's name
	// Original and Edited are the dependency before and after; Original is
	// nil for Added, Edited nil for Deleted.
	Original, Edited *ast.Dependency
	// OriginalStep and EditedStep are the steps that hold them; one is nil
	// when the whole step was added or deleted.
	OriginalStep, EditedStep *ast.Step
}

// Where renders the positions of both sides, "compiled.cog:9:14 →
// edited.cog:9:14", with "(none)" for a missing side.
func (c Change) Where() string {
	return pos(c.Original) + " → " + pos(c.Edited)
}

func pos(d *ast.Dependency) string {
	if d == nil {
		return "(none)"
	}
	return d.Range.String()
}

// String renders the change on one line for a listing:
// "edited.cog:9:14: op7: description edited: summarize<"a">(op5) → summarize<"b">(op5)".
func (c Change) String() string {
	at := pos(c.Edited)
	if c.Edited == nil {
		at = pos(c.Original)
	}
	return fmt.Sprintf("%s: %s: %s: %s → %s", at, c.Step, c.Kind, DepString(c.Original), DepString(c.Edited))
}

// DepString prints a dependency as a workflow writes it, or "(none)".
func DepString(d *ast.Dependency) string {
	if d == nil {
		return "(none)"
	}
	return printer.ExprString(d)
}

// Changes lists the dependencies that differ between the compiled original
// and the edited workflow. Tasks and skills are matched by name, steps by
// name within them (a renamed step reads as one deleted and one added), and
// the dependencies of a step pair up in the order they are written. The
// changes come in the edited file's order, then those of steps the person
// deleted, in the original's order.
func Changes(original, edited *ast.File) []Change {
	var out []Change
	orig := declsByName(original)
	seen := map[string]bool{}
	for _, d := range decls(edited) {
		name := d.DeclName()
		seen[name] = true
		out = append(out, bodyChanges(name, orig[name], body(d))...)
	}
	for _, d := range decls(original) {
		if !seen[d.DeclName()] {
			out = append(out, bodyChanges(d.DeclName(), body(d), nil)...)
		}
	}
	return out
}

// bodyChanges compares the steps of one task or skill; either side may be
// nil when the whole declaration was added or deleted.
func bodyChanges(task string, orig, edited *ast.Block) []Change {
	origSteps := steps(orig)
	byName := map[string]*ast.Step{}
	for _, s := range origSteps {
		byName[s.Name.Name] = s
	}
	var out []Change
	matched := map[*ast.Step]bool{}
	for _, e := range steps(edited) {
		o := byName[e.Name.Name]
		if o != nil {
			matched[o] = true
		}
		out = append(out, stepChanges(task, o, e)...)
	}
	for _, o := range origSteps {
		if !matched[o] {
			out = append(out, stepChanges(task, o, nil)...)
		}
	}
	return out
}

// stepChanges pairs the dependencies of two versions of a step.
func stepChanges(task string, orig, edited *ast.Step) []Change {
	a, b := deps(orig), deps(edited)
	name := ""
	if orig != nil {
		name = orig.Name.Name
	} else {
		name = edited.Name.Name
	}
	var out []Change
	for i := 0; i < max(len(a), len(b)); i++ {
		c := Change{Task: task, Step: name, OriginalStep: orig, EditedStep: edited}
		switch {
		case i >= len(a):
			c.Kind, c.Edited = Added, b[i]
		case i >= len(b):
			c.Kind, c.Original = Deleted, a[i]
		default:
			c.Original, c.Edited = a[i], b[i]
			c.Kind = compare(a[i], b[i])
		}
		if c.Kind != 0 {
			out = append(out, c)
		}
	}
	return out
}

// compare says how dependency b differs from a. Writing out the main
// category of a subcategory that already had one is not a change; naming
// another main category is.
func compare(a, b *ast.Dependency) Kind {
	var k Kind
	if a.Sub.Name != b.Sub.Name || (a.Main != nil && b.Main != nil && a.Main.Name != b.Main.Name) {
		k |= CategoryChanged
	}
	if descOf(a) != descOf(b) {
		k |= DescriptionEdited
	}
	if inputsOf(a) != inputsOf(b) {
		k |= InputsChanged
	}
	return k
}

func descOf(d *ast.Dependency) string {
	if d.Description == nil {
		return ""
	}
	return d.Description.Value
}

// inputsOf prints a dependency's arguments, named ones included, so that
// two argument lists compare by their text.
func inputsOf(d *ast.Dependency) string {
	var parts []string
	for _, a := range d.Inputs {
		s := printer.ExprString(a.Value)
		if a.Name != nil {
			s = a.Name.Name + ": " + s
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// deps returns the dependencies in a step, outer before inner, in the
// order they are written.
func deps(s *ast.Step) []*ast.Dependency {
	if s == nil {
		return nil
	}
	var out []*ast.Dependency
	ast.Inspect(s.Value, func(e ast.Expr) bool {
		if d, ok := e.(*ast.Dependency); ok {
			out = append(out, d)
		}
		return true
	})
	return out
}

// steps returns the steps of a body in order, those in loops included.
func steps(b *ast.Block) []*ast.Step {
	if b == nil {
		return nil
	}
	var out []*ast.Step
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.Step:
			out = append(out, s)
		case *ast.ForStmt, *ast.IfStmt, *ast.RepeatStmt, *ast.WhileStmt, *ast.TryStmt, *ast.ExploreStmt:
			for _, b := range ast.Bodies(s) {
				out = append(out, steps(b)...)
			}
		}
	}
	return out
}

func decls(f *ast.File) []ast.Decl {
	if f == nil {
		return nil
	}
	return f.Decls
}

func declsByName(f *ast.File) map[string]*ast.Block {
	out := map[string]*ast.Block{}
	for _, d := range decls(f) {
		out[d.DeclName()] = body(d)
	}
	return out
}

// body returns the statements of a task or skill.
func body(d ast.Decl) *ast.Block {
	switch d := d.(type) {
	case *ast.Task:
		return d.Body
	case *ast.Skill:
		return d.Body
	}
	return nil
}
