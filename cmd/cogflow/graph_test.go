package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dotEdge is one `"a" -> "b" [attrs];` line of DOT output.
type dotEdge struct {
	from, to string
	attrs    map[string]string
}

var (
	dotEdgeRE = regexp.MustCompile(`^\s*"([^"]+)" -> "([^"]+)" \[(.*)\];$`)
	dotNodeRE = regexp.MustCompile(`^\s*"([^"]+)" \[(.*)\];$`)
	dotAttrRE = regexp.MustCompile(`(\w+)=("(?:[^"\\]|\\.)*"|[^,\s]+)`)
)

func parseAttrs(s string) map[string]string {
	m := map[string]string{}
	for _, a := range dotAttrRE.FindAllStringSubmatch(s, -1) {
		m[a[1]] = strings.Trim(a[2], `"`)
	}
	return m
}

// parseDOT reads back the nodes and edges of a DOT digraph, failing on any
// line it does not understand, and checks that braces balance.
func parseDOT(t *testing.T, dot string) (nodes map[string]map[string]string, edges []dotEdge, clusters []string) {
	t.Helper()
	nodes = map[string]map[string]string{}
	lines := strings.Split(strings.TrimSuffix(dot, "\n"), "\n")
	if !regexp.MustCompile(`^digraph "[^"]+" \{$`).MatchString(lines[0]) || lines[len(lines)-1] != "}" {
		t.Fatalf("not a digraph:\n%s", dot)
	}
	depth := 0
	for _, l := range lines {
		depth += strings.Count(l, "{") - strings.Count(l, "}")
		if m := dotEdgeRE.FindStringSubmatch(l); m != nil {
			edges = append(edges, dotEdge{from: m[1], to: m[2], attrs: parseAttrs(m[3])})
			continue
		}
		if m := regexp.MustCompile(`^\s*subgraph "(cluster_[^"]+)" \{$`).FindStringSubmatch(l); m != nil {
			clusters = append(clusters, m[1])
			continue
		}
		if m := dotNodeRE.FindStringSubmatch(l); m != nil {
			nodes[m[1]] = parseAttrs(m[2])
		}
	}
	if depth != 0 {
		t.Errorf("unbalanced braces in DOT output")
	}
	for _, e := range edges {
		for _, n := range []string{e.from, e.to} {
			if _, ok := nodes[n]; !ok {
				t.Errorf("edge %s -> %s: node %q is not declared", e.from, e.to, n)
			}
		}
	}
	return nodes, edges, clusters
}

