package graph

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"
)

// The page's style and script, inlined in every page. The page's
// Content-Security-Policy allows exactly these two by their hashes and
// nothing else: no request of any kind leaves the page.
var (
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// HTMLOptions is what a page shows besides the graph.
type HTMLOptions struct {
	// File is the workflow's path as the page names it.
	File string
	// Source is the workflow file's text; a step's panel shows its lines.
	Source []byte
	// Run, if not nil, is what a run's journal says the steps did.
	Run *RunFacts
}

// maxFactsShown bounds the executions a page lists per step (a loop over a
// long table runs a step many times); the page says how many it left out.
const maxFactsShown = 200

// edgeLabelRunes bounds the label drawn on an edge.
const edgeLabelRunes = 24

// maxValueRunes bounds each value shown.
const maxValueRunes = 4000

// HTML writes the graph as one self-contained HTML page: the nodes in a
// column in source order with loops and branches as nested boxes, edges as
// SVG paths beside them, and a panel that shows a clicked node's source
// lines, edges and, with opts.Run, what the run did. The page loads
// nothing: its style and script are inline and its Content-Security-Policy
// forbids every request.
func (g *Graph) HTML(w io.Writer, opts HTMLOptions) error {
	l := layOut(g)
	data, err := g.pageData(opts)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	fmt.Fprintf(&b, "<meta http-equiv=\"Content-Security-Policy\" content=\"%s\">\n", contentSecurityPolicy())
	b.WriteString("<meta name=\"referrer\" content=\"no-referrer\">\n")
	b.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	fmt.Fprintf(&b, "<title>%s — cogflow graph</title>\n", esc(g.Task))
	b.WriteString("<style>" + pageCSS + "</style>\n</head>\n<body>\n")
	g.writeHeader(&b, opts)
	b.WriteString("<main>\n")
	g.writeSVG(&b, l, opts.Run)
	b.WriteString("<aside id=\"panel\" hidden>\n<button id=\"panel-close\" type=\"button\" aria-label=\"close\">×</button>\n" +
		"<h2 id=\"panel-title\"></h2>\n<p id=\"panel-kind\"></p>\n<h3>Source</h3>\n<pre id=\"panel-source\"></pre>\n" +
		"<div id=\"panel-edges\"></div>\n<div id=\"panel-run\"></div>\n</aside>\n</main>\n")
	// The data is JSON inside a script element that is never run. The
	// JSON encoder writes <, > and & as \u003c …, so no text in it can
	// close the element; the script reads it with JSON.parse and puts it
	// on the page as text only.
	b.WriteString("<script type=\"application/json\" id=\"cogflow-data\">")
	b.Write(data)
	b.WriteString("</script>\n<script>" + pageJS + "</script>\n</body>\n</html>\n")
	_, err = w.Write(b.Bytes())
	return err
}

// contentSecurityPolicy forbids everything (default-src 'none': no
// fetch, image, font, frame or connection) but the page's own inline
// style and script, named by their hashes.
func contentSecurityPolicy() string {
	return "default-src 'none'; style-src '" + hash(pageCSS) + "'; script-src '" + hash(pageJS) +
		"'; img-src 'none'; base-uri 'none'; form-action 'none'"
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(h[:])
}

func (g *Graph) writeHeader(b *bytes.Buffer, opts HTMLOptions) {
	b.WriteString("<header>\n")
	fmt.Fprintf(b, "<h1>%s</h1>\n", esc(g.Task))
	if g.Goal != "" {
		fmt.Fprintf(b, "<p class=\"goal\">%s</p>\n", esc(g.Goal))
	}
	if opts.File != "" {
		fmt.Fprintf(b, "<p class=\"file\">%s</p>\n", esc(opts.File))
	}
	if r := opts.Run; r != nil {
		outcome := r.Outcome
		if outcome == "" {
			outcome = "unfinished"
		}
		fmt.Fprintf(b, "<p id=\"run\" class=\"run st-%s\">run <b>%s</b>: %s", esc(cssWord(outcome)), esc(r.ID), esc(outcome))
		if r.Duration > 0 {
			fmt.Fprintf(b, " in %s", esc(duration(r.Duration)))
		}
		if !r.Started.IsZero() {
			fmt.Fprintf(b, ", started %s", esc(r.Started.UTC().Format("2006-01-02 15:04:05 MST")))
		}
		if r.Error != "" {
			fmt.Fprintf(b, " — %s", esc(shortLabelKeepLines(r.Error)))
		}
		b.WriteString("</p>\n")
		if r.Warning != "" {
			fmt.Fprintf(b, "<p id=\"run-warning\" class=\"warning\">%s</p>\n", esc(r.Warning))
		}
	}
	b.WriteString("<p class=\"legend\"><span class=\"k-semantic\">— cognitive dependency (its category)</span> " +
		"<span class=\"k-structural\">- - structural</span> <span class=\"k-order\">│ step order</span> " +
		"<span class=\"k-back\">··· again</span> · click a node for its source</p>\n</header>\n")
}

// writeSVG draws the layout: clusters first (behind), then edges, then
// the step, input and anchor boxes.
func (g *Graph) writeSVG(b *bytes.Buffer, l *layout, run *RunFacts) {
	inside := run.inside(g)
	fmt.Fprintf(b, "<svg id=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" role=\"img\" aria-label=\"%s\">\n",
		num(l.width), num(l.height), num(l.width), num(l.height), esc("graph of task "+g.Task))
	b.WriteString("<defs><marker id=\"arrow\" viewBox=\"0 0 8 8\" refX=\"7\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">" +
		"<path d=\"M0,0 L8,4 L0,8 z\"/></marker></defs>\n")
	b.WriteString("<g id=\"clusters\">\n")
	for _, bx := range l.order {
		if bx.node.cluster() {
			writeNode(b, bx, run, inside)
		}
	}
	b.WriteString("</g>\n<g id=\"edges\">\n")
	for i, r := range l.routes {
		e := r.edge
		fmt.Fprintf(b, "<g class=\"edge k-%s\" data-edge=\"%d\" data-from=\"%s\" data-to=\"%s\" data-kind=\"%s\" data-label=\"%s\">",
			e.Kind, i, esc(e.From), esc(e.To), e.Kind, esc(e.Label))
		fmt.Fprintf(b, "<title>%s</title>", esc(e.From+" → "+e.To+labelSuffix(e)))
		marker := " marker-end=\"url(#arrow)\""
		if r.left {
			marker = ""
		}
		fmt.Fprintf(b, "<path d=\"%s\"%s/>", r.path, marker)
		if e.Label != "" && !r.left {
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">%s</text>", num(r.labelX), num(r.labelY), esc(shortLabel(edgeWord(e), edgeLabelRunes)))
		}
		b.WriteString("</g>\n")
	}
	b.WriteString("</g>\n<g id=\"nodes\">\n")
	for _, bx := range l.order {
		if !bx.node.cluster() {
			writeNode(b, bx, run, inside)
		}
	}
	b.WriteString("</g>\n</svg>\n")
}

