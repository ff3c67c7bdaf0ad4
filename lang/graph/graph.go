// Package graph draws a checked task as a graph: its inputs and steps in
// order, cognitive-dependency edges labelled with their subcategory and
// description, and structural edges (a step used directly, or through a
// function or method) dashed. It renders Graphviz DOT, Mermaid, and one
// self-contained HTML page (html.go) that loads nothing from anywhere.
package graph

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
)

// EdgeKind tells how a step depends on an earlier value.
type EdgeKind int

// Edge kinds.
const (
	// Order links consecutive steps of one block.
	Order EdgeKind = iota
	// Semantic is a cognitive dependency resolved by judgement.
	Semantic
	// Structural is a value used as it is, or computed by a function.
	Structural
	// Back goes from the end of a while's or until's body to the loop,
	// whose condition is judged again.
	Back
)

// Node is an input, anchor or step.
type Node struct {
	ID string // the name in the workflow
	// Kind is "input", "anchor", "step", "loop" (for, repeat, while,
	// until), "branch" (one branch of an if, a try's body or its
	// fallback) or "explore" (an explore block); the last three are drawn
	// as clusters.
	Kind  string
	Label string
	// Loop is the ID of the loop node whose body holds this node, "" at the
	// top level.
	Loop string
	// Range is where the node's declaration is in the source: the whole
	// statement, body included for a cluster.
	Range ast.Range
	// Branch is, for a branch node, how a run's journal names the branch
	// in the steps that ran in it (StepEvent.Branches): "line 5: else",
	// the line of the whole if or try.
	Branch string
}

// Edge is a dependency from one node to another.
type Edge struct {
	From, To string
	Kind     EdgeKind
	Label    string
}

// Graph is a task's dependency graph.
type Graph struct {
	Task  string
	Goal  string
	Nodes []*Node
	Edges []*Edge
}

// Build makes the graph of one task. info must come from checking the file
// that holds the task.
func Build(t *ast.Task, info *check.Info) *Graph {
	g := &Graph{Task: t.Name.Name}
	if t.Goal != nil {
		g.Goal = t.Goal.Value
	}
	b := &builder{g: g, info: info, names: map[ast.Node]string{}, seen: map[string]bool{}}
	b.block(t.Body, "")
	return g
}

type builder struct {
	g     *Graph
	info  *check.Info
	names map[ast.Node]string // declaration → node ID
	seen  map[string]bool     // edges already added, to avoid duplicates
	loops int
}

// block adds the nodes of blk and returns the ID of the last statement's
// node (loop when blk is empty).
func (b *builder) block(blk *ast.Block, loop string) string {
	prev := loop // a loop body starts at its loop node
	for _, s := range blk.Stmts {
		switch s := s.(type) {
		case *ast.InputDecl:
			b.node(s, s.Name.Name, "input", s.Name.Name+": "+s.Type.String(), loop)
		case *ast.AnchorDecl:
			b.node(s, s.Name.Name, "anchor", s.Name.Name, loop)
			b.edges(s.Name.Name, s.Value)
		case *ast.Step:
			label := s.Name.Name
			if call, ok := s.Value.(*ast.Call); ok && call.CalleeName() != "" {
				label += " = " + call.CalleeName()
			}
			if s.Confirm {
				label = "confirm " + label
			}
			b.node(s, s.Name.Name, "step", label, loop)
			if prev != "" {
				b.edge(prev, s.Name.Name, Order, "")
			}
			prev = s.Name.Name
			b.edges(s.Name.Name, s.Value)
		case *ast.ForStmt:
			b.loops++
			id := fmt.Sprintf("loop%d", b.loops)
			b.node(s, id, "loop", "for "+s.Var.Name+" in "+printer.ExprString(s.Iter), loop)
			b.names[s] = id
			b.edges(id, s.Iter)
			if prev != "" {
				b.edge(prev, id, Order, "")
			}
			prev = id
			b.block(s.Body, id)
		case *ast.RepeatStmt:
			id := b.container(s, "loop", "repeat "+printer.ExprString(s.Count), s.Count, loop, prev)
			prev = id
			b.block(s.Body, id)
		case *ast.WhileStmt:
			id := b.container(s, "loop", printer.WhileHead(s), s.Cond, loop, prev)
			for _, a := range s.Options {
				b.edges(id, a.Value)
			}
			prev = id
			if last := b.block(s.Body, id); last != id {
				b.edge(last, id, Back, "again")
			}
		case *ast.TryStmt:
			// The body and the fallback are clusters like an if's branches;
			// the fallback follows the body on an edge that says when.
			id := b.container(s, "branch", "try", nil, loop, prev)
			b.branch(s.Range.Start.Line)
			b.block(s.Body, id)
			fb := b.container(s.Fallback, "branch", "fallback", nil, loop, "")
			b.branch(s.Range.Start.Line)
			b.edge(id, fb, Order, "on failure")
			prev = fb
			b.block(s.Fallback, fb)
		case *ast.ExploreStmt:
			id := b.container(s, "explore", printer.ExploreHead(s), nil, loop, prev)
			prev = id
			b.block(s.Body, id)
		case *ast.IfStmt:
			// Each branch is a cluster of its own, in order after what
			// came before the if; the step after the if follows the last.
			head := "if "
			for c := s; c != nil; c = c.ElseIf {
				id := b.container(c, "branch", head+printer.ExprString(c.Cond), c.Cond, loop, prev)
				b.branch(s.Range.Start.Line)
				prev = id
				b.block(c.Then, id)
				if c.Else != nil {
					id := b.container(c.Else, "branch", "else", nil, loop, prev)
					b.branch(s.Range.Start.Line)
					prev = id
					b.block(c.Else, id)
				}
				head = "else if "
			}
		}
	}
	return prev
}

