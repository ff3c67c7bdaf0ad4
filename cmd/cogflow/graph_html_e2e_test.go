package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/journal"
)

// offlineBrowser starts headless Chromium that cannot reach any network:
// every request goes to a proxy on a closed port (loopback included), and
// each page it opens is offline by CDP as well. It returns the browser.
func offlineBrowser(t *testing.T) *rod.Browser {
	t.Helper()
	needChromium(t)
	bin, err := browser.FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	l := launcher.New().Context(ctx).Bin(bin).Headless(true).NoSandbox(true).UserDataDir(filepath.Join(t.TempDir(), "profile")).
		Set("disable-background-networking").Set("disable-component-update").Set("disable-gpu").
		Set("no-first-run").Set("disable-sync").Set("disable-extensions").Set("window-size", "1280,900").
		Set("proxy-server", "http://127.0.0.1:9").Set("proxy-bypass-list", "<-loopback>")
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	// Killed, then waited for, before the profile's folder is removed.
	t.Cleanup(func() { l.Kill(); l.Cleanup() })
	b := rod.New().ControlURL(u).Context(ctx)
	if err := b.Connect(); err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// loadedPage is a graph page opened from a file:// URL, with the requests
// the browser saw while it loaded and was used, and the Content-Security-
// Policy violations the page reported.
type loadedPage struct {
	t        *testing.T
	p        *rod.Page
	url      string
	mu       sync.Mutex
	requests []string
}

// openOffline opens path in a new tab that is offline, recording every
// request and every CSP violation.
func openOffline(t *testing.T, b *rod.Browser, path string) *loadedPage {
	t.Helper()
	p, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Close() })
	p = p.Timeout(30 * time.Second)
	lp := &loadedPage{t: t, p: p, url: "file://" + path}
	if err := (proto.NetworkEnable{}).Call(p); err != nil {
		t.Fatal(err)
	}
	if err := (proto.NetworkEmulateNetworkConditions{Offline: true, Latency: 0, DownloadThroughput: -1, UploadThroughput: -1}).Call(p); err != nil {
		t.Fatal(err)
	}
	go p.EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		lp.mu.Lock()
		lp.requests = append(lp.requests, e.Request.URL)
		lp.mu.Unlock()
	})()
	// Added before the page's own script runs, whatever its policy.
	if _, err := p.EvalOnNewDocument(`window.__csp = []; document.addEventListener("securitypolicyviolation",
		e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`); err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(lp.url); err != nil {
		t.Fatalf("navigate %s: %v", lp.url, err)
	}
	if err := p.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	return lp
}

// eval runs a JavaScript function returning JSON.stringify(...) and
// decodes its result into v.
func (lp *loadedPage) eval(js string, v any) {
	lp.t.Helper()
	res, err := lp.p.Eval(js)
	if err != nil {
		lp.t.Fatalf("eval %s: %v", js, err)
	}
	if err := json.Unmarshal([]byte(res.Value.Str()), v); err != nil {
		lp.t.Fatalf("eval %s: %v (%s)", js, err, res.Value.Str())
	}
}

// checkNoNetwork: the only request is the page itself and the page's
// policy blocked nothing (it tried to load nothing, and its own style and
// script are allowed).
func (lp *loadedPage) checkNoNetwork() {
	lp.t.Helper()
	for _, p := range lp.networkProblems() {
		lp.t.Error(p)
	}
}

// networkProblems lists the requests other than the page itself and the
// policy violations the page reported.
func (lp *loadedPage) networkProblems() []string {
	lp.t.Helper()
	var out []string
	lp.mu.Lock()
	for _, u := range lp.requests {
		if u != lp.url {
			out = append(out, "the page asked for "+u)
		}
	}
	lp.mu.Unlock()
	var csp []string
	lp.eval(`() => JSON.stringify(window.__csp)`, &csp)
	for _, v := range csp {
		out = append(out, "Content-Security-Policy violation: "+v)
	}
	return out
}

// domEdge is an edge element of the page, as the test reads it.
type domEdge struct{ From, To, Kind, Label string }

// dotEdges turns `graph --format dot`'s edges into the page's terms.
func dotEdges(t *testing.T, edges []dotEdge) []domEdge {
	t.Helper()
	var out []domEdge
	unescape := strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n")
	for _, e := range edges {
		kind := ""
		switch {
		case e.attrs["color"] == "blue":
			kind = "semantic"
		case e.attrs["style"] == "dashed":
			kind = "structural"
		case e.attrs["style"] == "dotted":
			kind = "back"
		case e.attrs["color"] == "gray":
			kind = "order"
		default:
			t.Fatalf("DOT edge %s -> %s of no known kind: %v", e.from, e.to, e.attrs)
		}
		out = append(out, domEdge{From: e.from, To: e.to, Kind: kind, Label: unescape.Replace(e.attrs["label"])})
	}
	return out
}