// writeNode draws one node as a focusable group the script makes
// clickable. With a run, a step is coloured by its outcome and a cluster
// by whether any step ran in it.
func writeNode(b *bytes.Buffer, bx *box, run *RunFacts, inside map[string]int) {
	n := bx.node
	class := "node n-" + cssWord(n.Kind)
	switch {
	case run != nil && n.Kind == "step":
		class += " st-" + cssWord(stepStatus(run.Steps[n.ID]))
	case run != nil && n.cluster() && inside[n.ID] > 0:
		class += " st-ran"
	case run != nil && n.cluster():
		class += " st-none"
	}
	fmt.Fprintf(b, "<g class=\"%s\" data-node=\"%s\" data-kind=\"%s\" tabindex=\"0\" role=\"button\" aria-label=\"%s\">",
		class, esc(n.ID), esc(n.Kind), esc(n.Label))
	fmt.Fprintf(b, "<title>%s</title>", esc(n.Label))
	fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" rx=\"5\"/>", num(bx.X), num(bx.Y), num(bx.W), num(bx.Height))
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">%s</text></g>\n", num(bx.X+10), num(bx.Y+16), esc(shortLabel(n.Label, labelRunes)))
}

// String names the kind as the page's classes and data-kind do: order,
// semantic, structural, back.
func (k EdgeKind) String() string {
	switch k {
	case Order:
		return "order"
	case Semantic:
		return "semantic"
	case Structural:
		return "structural"
	case Back:
		return "back"
	}
	return "edge" + strconv.Itoa(int(k))
}

// edgeWord is the short label drawn on an edge: a dependency's category
// (the description is in the title and the panel), else the whole label.
func edgeWord(e *Edge) string {
	if e.Kind == Semantic {
		if cat, _, ok := strings.Cut(e.Label, ": "); ok {
			return cat
		}
	}
	return e.Label
}

func labelSuffix(e *Edge) string {
	if e.Label == "" {
		return " (" + e.Kind.String() + ")"
	}
	return " (" + e.Kind.String() + "): " + e.Label
}

