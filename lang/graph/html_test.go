package graph_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/internal/goldentest"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/graph"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/stdlib/kb"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden pages in testdata/html")

// buildSrc parses and checks a one-task file and builds its graph.
func buildSrc(t testing.TB, src string) *graph.Graph {
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

func page(t *testing.T, g *graph.Graph, opts graph.HTMLOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := g.HTML(&b, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var (
	svgRE  = regexp.MustCompile(`(?s)<svg id="graph".*</svg>\n`)
	dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="cogflow-data">(.*?)</script>`)
)

// TestHTMLGolden keeps the drawing (the SVG: layout, classes, edge
// routes) and the panel's data of a page with every kind of node.
func TestHTMLGolden(t *testing.T) {
	goldentest.Run(t, "testdata/html/*.txtar", "want", *update, func(t *testing.T, name string, data []byte) string {
		g := buildSrc(t, string(data))
		p := page(t, g, graph.HTMLOptions{File: name, Source: data})
		svg := svgRE.FindString(p)
		m := dataRE.FindStringSubmatch(p)
		if svg == "" || m == nil {
			t.Fatalf("no svg or no data in the page:\n%s", p)
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, []byte(m[1]), "", " "); err != nil {
			t.Fatalf("the page's data is not JSON: %v", err)
		}
		return svg + pretty.String() + "\n"
	})
}

// TestHTMLCounts: one element per node and per edge of the graph, with the
// edge's ends and kind, so that the page and `--format dot` cannot differ.
func TestHTMLCounts(t *testing.T) {
	g := buildSrc(t, src)
	p := page(t, g, graph.HTMLOptions{Source: []byte(src)})
	if n := strings.Count(p, " data-node=\""); n != len(g.Nodes) {
		t.Errorf("%d data-node elements, want %d", n, len(g.Nodes))
	}
	if n := strings.Count(p, " data-edge=\""); n != len(g.Edges) {
		t.Errorf("%d data-edge elements, want %d", n, len(g.Edges))
	}
	for _, e := range g.Edges {
		want := fmt.Sprintf(`data-from="%s" data-to="%s" data-kind="%s"`, e.From, e.To, e.Kind)
		if !strings.Contains(p, want) {
			t.Errorf("no edge element with %s", want)
		}
	}
}

// TestHTMLContentSecurityPolicy: the policy forbids every request and
// allows exactly the page's own style and script, by hash.
func TestHTMLContentSecurityPolicy(t *testing.T) {
	p := page(t, buildSrc(t, src), graph.HTMLOptions{})
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]+)">`).FindStringSubmatch(p)
	if csp == nil {
		t.Fatal("no Content-Security-Policy meta")
	}
	style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(p)
	script := regexp.MustCompile(`(?s)<script>(.*?)</script>`).FindStringSubmatch(p)
	if style == nil || script == nil {
		t.Fatal("no inline style or script")
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return base64.StdEncoding.EncodeToString(h[:]) }
	for _, want := range []string{"default-src 'none'", "style-src 'sha256-" + sum(style[1]) + "'",
		"script-src 'sha256-" + sum(script[1]) + "'", "base-uri 'none'", "form-action 'none'"} {
		if !strings.Contains(csp[1], want) {
			t.Errorf("policy %q lacks %q", csp[1], want)
		}
	}
	if strings.Contains(csp[1], "unsafe") || strings.Contains(csp[1], "http") {
		t.Errorf("policy %q allows more than it must", csp[1])
	}
	// The SVG namespace is a name, never fetched.
	for _, ref := range []string{"http:", "https:", "src=", "href=", "@import", "url(h"} {
		if strings.Contains(strings.ReplaceAll(p, `xmlns="http://www.w3.org/2000/svg"`, ""), ref) {
			t.Errorf("the page refers to something outside it: %q", ref)
		}
	}
}

// TestHTMLEscapes: names, strings, source text and run values that look
// like markup stay text: the page keeps exactly its own two script
// elements, and no element or attribute comes from the workflow.
func TestHTMLEscapes(t *testing.T) {
	hostile := `</script><img src=x onerror="alert(1)">&amp;<!--`
	src := `task t "Goal </script><script>alert(1)</script>" {
  driver browser
  op1 = type(textbox(name: "` + strings.ReplaceAll(hostile, `"`, `\"`) + `"), "` + strings.ReplaceAll(hostile, `"`, `\"`) + `")
  op2 = click(match_element<"the ` + strings.ReplaceAll(hostile, `"`, `'`) + `">(op1))
}
`
	g := buildSrc(t, src)
	run := &graph.RunFacts{ID: "r1", Outcome: "failed", Error: hostile, Started: time.Now(), Steps: map[string][]graph.StepFact{
		"op1": {{Outcome: "ok", Value: hostile, Where: hostile, Args: []graph.ArgFact{{Name: hostile, Value: hostile}}}},
		"op2": {{Outcome: "failed", Error: hostile}},
	}, Warning: hostile}
	p := page(t, g, graph.HTMLOptions{File: hostile, Source: []byte(src), Run: run})
	lower := strings.ToLower(p)
	if n := strings.Count(lower, "<script"); n != 2 {
		t.Errorf("%d <script in the page, want 2 (the data and the script)", n)
	}
	if n := strings.Count(lower, "</script"); n != 2 {
		t.Errorf("%d </script in the page, want 2", n)
	}
	for _, bad := range []string{"<img", "<!--", "onerror=\"", "onerror=alert"} {
		if strings.Contains(lower, bad) {
			t.Errorf("the page holds %q from the workflow or the run", bad)
		}
	}
	if !strings.Contains(p, "&lt;/script&gt;&lt;img src=x onerror=&#34;alert(1)&#34;&gt;&amp;amp;") {
		t.Errorf("the hostile text is not shown escaped")
	}
}

// TestHTMLRunFacts: with a run, a step's box is coloured by its outcome
// (failed wins over ok), a step the run never reached says so, and a step
// run more often than the page lists says how many it left out.
func TestHTMLRunFacts(t *testing.T) {
	g := buildSrc(t, src)
	facts := make([]graph.StepFact, 250)
	for i := range facts {
		facts[i] = graph.StepFact{Outcome: "ok", Duration: time.Millisecond}
	}
	run := &graph.RunFacts{ID: "r1", Outcome: "failed", Started: time.Date(2026, 11, 25, 10, 17, 39, 0, time.UTC),
		Duration: 1930 * time.Millisecond, Steps: map[string][]graph.StepFact{
			"op1": {{Outcome: "ok"}, {Outcome: "failed", Error: "no such element"}},
			"op2": {{Outcome: "ok"}},
			"op4": facts,
		}}
	p := page(t, g, graph.HTMLOptions{Source: []byte(src), Run: run})
	for _, want := range []string{
		`class="node n-step st-failed" data-node="op1"`,
		`class="node n-step st-ok" data-node="op2"`,
		`class="node n-step st-none" data-node="op3"`,
		`"more":50`,
		`"error":"no such element"`,
		`id="run" class="run st-failed">run <b>r1</b>: failed in 1.93s, started 2026-11-25 10:17:39 UTC`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page(t, g, graph.HTMLOptions{}), `id="run"`) {
		t.Error("a page without a run shows a run")
	}
}

// TestHTMLRunClusters: with a run, a branch counts the executions the
// journal says ran in it (named as the interpreter names it: the line of
// the whole if or try and the branch's label), a loop those of the steps
// in its body, and a cluster where nothing ran is marked so.
func TestHTMLRunClusters(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/html/control.txtar")
	if err != nil {
		t.Fatal(err)
	}
	g := buildSrc(t, string(ar.Files[0].Data))
	names := map[string]string{}
	for _, n := range g.Nodes {
		if n.Branch != "" {
			names[n.ID] = n.Branch
		}
	}
	wantNames := map[string]string{
		"branch2": `line 10: if visible(button(name: "Close"))`, "branch3": "line 10: else if n > 1", "branch5": "line 10: else",
		"branch7": "line 22: try", "branch8": "line 22: fallback",
	}
	if !maps.Equal(names, wantNames) {
		t.Errorf("branch names %q, want %q", names, wantNames)
	}
	run := &graph.RunFacts{ID: "r1", Outcome: "ok", Steps: map[string][]graph.StepFact{
		"op3": {{Outcome: "ok"}, {Outcome: "ok"}},
		"op5": {{Outcome: "ok", Branches: []string{"line 10: else if n > 1"}}, {Outcome: "ok", Branches: []string{"line 10: else if n > 1"}}},
		"op9": {{Outcome: "ok", Branches: []string{"line 22: fallback"}}},
	}}
	p := page(t, g, graph.HTMLOptions{Run: run})
	for id, want := range map[string]string{"loop1": "st-ran", "branch2": "st-none", "branch3": "st-ran", "loop4": "st-ran",
		"branch5": "st-none", "loop6": "st-none", "branch7": "st-none", "branch8": "st-ran", "explore9": "st-none"} {
		re := regexp.MustCompile(`class="node n-\w+ (st-\w+)" data-node="` + id + `"`)
		if m := re.FindStringSubmatch(p); m == nil || m[1] != want {
			t.Errorf("%s: class %v, want %s", id, m, want)
		}
	}
	for _, want := range []string{`"label":"else if n \u003e 1",`, `"inside":2`} {
		if !strings.Contains(p, want) {
			t.Errorf("page data lacks %s", want)
		}
	}
}

// TestHTMLRunFactsBounded: every text of a run that the page lists (a
// value, an argument, an error, an input given) is cut, so that a loop
// typing long texts does not make a page of hundreds of megabytes.
func TestHTMLRunFactsBounded(t *testing.T) {
	g := buildSrc(t, src)
	long := strings.Repeat("x", 1<<20)
	facts := make([]graph.StepFact, 20)
	for i := range facts {
		facts[i] = graph.StepFact{Outcome: "failed", Value: long, Error: long, Where: long,
			Args: []graph.ArgFact{{Name: "text", Value: long, Source: "input"}}}
	}
	run := &graph.RunFacts{ID: "r1", Outcome: "failed", Error: long, Steps: map[string][]graph.StepFact{"op1": facts}}
	p := page(t, g, graph.HTMLOptions{Source: []byte(src), Run: run})
	if len(p) > 1<<20 {
		t.Errorf("a page of 20 executions is %d bytes", len(p))
	}
	if !strings.Contains(p, `"text","value":"xxx`) {
		t.Errorf("the argument's value is not on the page")
	}
}