func sortedEdges(es []domEdge) []string {
	var s []string
	for _, e := range es {
		s = append(s, fmt.Sprintf("%s->%s %s %q", e.From, e.To, e.Kind, e.Label))
	}
	slices.Sort(s)
	return s
}

// checkAgainstDOT counts the page's nodes and edges against the DOT
// drawing of the same file and task: the same node IDs, and the same
// edges with the same ends, kinds and labels.
func (lp *loadedPage) checkAgainstDOT(dot string) {
	t := lp.t
	t.Helper()
	nodes, edges, clusters := parseDOT(t, dot)
	var dom struct {
		Nodes    []string
		Clusters int
		Edges    []domEdge
	}
	lp.eval(`() => JSON.stringify({
		nodes: [...document.querySelectorAll("svg#graph [data-node]")].map(n => n.getAttribute("data-node")),
		clusters: document.querySelectorAll("svg#graph .n-loop, svg#graph .n-branch, svg#graph .n-explore").length,
		edges: [...document.querySelectorAll("svg#graph [data-edge]")].map(e => ({from: e.dataset.from, to: e.dataset.to, kind: e.dataset.kind, label: e.dataset.label})),
	})`, &dom)
	var want []string
	for id := range nodes {
		want = append(want, id)
	}
	slices.Sort(want)
	got := slices.Clone(dom.Nodes)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("page nodes (%d) %v\nDOT nodes (%d) %v", len(got), got, len(want), want)
	}
	if dom.Clusters != len(clusters) {
		t.Errorf("page clusters %d, DOT clusters %d", dom.Clusters, len(clusters))
	}
	if g, w := sortedEdges(dom.Edges), sortedEdges(dotEdges(t, edges)); !slices.Equal(g, w) {
		t.Errorf("page edges (%d):\n%s\nDOT edges (%d):\n%s", len(g), strings.Join(g, "\n"), len(w), strings.Join(w, "\n"))
	}
	if len(dom.Nodes) == 0 || len(dom.Edges) == 0 {
		t.Errorf("nothing drawn: %d nodes, %d edges", len(dom.Nodes), len(dom.Edges))
	}
}

// panel is what the side panel shows after a click.
type panel struct {
	Hidden bool
	Node   string
	Title  string
	Source string
	Edges  string
	Run    string
	Facts  int
}

// click clicks node id with the mouse, as a person would, at the start of
// its own row (a cluster's head: its middle is its body's nodes), and
// reads the panel.
func (lp *loadedPage) click(id string) panel {
	lp.t.Helper()
	var at struct{ X, Y float64 }
	lp.eval(fmt.Sprintf(`() => { const r = document.querySelector('svg#graph [data-node=%q] rect');
		r.scrollIntoView({block: "center"}); const b = r.getBoundingClientRect();
		return JSON.stringify({x: b.left + 30, y: b.top + 12}) }`, id), &at)
	if err := lp.p.Mouse.MoveTo(proto.Point{X: at.X, Y: at.Y}); err != nil {
		lp.t.Fatal(err)
	}
	if err := lp.p.Mouse.Click(proto.InputMouseButtonLeft, 1); err != nil {
		lp.t.Fatalf("click %s: %v", id, err)
	}
	var p panel
	lp.eval(`() => { const q = s => document.querySelector(s); return JSON.stringify({
		hidden: q("#panel").hidden, node: q("#panel").getAttribute("data-node"), title: q("#panel-title").textContent,
		source: q("#panel-source").textContent, edges: q("#panel-edges").textContent, run: q("#panel-run").textContent,
		facts: document.querySelectorAll("#panel-run .fact").length}) }`, &p)
	return p
}

// screenshot saves the page, panel open, as a test artifact (kept by
// `go test -artifacts`).
func (lp *loadedPage) screenshot(name string) {
	lp.t.Helper()
	png, err := lp.p.Screenshot(true, nil)
	if err != nil {
		lp.t.Fatalf("screenshot: %v", err)
	}
	out := filepath.Join(lp.t.ArtifactDir(), name)
	if err := os.WriteFile(out, png, 0o644); err != nil {
		lp.t.Fatal(err)
	}
	lp.t.Logf("screenshot: %s", out)
}

