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
