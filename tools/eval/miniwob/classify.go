package main

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/syntax"
)

// answer is how a compiled step gets what it acts on, cheapest last: a
// fixed value or element (what the demonstration showed), structure, a
// synthesized expression, or a model.
type answer int

const (
	byFixed     answer = iota // literals, inputs, element descriptions
	byStructure               // structural helpers, earlier steps, loops over UI lists
	bySynthesis               // .text reads and functions computed over them
	byModel                   // a cognitive dependency sub<"…">(…)
)

func (a answer) String() string {
	return [...]string{"fixed", "structure", "synthesis", "model"}[a]
}

// structural are the helpers that find an element (or a cell's text) by
// its place in the page's structure rather than by computing a value.
var structural = map[string]bool{
	"next": true, "previous": true, "same": true, "rows": true, "items": true,
	"cell": true, "column": true, "texts": true, "with_text": true,
	"lookup": true, "find_row": true, "all": true,
}

// readMembers are the properties that read what an element shows.
var readMembers = map[string]bool{"text": true, "value": true}

// stepCounts is how many steps of a workflow each kind of answer served.
type stepCounts struct {
	Steps                              int
	Fixed, Structure, Synthesis, Model int
	kinds                              map[string]answer // by step name
}

// add counts one step.
func (c *stepCounts) add(name string, a answer) {
	c.Steps++
	switch a {
	case byFixed:
		c.Fixed++
	case byStructure:
		c.Structure++
	case bySynthesis:
		c.Synthesis++
	case byModel:
		c.Model++
	}
	if c.kinds == nil {
		c.kinds = map[string]answer{}
	}
	c.kinds[name] = a
}

// kindOf is how the named step is answered (byFixed when unknown).
func (c stepCounts) kindOf(step string) answer { return c.kinds[step] }

// classifySource parses a compiled workflow with the project's parser and
// classifies every step (in tasks, skills and loops). A step counts as
// its most expensive part: a dependency anywhere in it makes it a model
// step, else a .text read or a computed function a synthesis step, else
// a structural helper, an earlier step's value or an enclosing loop over
// a UI list a structure step; the rest is fixed. Anchors a step uses
// count as part of it.
func classifySource(filename string, src []byte) (stepCounts, error) {
	f, ds := syntax.Parse(filename, src)
	if ds.HasErrors() {
		return stepCounts{}, fmt.Errorf("parsing %s: %v", filename, ds.Err())
	}
	var counts stepCounts
	skills := map[string]bool{}
	for _, d := range f.Decls {
		if s, ok := d.(*ast.Skill); ok {
			skills[s.Name.Name] = true
		}
	}
	for _, body := range f.Bodies() {
		w := &walker{anchors: map[string]ast.Expr{}, steps: map[string]bool{}, skills: skills, counts: &counts}
		w.block(body, byFixed)
	}
	return counts, nil
}

// walker classifies the steps of one task or skill, in order.
type walker struct {
	anchors map[string]ast.Expr
	steps   map[string]bool // the steps seen so far
	skills  map[string]bool // calling a skill costs what its own steps cost, counted there
	counts  *stepCounts
}

// block classifies a block's steps; floor is the least kind of answer
// its steps get (a loop's iteration).
func (w *walker) block(b *ast.Block, floor answer) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.AnchorDecl:
			w.anchors[s.Name.Name] = s.Value
		case *ast.Step:
			w.counts.add(s.Name.Name, max(floor, w.expr(s.Value, map[string]bool{})))
			w.steps[s.Name.Name] = true
		case *ast.ForStmt:
			// A loop repeats its body over a list the page shows: at
			// least structure, more when the list is computed.
			w.block(s.Body, max(floor, byStructure, w.expr(s.Iter, map[string]bool{})))
		case *ast.RepeatStmt:
			w.block(s.Body, max(floor, w.expr(s.Count, map[string]bool{})))
		case *ast.WhileStmt:
			w.block(s.Body, max(floor, w.expr(s.Cond, map[string]bool{})))
		case *ast.TryStmt, *ast.ExploreStmt:
			for _, b := range ast.Bodies(s) {
				w.block(b, floor)
			}
		case *ast.IfStmt:
			// A branch's steps get at least what judging its condition
			// (and the conditions before it) takes.
			cond := floor
			for c := s; c != nil; c = c.ElseIf {
				cond = max(cond, w.expr(c.Cond, map[string]bool{}))
				w.block(c.Then, cond)
				w.block(c.Else, cond)
			}
		}
	}
}

// expr is the most expensive kind of answer inside e. seen guards
// against anchors that refer to each other.
func (w *walker) expr(e ast.Expr, seen map[string]bool) answer {
	a := byFixed
	ast.Inspect(e, func(x ast.Expr) bool {
		switch x := x.(type) {
		case *ast.Dependency:
			a = byModel
			return false
		case *ast.Member:
			if readMembers[x.Name.Name] {
				a = max(a, bySynthesis)
			}
		case *ast.Call:
			a = max(a, w.callee(x.Fun))
		case *ast.Ref:
			if v, ok := w.anchors[x.Name]; ok && !seen[x.Name] {
				seen[x.Name] = true
				a = max(a, w.expr(v, seen))
			} else if w.steps[x.Name] {
				a = max(a, byStructure) // an earlier step's element or value
			}
		}
		return true
	})
	return a
}

// callee is what calling fun costs: an action, an element description or
// a skill nothing, a structural helper structure, any other function
// synthesis. A method call (row.cell("Title")) is named by its member.
func (w *walker) callee(fun ast.Expr) answer {
	var name string
	switch f := fun.(type) {
	case *ast.Ref:
		name = f.Name
	case *ast.Member:
		name = f.Name.Name
	default:
		return byFixed
	}
	switch {
	case structural[name]:
		return byStructure
	case check.Actions[name] != nil || check.ElementRoles[name] || w.skills[name]:
		return byFixed
	}
	return bySynthesis
}