// graphPage writes the page of a workflow with `cogflow graph --format
// html` and returns its path and the DOT of the same file.
func graphPage(t *testing.T, cog string, extra ...string) (page, dot string) {
	t.Helper()
	page = filepath.Join(t.TempDir(), "graph.html")
	r := runCLI(t, "", append([]string{"graph", cog, "--format", "html", "-o", page}, extra...)...)
	if r.code != 0 || r.stdout != "" {
		t.Fatalf("graph --format html: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	d := runCLI(t, "", append([]string{"graph", cog, "--format", "dot"}, taskFlag(extra)...)...)
	if d.code != 0 {
		t.Fatalf("graph --format dot: exit %d\n%s", d.code, d.stderr)
	}
	return page, d.stdout
}

// taskFlag keeps --task from the html command's extra flags.
func taskFlag(extra []string) []string {
	if i := slices.Index(extra, "--task"); i >= 0 && i+1 < len(extra) {
		return extra[i : i+2]
	}
	return nil
}

// fromTxtar writes one file of a txtar archive into a temporary folder
// and returns its path.
func fromTxtar(t *testing.T, archive, name string) string {
	t.Helper()
	ar, err := txtar.ParseFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == name {
			return writeFile(t, t.TempDir(), name, string(f.Data))
		}
	}
	t.Fatalf("%s has no file %s", archive, name)
	return ""
}

// TestGraphHTMLInChromium loads graph pages in headless Chromium from
// file:// with no network, counts their nodes and edges against `cogflow
// graph --format dot`, clicks a step and reads the panel.
func TestGraphHTMLInChromium(t *testing.T) {
	b := offlineBrowser(t)
	tests := []struct {
		name  string
		file  string
		click string
		line  int      // the clicked node's line: the panel shows it, numbered
		edges []string // in the panel's edge list
	}{
		{name: "dependencies and a loop", file: examplePath("reading_list_abstracts.cog"), click: "op7", line: 25,
			edges: []string{"← op3 (semantic): match_element: the search result whose title matches the paper", "→ op8 (order)"}},
		{name: "try and fallback", file: examplePath("demo_try_fallback.cog"), click: "op3", line: 26,
			edges: []string{"← files (structural): items", "← branch2 (order)"}},
		// The golden file of lang/graph's page test: every kind of cluster.
		{name: "every cluster", file: "../../lang/graph/testdata/html/control.txtar", click: "loop6", line: 19,
			edges: []string{"← op7 (back): again", "← n (structural)", "→ op7 (order)"}},
	}
	// The watch on the network can fail: a page that asks for an image, a
	// style sheet and a script is caught, with a policy or without.
	t.Run("the watch sees requests", func(t *testing.T) {
		dir := t.TempDir()
		loads := `<img src="http://127.0.0.1:1/a.png"><link rel="stylesheet" href="https://example.invalid/b.css"><script src="http://127.0.0.1:1/c.js"></script>`
		open := writeFile(t, dir, "open.html", "<!DOCTYPE html><html><head></head><body>"+loads+"</body></html>")
		got := openOffline(t, b, open).networkProblems()
		t.Logf("without a policy: %q", got)
		if len(got) < 3 {
			t.Errorf("a page loading three things: problems %q", got)
		}
		closed := writeFile(t, dir, "closed.html", `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body>`+loads+"</body></html>")
		got = openOffline(t, b, closed).networkProblems()
		t.Logf("with a policy: %q", got)
		if len(got) < 3 {
			t.Errorf("a page whose policy blocks three loads: problems %q", got)
		}
	})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			if strings.HasSuffix(file, ".txtar") {
				file = fromTxtar(t, file, "t.cog")
			}
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			page, dot := graphPage(t, file)
			lp := openOffline(t, b, page)
			lp.checkAgainstDOT(dot)
			p := lp.click(tc.click)
			if p.Hidden || p.Node != tc.click {
				t.Errorf("after clicking %s the panel is hidden=%v for %q", tc.click, p.Hidden, p.Node)
			}
			if want := strconv.Itoa(tc.line) + strings.Split(string(src), "\n")[tc.line-1]; p.Source != want {
				t.Errorf("panel source %q, want %q", p.Source, want)
			}
			for _, s := range tc.edges {
				if !strings.Contains(p.Edges, s) {
					t.Errorf("panel edges %q lack %q", p.Edges, s)
				}
			}
			if p.Run != "" {
				t.Errorf("a page without --run shows a run: %q", p.Run)
			}
			lp.screenshot(strings.ReplaceAll(tc.name, " ", "_") + ".png")
			lp.checkNoNetwork()
		})
	}
}

