package graph_test

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/graph"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
)

const src = `task t "Copy and summarize" {
  driver browser
  input keyword: text = "k"
  anchor notes = textbox(name: "Notes")
  op1 = type(textbox(name: "Search"), keyword)
  op2 = click(match_element<"the result about the keyword">(op1))
  op3 = type(notes, summarize<"one sentence">(op2.text) + upper(keyword))
  for row in rows(table(name: "T"))[1:] {
    op4 = type(row.cell("Abstract"), replace(op1, "a", "b"))
  }
}
`

func build(t *testing.T) *graph.Graph {
	t.Helper()
	f, diags := syntax.Parse("t.cog", []byte(src))
	if f == nil {
		t.Fatal(diags.Err())
	}
	info, diags := check.Check(f, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	return graph.Build(f.Decls[0].(*ast.Task), info)
}

func TestEdges(t *testing.T) {
	g := build(t)
	want := []string{
		"keyword->op1 structural ",
		"op1->op2 semantic match_element: the result about the keyword",
		"op1->op2 order ",
		"op2->op3 semantic summarize: one sentence",
		"keyword->op3 structural upper",
		"notes->op3 structural ",
		"op3->loop1 order ",
		"loop1->op4 structural cell",
		"loop1->op4 order ",
		"op1->op4 structural replace",
	}
	kinds := map[graph.EdgeKind]string{graph.Order: "order", graph.Semantic: "semantic", graph.Structural: "structural"}
	have := map[string]bool{}
	for _, e := range g.Edges {
		have[e.From+"->"+e.To+" "+kinds[e.Kind]+" "+e.Label] = true
	}
	for _, w := range want {
		if !have[w] {
			t.Errorf("missing edge %q; have %v", w, have)
		}
	}
	// The dependency's input is semantic only: no structural edge for the
	// same reference.
	if have["op2->op3 structural "] {
		t.Error("a dependency input also got a structural edge")
	}
	var loopNodes []string
	for _, n := range g.Nodes {
		if n.Loop == "loop1" {
			loopNodes = append(loopNodes, n.ID)
		}
	}
	if strings.Join(loopNodes, ",") != "op4" {
		t.Errorf("loop body nodes = %v, want [op4]", loopNodes)
	}
}

func TestRenderings(t *testing.T) {
	g := build(t)
	dot := g.DOT()
	for _, want := range []string{
		`digraph "t" {`,
		`subgraph "cluster_loop1" {`,
		`"op1" -> "op2" [color=blue, fontcolor=blue, penwidth=1.5, label="match_element: the result about the keyword"];`,
		`"op1" -> "op4" [style=dashed, label="replace"];`,
		`label="Copy and summarize";`,
	} {
		if !strings.Contains(dot, want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot)
		}
	}
	if strings.Count(dot, "{") != strings.Count(dot, "}") {
		t.Errorf("unbalanced braces in DOT:\n%s", dot)
	}
	mm := g.Mermaid()
	for _, want := range []string{"flowchart TD", `n_op1 ==>|"match_element: the result about the keyword"| n_op2`, "n_op1 -.->|\"replace\"| n_op4", "subgraph n_loop1_body"} {
		if !strings.Contains(mm, want) {
			t.Errorf("Mermaid lacks %q:\n%s", want, mm)
		}
	}
}