func TestGraphDOT(t *testing.T) {
	tests := []struct {
		file     string
		edges    int               // all edges
		semantic map[string]string // "from->to" → label
		dashed   []string          // structural edges, "from->to"
		clusters int
		nodes    []string // some nodes that must exist
	}{
		{
			file:  "keyword_intro.cog",
			edges: 16, // 7 in order (op0…op7), 3 semantic, 6 structural (one is within:, two from the input site)
			semantic: map[string]string{
				"op2->op4": "match_element: the search result most related to the keyword",
				"op2->op5": "extract_information: the introductory paragraph about the keyword",
				"op5->op7": "summarize: summarize in one sentence",
			},
			dashed: []string{"site->op0", "site->op1", "search_box->op2", "keyword->op2", "notes->op7", "results->op4"},
			nodes:  []string{"keyword", "search_box", "notes", "op1", "op7"},
		},
		{
			file:  "reading_list_abstracts.cog",
			edges: 22,
			semantic: map[string]string{
				"op3->op7": "match_element: the search result whose title matches the paper",
				"op3->op8": "extract_information: the abstract of the paper",
			},
			dashed: []string{
				"site->op1", "site->op4", "reading_list->loop1", "skip->loop1", "loop1->op2", "op2->op3",
				"search_box->op5", "op3->op5", "loop1->op10", "op8->op10",
			},
			clusters: 1,
			nodes:    []string{"skip", "reading_list", "search_box", "op1", "op10"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			r := runCLI(t, "", "graph", examplePath(tc.file), "--format", "dot")
			if r.code != 0 || r.stderr != "" {
				t.Fatalf("graph: exit %d\n%s", r.code, r.stderr)
			}
			// The default format is dot.
			if d := runCLI(t, "", "graph", examplePath(tc.file)); d.stdout != r.stdout {
				t.Errorf("graph without --format differs from --format dot")
			}
			nodes, edges, clusters := parseDOT(t, r.stdout)
			if n := strings.Count(r.stdout, "->"); n != tc.edges || len(edges) != tc.edges {
				t.Errorf("%d `->` in output, %d edge lines; want %d", n, len(edges), tc.edges)
			}
			for _, n := range tc.nodes {
				if _, ok := nodes[n]; !ok {
					t.Errorf("no node %q", n)
				}
			}
			semantic := map[string]string{}
			var dashed []string
			for _, e := range edges {
				key := e.from + "->" + e.to
				switch {
				case e.attrs["color"] == "blue":
					semantic[key] = e.attrs["label"]
				case e.attrs["style"] == "dashed":
					dashed = append(dashed, key)
				case e.attrs["color"] == "gray":
					// step order
				default:
					t.Errorf("edge %s is neither semantic, structural nor order: %v", key, e.attrs)
				}
			}
			for k, want := range tc.semantic {
				if got, ok := semantic[k]; !ok {
					t.Errorf("no semantic edge %s", k)
				} else if got != want {
					t.Errorf("semantic edge %s has label %q, want %q", k, got, want)
				}
			}
			if len(semantic) != len(tc.semantic) {
				t.Errorf("semantic edges %v, want %v", semantic, tc.semantic)
			}
			for _, k := range tc.semantic {
				if !strings.Contains(r.stdout, `label="`+k+`"`) {
					t.Errorf("output lacks label=%q", k)
				}
			}
			slices.Sort(dashed)
			want := slices.Clone(tc.dashed)
			slices.Sort(want)
			if !slices.Equal(dashed, want) {
				t.Errorf("structural (dashed) edges %v, want %v", dashed, want)
			}
			if len(clusters) != tc.clusters {
				t.Errorf("%d clusters %v, want %d", len(clusters), clusters, tc.clusters)
			}
			if tc.clusters > 0 && !strings.Contains(r.stdout, `subgraph "cluster_`) {
				t.Errorf("no cluster subgraph for the loop")
			}
		})
	}
}

// TestGraphDotRenders runs Graphviz on the DOT output of every example.
// make test installs graphviz, so in CI (CI set) a missing dot is a failure.
func TestGraphDotRenders(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("graphviz's dot is not on PATH but CI is set: `make deps` (tools/install-deps.sh) should have installed it: %v", err)
		}
		t.Skipf("graphviz's dot is not on PATH (apt-get install graphviz, or make deps); not rendering: %v", err)
	}
	paths, err := filepath.Glob(examplePath("*.cog"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			r := runCLI(t, "", "graph", p, "--format", "dot")
			if r.code != 0 {
				t.Fatalf("graph: exit %d\n%s", r.code, r.stderr)
			}
			cmd := exec.Command(dot, "-Tsvg")
			cmd.Stdin = strings.NewReader(r.stdout)
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Fatalf("dot -Tsvg: %v\n%s\ninput:\n%s", err, errOut.String(), r.stdout)
			}
			if !strings.Contains(out.String(), "<svg") {
				t.Errorf("dot -Tsvg printed no <svg:\n%.500s", out.String())
			}
			if errOut.Len() > 0 {
				t.Errorf("dot -Tsvg warned:\n%s", errOut.String())
			}
		})
	}
}