// esc escapes text for HTML and for a double-quoted attribute.
func esc(s string) string { return html.EscapeString(s) }

// cssWord keeps a word usable in a class name.
func cssWord(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, strings.ToLower(s))
}

// shortLabel puts a label on one line and cuts it to n runes.
func shortLabel(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func duration(d time.Duration) string {
	if d < time.Second {
		return d.Round(time.Millisecond).String()
	}
	return d.Round(10 * time.Millisecond).String()
}

// pageNode is what the panel shows of one node.
type pageNode struct {
	Kind  string     `json:"kind"`
	Label string     `json:"label"`
	Lines []pageLine `json:"lines"`
	In    []pageEdge `json:"in,omitempty"`
	Out   []pageEdge `json:"out,omitempty"`
	Run   []pageFact `json:"run,omitempty"`
	More  int        `json:"more,omitempty"` // executions left out
	// Given is, for an input with a run, the value the run was given.
	Given *string `json:"given,omitempty"`
	// Inside is, for a cluster with a run, how many step executions ran
	// in it.
	Inside *int `json:"inside,omitempty"`
}

type pageLine struct {
	N    int    `json:"n"`
	Text string `json:"text"`
}

type pageEdge struct {
	Node  string `json:"node"`
	Kind  string `json:"kind"`
	Label string `json:"label,omitempty"`
}

type pageFact struct {
	Outcome  string    `json:"outcome"`
	Duration string    `json:"duration"`
	Where    string    `json:"where,omitempty"`
	Value    string    `json:"value,omitempty"`
	Source   string    `json:"source,omitempty"`
	Error    string    `json:"error,omitempty"`
	Args     []ArgFact `json:"args,omitempty"`
}

type pageRun struct {
	ID string `json:"id"`
}

// pageData is the JSON the page's script reads.
func (g *Graph) pageData(opts HTMLOptions) ([]byte, error) {
	lines := strings.Split(string(opts.Source), "\n")
	nodes := map[string]*pageNode{}
	inside := opts.Run.inside(g)
	for _, n := range g.Nodes {
		pn := &pageNode{Kind: n.Kind, Label: n.Label, Lines: []pageLine{}}
		first, last := n.Range.Start.Line, n.Range.End.Line
		if n.cluster() || last < first {
			last = first // a cluster's head only: its body's lines are its nodes'
		}
		for ln := first; ln >= 1 && ln <= last && ln <= len(lines); ln++ {
			pn.Lines = append(pn.Lines, pageLine{N: ln, Text: strings.TrimRight(lines[ln-1], "\r")})
		}
		if v, ok := opts.Run.input(n); ok {
			pn.Given = &v
		}
		if c, ok := inside[n.ID]; ok {
			pn.Inside = &c
		}
		if opts.Run != nil {
			facts := opts.Run.Steps[n.ID]
			for i, f := range facts {
				if i == maxFactsShown {
					pn.More = len(facts) - i
					break
				}
				pn.Run = append(pn.Run, pageFact{Outcome: f.Outcome, Duration: duration(f.Duration), Where: shortLabelKeepLines(f.Where),
					Value: shortLabelKeepLines(f.Value), Source: f.Source, Error: shortLabelKeepLines(f.Error), Args: shortArgs(f.Args)})
			}
		}
		nodes[n.ID] = pn
	}
	for _, e := range g.Edges {
		if from, to := nodes[e.From], nodes[e.To]; from != nil && to != nil {
			from.Out = append(from.Out, pageEdge{Node: e.To, Kind: e.Kind.String(), Label: e.Label})
			to.In = append(to.In, pageEdge{Node: e.From, Kind: e.Kind.String(), Label: e.Label})
		}
	}
	var run *pageRun
	if opts.Run != nil {
		run = &pageRun{ID: opts.Run.ID}
	}
	return json.Marshal(struct {
		Task  string               `json:"task"`
		Nodes map[string]*pageNode `json:"nodes"`
		Run   *pageRun             `json:"run"`
	}{g.Task, nodes, run})
}

// shortArgs cuts each argument's value as shortLabelKeepLines does.
func shortArgs(args []ArgFact) []ArgFact {
	out := make([]ArgFact, len(args))
	for i, a := range args {
		out[i] = ArgFact{Name: a.Name, Value: shortLabelKeepLines(a.Value), Source: a.Source}
	}
	return out
}

// shortLabelKeepLines cuts a long value, keeping its line breaks.
func shortLabelKeepLines(s string) string {
	if r := []rune(s); len(r) > maxValueRunes {
		return string(r[:maxValueRunes]) + "…"
	}
	return s
}