// TestGraphHTMLRunInChromium runs a workflow with a loop and branches on
// the demo site, draws its page with --run, and reads in Chromium what the
// page says the journal says: the run's outcome, and for a clicked step
// each of its executions.
func TestGraphHTMLRunInChromium(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	root := t.TempDir()
	cog := workflow(t, "demo_uppercase_if_needed.cog", base)
	if r := runWith(context.Background(), "", "run", cog, "--dir", root, "--input", "site="+base); r.code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	runs, err := journal.List(root)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	id := runs[0].ID
	run, err := journal.Load(root, id)
	if err != nil {
		t.Fatal(err)
	}
	executions := map[string][]journal.StepEvent{}
	for _, ev := range run.Steps {
		executions[ev.Step] = append(executions[ev.Step], ev)
	}
	if len(executions["op5"]) == 0 {
		t.Fatalf("the run typed no title (op5): %+v", run.Steps)
	}

	page, dot := graphPage(t, cog, "--run", id, "--dir", root)
	lp := openOffline(t, offlineBrowser(t), page)
	lp.checkAgainstDOT(dot)
	var head struct {
		Run string
		Op5 string
	}
	lp.eval(`() => JSON.stringify({run: document.querySelector("#run").textContent,
		op5: document.querySelector('[data-node="op5"]').getAttribute("class")})`, &head)
	if want := "run " + id + ": ok"; !strings.HasPrefix(head.Run, want) {
		t.Errorf("run line %q, want it to start with %q", head.Run, want)
	}
	if !strings.Contains(head.Op5, "st-ok") {
		t.Errorf("op5's box has class %q, want st-ok", head.Op5)
	}

	p := lp.click("op5")
	if p.Facts != len(executions["op5"]) {
		t.Errorf("the panel lists %d executions of op5, the journal has %d:\n%s", p.Facts, len(executions["op5"]), p.Run)
	}
	first := executions["op5"][0]
	for _, want := range []string{"In run " + id, "statusok", "wherepaper[0]", "; line 17: if paper", first.Args[len(first.Args)-1].Value} {
		if !strings.Contains(p.Run, want) {
			t.Errorf("the panel's run part lacks %q:\n%s", want, p.Run)
		}
	}
	if want := fmt.Sprintf("%d%s", first.Line, strings.Split(readFile(t, cog), "\n")[first.Line-1]); p.Source != want {
		t.Errorf("panel source %q, want %q", p.Source, want)
	}
	if len(executions["op2"]) == 0 {
		if p := lp.click("op2"); !strings.Contains(p.Run, "The journal has no execution of this step.") {
			t.Errorf("op2 did not run; its panel says %q", p.Run)
		}
	}
	// The loop and the branch in it: the page names the branch as the
	// interpreter does, so the steps that ran in it count for it.
	inBranch := len(executions["op3"]) + len(executions["op4"]) + len(executions["op5"])
	for _, id := range []string{"loop2", "branch3"} {
		want := fmt.Sprintf("Steps in it ran %d times.", inBranch)
		if p := lp.click(id); !strings.Contains(p.Run, want) {
			t.Errorf("%s's panel says %q, want %q", id, p.Run, want)
		}
	}
	if len(executions["op2"]) == 0 {
		if p := lp.click("branch1"); !strings.Contains(p.Run, "No step in it ran.") {
			t.Errorf("branch1's panel says %q", p.Run)
		}
	}
	if p := lp.click("site"); !strings.Contains(p.Run, "given"+base) {
		t.Errorf("the input site's panel says %q, want the value given, %s", p.Run, base)
	}
	if p := lp.click("reading_list"); p.Run != "" {
		t.Errorf("an anchor's panel shows a run: %q", p.Run)
	}
	lp.click("op5")
	lp.screenshot("run.png")
	lp.checkNoNetwork()
}

// TestGraphHTMLHostileText: a workflow whose names and strings look like
// markup (closing the script element, an image with an onerror handler)
// gets a page that shows them as text: no image, no third script, no
// handler run.
func TestGraphHTMLHostileText(t *testing.T) {
	hostile := `</script><img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>`
	cog := writeFile(t, t.TempDir(), "hostile.cog", `task t "`+hostile+`" {
  driver browser
  anchor box = textbox(name: "`+hostile+`")
  op1 = type(box, "`+hostile+`")
  op2 = click(match_element<"the `+strings.ReplaceAll(hostile, `\"`, "'")+`">(op1))
}
`)
	page, dot := graphPage(t, cog)
	lp := openOffline(t, offlineBrowser(t), page)
	lp.checkAgainstDOT(dot)
	var got struct {
		Images, Scripts int
		Pwned           bool
		Title           string
	}
	lp.eval(`() => JSON.stringify({images: document.querySelectorAll("img").length, scripts: document.scripts.length,
		pwned: window.pwned !== undefined, title: document.querySelector(".goal").textContent})`, &got)
	want := strings.ReplaceAll(hostile, `\"`, `"`)
	if got.Images != 0 || got.Scripts != 2 || got.Pwned || got.Title != want {
		t.Errorf("images %d, scripts %d, pwned %v, title %q; want 0, 2, false, %q", got.Images, got.Scripts, got.Pwned, got.Title, want)
	}
	if p := lp.click("op1"); p.Source != "4  op1 = type(box, \""+hostile+"\")" {
		t.Errorf("panel source %q", p.Source)
	}
	lp.checkNoNetwork()
}