// TestControlFlow: a repeat is a loop cluster and each branch of an if a
// cluster of its own, in order, with edges from what the condition uses.
func TestControlFlow(t *testing.T) {
	f, diags := syntax.Parse("t.cog", []byte(`task t {
  driver browser
  input n: number = 2
  op1 = click(button(name: "Go"))
  if visible(button(name: "Close")) {
    op2 = click(button(name: "Close"))
  } else if n > 1 {
    repeat n {
      op3 = click(button(name: "More"))
    }
  } else {
    op4 = click(button(name: "Less"))
  }
  op5 = click(button(name: "Done"))
}
`))
	if f == nil {
		t.Fatal(diags.Err())
	}
	info, diags := check.Check(f, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	g := graph.Build(f.Decls[0].(*ast.Task), info)
	var nodes []string
	for _, n := range g.Nodes {
		nodes = append(nodes, n.ID+"("+n.Kind+" "+n.Label+" in "+n.Loop+")")
	}
	want := "n(input n: number in ) op1(step op1 = click in ) branch1(branch if visible(button(name: \"Close\")) in ) op2(step op2 = click in branch1) " +
		"branch2(branch else if n > 1 in ) loop3(loop repeat n in branch2) op3(step op3 = click in loop3) branch4(branch else in ) op4(step op4 = click in branch4) op5(step op5 = click in )"
	if got := strings.Join(nodes, " "); got != want {
		t.Errorf("nodes\n got %s\nwant %s", got, want)
	}
	have := map[string]bool{}
	for _, e := range g.Edges {
		have[e.From+"->"+e.To] = true
	}
	for _, w := range []string{"op1->branch1", "branch1->branch2", "n->branch2", "branch2->loop3", "n->loop3", "branch4->op5"} {
		if !have[w] {
			t.Errorf("missing edge %s", w)
		}
	}
	if !strings.Contains(g.DOT(), "cluster_branch1") || !strings.Contains(g.Mermaid(), "branch4") {
		t.Error("branches are not drawn as clusters")
	}
}

// TestWhileLoop: a while or until is a loop cluster labelled with its
// head, with edges from what its condition and options use; break and
// continue add no node.
func TestWhileLoop(t *testing.T) {
	f, diags := syntax.Parse("t.cog", []byte(`task t {
  driver browser
  input n: number = 5
  op1 = click(button(name: "Go"))
  until visible(button(name: "Done")), max: n {
    op2 = click(button(name: "More"))
    if exists(button(name: "Skip")) {
      continue
    }
    while n > 1 {
      break
    }
  }
  op3 = click(button(name: "Done"))
}
`))
	if f == nil {
		t.Fatal(diags.Err())
	}
	info, diags := check.Check(f, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	g := graph.Build(f.Decls[0].(*ast.Task), info)
	var nodes []string
	for _, n := range g.Nodes {
		nodes = append(nodes, n.ID+"("+n.Kind+" "+n.Label+" in "+n.Loop+")")
	}
	want := "n(input n: number in ) op1(step op1 = click in ) loop1(loop until visible(button(name: \"Done\")), max: n in ) op2(step op2 = click in loop1) " +
		"branch2(branch if exists(button(name: \"Skip\")) in loop1) loop3(loop while n > 1 in loop1) op3(step op3 = click in )"
	if got := strings.Join(nodes, " "); got != want {
		t.Errorf("nodes\n got %s\nwant %s", got, want)
	}
	have := map[string]bool{}
	for _, e := range g.Edges {
		have[e.From+"->"+e.To] = true
	}
	for _, e := range g.Edges {
		if e.Kind == graph.Back && !(e.From == "loop3" && e.To == "loop1" && e.Label == "again") {
			t.Errorf("back edge %+v", e)
		}
	}
	for _, w := range []string{"op1->loop1", "n->loop1", "loop1->op3", "loop3->loop1"} {
		if !have[w] {
			t.Errorf("missing edge %s", w)
		}
	}
	if !strings.Contains(g.DOT(), "cluster_loop1") || !strings.Contains(g.Mermaid(), "loop3") {
		t.Error("loops are not drawn as clusters")
	}
}

// TestTryAndExplore: a try's body and fallback are branch clusters, the
// fallback after the body on an edge labelled "on failure"; an explore
// block is a cluster labelled with its head.
func TestTryAndExplore(t *testing.T) {
	f, diags := syntax.Parse("t.cog", []byte(`task t {
  driver browser
  op1 = click(button(name: "Go"))
  try {
    op2 = click(button(name: "Save"))
  } fallback {
    op3 = click(button(name: "Save as"))
  }
  explore "the file list", budget: 30 {
    op4 = click(explore<"the file named report">(op1))
  }
  op5 = click(button(name: "Done"))
}
`))
	if f == nil {
		t.Fatal(diags.Err())
	}
	info, diags := check.Check(f, kb.CheckEnv(nil))
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	g := graph.Build(f.Decls[0].(*ast.Task), info)
	var nodes []string
	for _, n := range g.Nodes {
		nodes = append(nodes, n.ID+"("+n.Kind+" "+n.Label+" in "+n.Loop+")")
	}
	want := "op1(step op1 = click in ) branch1(branch try in ) op2(step op2 = click in branch1) branch2(branch fallback in ) op3(step op3 = click in branch2) " +
		"explore3(explore explore \"the file list\", budget: 30 in ) op4(step op4 = click in explore3) op5(step op5 = click in )"
	if got := strings.Join(nodes, " "); got != want {
		t.Errorf("nodes\n got %s\nwant %s", got, want)
	}
	have := map[string]string{}
	for _, e := range g.Edges {
		have[e.From+"->"+e.To] = e.Label
	}
	for w, label := range map[string]string{"op1->branch1": "", "branch1->branch2": "on failure", "branch2->explore3": "", "op1->op4": "explore: the file named report", "explore3->op5": ""} {
		if got, ok := have[w]; !ok || got != label {
			t.Errorf("edge %s: %q (present %v), want %q", w, got, ok, label)
		}
	}
	if !strings.Contains(g.DOT(), "cluster_explore3") || !strings.Contains(g.Mermaid(), "n_explore3_body") {
		t.Error("an explore block is not drawn as a cluster")
	}
}