// container adds the node of a loop, an if's branch, a try's arm or an
// explore block, its edges from
// what its count or condition uses, and the order edge from prev.
func (b *builder) container(decl ast.Node, kind, label string, e ast.Expr, loop, prev string) string {
	b.loops++
	id := fmt.Sprintf("%s%d", kind, b.loops)
	b.node(decl, id, kind, label, loop)
	if e != nil {
		b.edges(id, e)
	}
	if prev != "" {
		b.edge(prev, id, Order, "")
	}
	return id
}

// branch names the branch node just added as a run's journal does: "line
// 12: else if n > 1", with the line of the whole if (or try) and the
// node's label, which is the interpreter's label too.
func (b *builder) branch(line int) {
	n := b.g.Nodes[len(b.g.Nodes)-1]
	n.Branch = fmt.Sprintf("line %d: %s", line, n.Label)
}

func (b *builder) node(decl ast.Node, id, kind, label, loop string) {
	b.names[decl] = id
	b.g.Nodes = append(b.g.Nodes, &Node{ID: id, Kind: kind, Label: label, Loop: loop, Range: decl.Rng()})
}

func (b *builder) edge(from, to string, kind EdgeKind, label string) {
	key := fmt.Sprintf("%s>%s>%d>%s", from, to, kind, label)
	if from == "" || from == to || b.seen[key] {
		return
	}
	b.seen[key] = true
	b.g.Edges = append(b.g.Edges, &Edge{From: from, To: to, Kind: kind, Label: label})
}

// edges adds an edge to node `to` for every value expression e refers to:
// semantic for dependency inputs, structural for everything else.
func (b *builder) edges(to string, e ast.Expr) {
	inspect(e, func(x ast.Expr, via viaKind) {
		switch x := x.(type) {
		case *ast.Dependency:
			label := x.Sub.Name + ": " + x.Description.Value
			for _, in := range x.Inputs {
				kind, l := Semantic, label
				if in.Name != nil && in.Name.Name == "within" {
					kind, l = Structural, "within" // scopes the choice; judges nothing
				}
				for _, from := range b.refsIn(in.Value) {
					b.edge(from, to, kind, l)
				}
			}
		case *ast.Ref:
			if from := b.names[b.info.Refs[x]]; from != "" && !via.isDependency() {
				b.edge(from, to, Structural, string(via))
			}
		}
	})
}

// refsIn lists the nodes an expression refers to.
func (b *builder) refsIn(e ast.Expr) []string {
	var out []string
	inspect(e, func(x ast.Expr, _ viaKind) {
		if r, ok := x.(*ast.Ref); ok {
			if id := b.names[b.info.Refs[r]]; id != "" {
				out = append(out, id)
			}
		}
	})
	return out
}

// viaKind names the function through which a reference is used ("" when it
// is used directly); dependencyVia marks references inside dependency
// inputs, which get semantic edges instead.
type viaKind string

const dependencyVia viaKind = "\x00dependency"

func (v viaKind) isDependency() bool { return v == dependencyVia }

// inspect calls fn for every expression in e, with the innermost function
// or method the expression is an argument of.
func inspect(e ast.Expr, fn func(ast.Expr, viaKind)) {
	var walk func(ast.Expr, viaKind)
	walk = func(e ast.Expr, via viaKind) {
		if e == nil {
			return
		}
		fn(e, via)
		switch e := e.(type) {
		case *ast.ListLit:
			for _, x := range e.Elems {
				walk(x, via)
			}
		case *ast.Member:
			walk(e.X, via)
		case *ast.Index:
			walk(e.X, via)
			walk(e.Index, via)
		case *ast.Slice:
			walk(e.X, via)
			walk(e.Lo, via)
			walk(e.Hi, via)
		case *ast.Call:
			inner := via
			switch f := e.Fun.(type) {
			case *ast.Ref:
				if _, isAction := check.Actions[f.Name]; !isAction && !via.isDependency() {
					inner = viaKind(f.Name)
				}
			case *ast.Member:
				walk(f.X, viaKind(f.Name.Name))
			}
			for _, a := range e.Args {
				walk(a.Value, inner)
			}
		case *ast.Dependency:
			for _, a := range e.Inputs {
				walk(a.Value, dependencyVia)
			}
		case *ast.Unary:
			walk(e.X, via)
		case *ast.Binary:
			walk(e.X, via)
			walk(e.Y, via)
		case *ast.Paren:
			walk(e.X, via)
		}
	}
	walk(e, "")
}

// escape makes text safe inside a double-quoted DOT or Mermaid label.
func escape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}
