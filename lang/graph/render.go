package graph

import (
	"fmt"
	"strings"
)

// DOT renders the graph for Graphviz: steps top to bottom in order,
// semantic edges solid and labelled, structural edges dashed, loop bodies
// in clusters.
func (g *Graph) DOT() string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n", g.Task)
	b.WriteString("  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
	if g.Goal != "" {
		fmt.Fprintf(&b, "  label=\"%s\";\n  labelloc=t;\n", escape(g.Goal))
	}
	g.dotNodes(&b, "", "  ")
	for _, e := range g.Edges {
		attrs := []string{}
		switch e.Kind {
		case Order:
			attrs = append(attrs, "color=gray", "arrowhead=none", "weight=10")
		case Semantic:
			attrs = append(attrs, "color=blue", "fontcolor=blue", "penwidth=1.5")
		case Structural:
			attrs = append(attrs, "style=dashed")
		case Back:
			attrs = append(attrs, "color=gray", "style=dotted", "constraint=false")
		}
		if e.Label != "" {
			attrs = append(attrs, fmt.Sprintf("label=\"%s\"", escape(e.Label)))
		}
		fmt.Fprintf(&b, "  %q -> %q [%s];\n", e.From, e.To, strings.Join(attrs, ", "))
	}
	b.WriteString("}\n")
	return b.String()
}

// dotNodes writes the nodes of one loop level, nesting loop bodies as
// clusters.
func (g *Graph) dotNodes(b *strings.Builder, loop, indent string) {
	for _, n := range g.Nodes {
		if n.Loop != loop {
			continue
		}
		if n.cluster() {
			fmt.Fprintf(b, "%ssubgraph \"cluster_%s\" {\n", indent, n.ID)
			fmt.Fprintf(b, "%s  label=\"%s\";\n%s  style=rounded;\n", indent, escape(n.Label), indent)
			fmt.Fprintf(b, "%s  %q [label=\"%s\", shape=point];\n", indent, n.ID, escape(n.Label))
			g.dotNodes(b, n.ID, indent+"  ")
			fmt.Fprintf(b, "%s}\n", indent)
			continue
		}
		shape := map[string]string{"input": "parallelogram", "anchor": "note", "step": "box"}[n.Kind]
		fmt.Fprintf(b, "%s%q [label=\"%s\", shape=%s];\n", indent, n.ID, escape(n.Label), shape)
	}
}

// Mermaid renders the graph as a Mermaid flowchart.
func (g *Graph) Mermaid() string {
	var b strings.Builder
	if g.Goal != "" {
		fmt.Fprintf(&b, "---\ntitle: %s\n---\n", strings.ReplaceAll(g.Goal, "\n", " "))
	}
	b.WriteString("flowchart TD\n")
	g.mermaidNodes(&b, "", "  ")
	for _, e := range g.Edges {
		arrow := map[EdgeKind]string{Order: "---", Semantic: "==>", Structural: "-.->", Back: "-.->"}[e.Kind]
		if e.Label != "" {
			fmt.Fprintf(&b, "  %s %s|\"%s\"| %s\n", mermaidID(e.From), arrow, mermaidText(e.Label), mermaidID(e.To))
		} else {
			fmt.Fprintf(&b, "  %s %s %s\n", mermaidID(e.From), arrow, mermaidID(e.To))
		}
	}
	return b.String()
}

func (g *Graph) mermaidNodes(b *strings.Builder, loop, indent string) {
	for _, n := range g.Nodes {
		if n.Loop != loop {
			continue
		}
		if n.cluster() {
			fmt.Fprintf(b, "%ssubgraph %s_body [\"%s\"]\n", indent, mermaidID(n.ID), mermaidText(n.Label))
			fmt.Fprintf(b, "%s  %s((\" \"))\n", indent, mermaidID(n.ID))
			g.mermaidNodes(b, n.ID, indent+"  ")
			fmt.Fprintf(b, "%send\n", indent)
			continue
		}
		open, close := "[\"", "\"]"
		switch n.Kind {
		case "input":
			open, close = "[/\"", "\"/]"
		case "anchor":
			open, close = "[(\"", "\")]"
		}
		fmt.Fprintf(b, "%s%s%s%s%s\n", indent, mermaidID(n.ID), open, mermaidText(n.Label), close)
	}
}

// mermaidID prefixes IDs so that names like "end" or "graph", which are
// Mermaid keywords, stay plain node IDs.
func mermaidID(id string) string { return "n_" + id }

// mermaidText escapes a label for Mermaid's quoted strings, which take
// HTML entities rather than backslashes.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "\n", " ", "|", "#124;").Replace(s)
}

// cluster reports whether a node is drawn as a cluster holding the nodes
// of its body.
func (n *Node) cluster() bool {
	return n.Kind == "loop" || n.Kind == "branch" || n.Kind == "explore"
}