func TestGraphMermaid(t *testing.T) {
	tests := []struct {
		file     string
		semantic []string // labels of ==> edges
		title    string   // "" when there is no goal sentence
	}{
		{file: examplePath("keyword_intro.cog"), title: "Look up a keyword and add a one-sentence summary of its introduction to my notes",
			semantic: []string{
				"match_element: the search result most related to the keyword",
				"extract_information: the introductory paragraph about the keyword",
				"summarize: summarize in one sentence",
			}},
		{file: examplePath("reading_list_abstracts.cog"), title: "Fill in each paper's abstract from the wiki",
			semantic: []string{
				"match_element: the search result whose title matches the paper",
				"extract_information: the abstract of the paper",
			}},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			for _, args := range [][]string{
				{"graph", "--format", "mermaid", tc.file},
				{"graph", tc.file, "--format", "mermaid"},
				{"graph", tc.file, "--format=mermaid"},
			} {
				r := runCLI(t, "", args...)
				if r.code != 0 || r.stderr != "" {
					t.Fatalf("%v: exit %d\n%s", args, r.code, r.stderr)
				}
				wantStart := "flowchart TD\n"
				if tc.title != "" {
					wantStart = "---\ntitle: " + tc.title + "\n---\nflowchart TD\n"
				}
				if !strings.HasPrefix(r.stdout, wantStart) {
					t.Errorf("%v: output does not start with %q:\n%s", args, wantStart, r.stdout)
				}
				if strings.Contains(r.stdout, "digraph") {
					t.Errorf("%v: DOT output instead of mermaid", args)
				}
				var got []string
				for _, m := range regexp.MustCompile(`(?m)^\s*\S+ ==>\|"([^"]*)"\| \S+$`).FindAllStringSubmatch(r.stdout, -1) {
					got = append(got, m[1])
				}
				if !slices.Equal(got, tc.semantic) {
					t.Errorf("%v: semantic edges %q, want %q", args, got, tc.semantic)
				}
			}
		})
	}
}

func TestGraphArgs(t *testing.T) {
	dir := t.TempDir()
	two := writeFile(t, dir, "two.cog", `task first "First" {
  driver browser
  op1 = open("http://x")
}

task second {
  driver browser
  op1 = open("http://y")
  op2 = click(button(name: "Go"))
}
`)
	bad := writeFile(t, dir, "bad.cog", srcOneError)
	syntax := writeFile(t, dir, "syntax.cog", srcSyntaxError)
	keyword := examplePath("keyword_intro.cog")
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   []string // substrings of stdout
		prefix   string   // stdout starts with it
		stderr   []string // substrings of stderr
		noStdout bool
	}{
		{name: "first task by default", args: []string{two}, stdout: []string{`digraph "first" {`}},
		{name: "--task selects", args: []string{two, "--task", "second"}, stdout: []string{`digraph "second" {`, `"op2"`}},
		{name: "--task before file", args: []string{"--task=second", two}, stdout: []string{`digraph "second" {`}},
		{name: "--task mermaid, no goal", args: []string{"--task", "second", "--format", "mermaid", two}, prefix: "flowchart TD\n"},
		{name: "unknown task", args: []string{two, "--task", "third"}, code: 2, noStdout: true, stderr: []string{"third", "first", "second"}},
		{name: "unknown format", args: []string{keyword, "--format", "png"}, code: 2, noStdout: true, stderr: []string{`unknown format "png"`}},
		{name: "flag after file", args: []string{keyword, "--format", "dot"}, stdout: []string{`digraph "keyword_intro" {`}},
		{name: "no file", args: nil, code: 2, noStdout: true, stderr: []string{"exactly one"}},
		{name: "two files", args: []string{keyword, two}, code: 2, noStdout: true, stderr: []string{"exactly one"}},
		{name: "missing file", args: []string{filepath.Join(dir, "nope.cog")}, code: 2, noStdout: true, stderr: []string{"nope.cog"}},
		{name: "file with errors", args: []string{bad}, code: 1, noStdout: true, stderr: []string{bad + ":3:15: error: "}},
		{name: "file with syntax errors", args: []string{syntax}, code: 1, noStdout: true, stderr: []string{syntax + ":3:13: error: "}},
		{name: "--format without value", args: []string{keyword, "--format"}, code: 2, noStdout: true, stderr: []string{"format"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "", append([]string{"graph"}, tc.args...)...)
			if r.code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", r.code, tc.code, r.stderr)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(r.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s", s, r.stdout)
				}
			}
			if !strings.HasPrefix(r.stdout, tc.prefix) {
				t.Errorf("stdout does not start with %q:\n%s", tc.prefix, r.stdout)
			}
			if tc.noStdout && r.stdout != "" {
				t.Errorf("unexpected stdout:\n%s", r.stdout)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(r.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, r.stderr)
				}
			}
			if tc.stderr == nil && r.stderr != "" {
				t.Errorf("unexpected stderr:\n%s", r.stderr)
			}
		})
	}
}
