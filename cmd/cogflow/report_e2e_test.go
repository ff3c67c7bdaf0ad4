package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// reportForm fills the demo site's order form: a secret typed into a
// field, a text through a function (upper), a literal; END is the last
// step, which passes or fails.
const reportForm = `task order_form "Fill the order form" {
  driver browser
  input pin: secret
  input who: text = "ada lovelace"
  op1 = open("BASE/form")
  op2 = type(textbox(name: "Phone"), pin)
  op3 = type(textbox(name: "Name"), upper(who))
  op4 = type(combobox(name: "Country"), "Kenya")
  END
}
`

const reportPIN = "Vq3-Orchid-8812"

// TestE2EReport runs a passing and a failing workflow on the demo site in
// real headless Chromium with screenshots and a secret input, writes their
// JUnit report (validated with xmllint) and their HTML report (with run
// --report too), opens the HTML from file:// in Chromium with the network
// off, reads its DOM and saves a screenshot of it.
func TestE2EReport(t *testing.T) {
	needChromium(t)
	xmllint := needXmllint(t)
	_, base := demo(t)
	root := t.TempDir()
	dir := t.TempDir()
	src := func(end string) string {
		return strings.NewReplacer("BASE", base, "END", end).Replace(reportForm)
	}
	pass := writeWorkflow(t, "order_ok.cog", src(`op5 = click(button(name: "Submit"))`))
	fail := writeWorkflow(t, "order_bad.cog", src(`op5 = type(textbox(name: "Coupon"), "SAVE10")`))
	run := func(wf string, want int, extra ...string) string {
		t.Helper()
		args := append([]string{"run", wf, "--input-env", "pin=REPORT_PIN", "--screenshots", "--yes", "--dir", root}, extra...)
		r := runWith(context.Background(), "", args...)
		if r.code != want {
			t.Fatalf("run %s: exit %d, want %d\n%s%s", filepath.Base(wf), r.code, want, r.stdout, r.stderr)
		}
		m := regexp.MustCompile(`runs show (\S+)|\(run (\S+)\)`).FindStringSubmatch(r.stdout + r.stderr)
		if m == nil {
			t.Fatalf("no run id in\n%s%s", r.stdout, r.stderr)
		}
		return m[1] + m[2]
	}
	t.Setenv("REPORT_PIN", reportPIN)
	okID := run(pass, exitOK)
	failHTML := filepath.Join(dir, "fail.html")
	badID := run(fail, exitStepFailed, "--report", failHTML)

	xmlPath := filepath.Join(dir, "report.xml")
	if r := runWith(context.Background(), "", "report", okID, badID, "-o", xmlPath, "--dir", root); r.code != exitOK {
		t.Fatalf("report junit: exit %d\n%s", r.code, r.stderr)
	}
	if out, err := exec.Command(xmllint, "--noout", "--schema", "../../runtime/report/testdata/junit-10.xsd", xmlPath).CombinedOutput(); err != nil {
		t.Fatalf("xmllint: %v\n%s", err, out)
	}
	xmlText := readText(t, xmlPath)
	// op5 is on line 9, its name at column 3.
	for _, want := range []string{`tests="2" failures="1" errors="0"`, fail + `:9:3: step op5 (type) failed`} {
		if !strings.Contains(xmlText, want) {
			t.Errorf("JUnit lacks %q\n%s", want, xmlText)
		}
	}
	htmlPath := filepath.Join(dir, "report.html")
	if r := runWith(context.Background(), "", "report", okID, badID, "--format", "html", "-o", htmlPath, "--dir", root); r.code != exitOK {
		t.Fatalf("report html: exit %d\n%s", r.code, r.stderr)
	}
	for _, p := range []string{xmlPath, htmlPath, failHTML} {
		if strings.Contains(readText(t, p), reportPIN) {
			t.Errorf("%s holds the secret", filepath.Base(p))
		}
	}
	dom := readReportDOM(t, htmlPath)
	checkReportDOM(t, dom, fail)
	if d := readReportDOM(t, failHTML); len(d.Cases) != 1 || d.Cases[0] != "failed" {
		t.Errorf("run --report: cases %v, want one failed", d.Cases)
	}
}

// TestE2EReportModel runs the keyword example with its two judgement
// calls answered by the scripted model server: the HTML report shows the
// typed summary's argument as coming from the model, and both model calls
// with their tokens.
func TestE2EReportModel(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	srv := model(t,
		llmtest.Rule{Name: "extract", Match: llmtest.LastUserContains("the introductory paragraph about the keyword"), Reply: llmtest.Text(paragraph(t, "mount_kenya", 1))},
		llmtest.Rule{Name: "summarize", Match: llmtest.LastUserContains("summarize in one sentence"), Reply: llmtest.Text("Mount Kenya is an extinct volcano.")},
	)
	root := t.TempDir()
	out := filepath.Join(t.TempDir(), "keyword.html")
	r := runWith(context.Background(), "", "run", workflow(t, "keyword_intro.cog", base), "--input", "keyword=Mount Kenya", "--dir", root, "--report", out)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if srv.Count() != 2 {
		t.Fatalf("%d model requests, want 2", srv.Count())
	}
	d := readReportDOM(t, out)
	if !slices.Contains(d.Sources, "model") {
		t.Errorf("argument sources %v: want the summary typed as coming from the model", d.Sources)
	}
	if len(d.Calls) != 2 {
		t.Fatalf("model calls %v, want 2 rows", d.Calls)
	}
	for _, c := range d.Calls {
		if c[1] != "model" || c[2] != "1" || c[3] == "0" || c[4] == "0" {
			t.Errorf("model call row %v: want source model, 1 call, tokens in and out", c)
		}
	}
}

// reportDOM is what the test reads from the opened page.
type reportDOM struct {
	Cases    []string   `json:"cases"`    // data-status of each case
	Steps    [][]string `json:"steps"`    // step name and outcome per row
	Sources  []string   `json:"sources"`  // data-source of every argument
	Failure  string     `json:"failure"`  // data-pos of the first failure
	ImgWidth int        `json:"imgWidth"` // naturalWidth of the first screenshot
	ImgSrc   string     `json:"imgSrc"`
	Hidden   int        `json:"hidden"` // step rows hidden by the filter (the script ran)
	Color    string     `json:"color"`  // a failed outcome's colour (the style applied)
	Calls    [][]string `json:"calls"`  // per model-call row: step, source, calls, tokens in, tokens out
	Requests []string   `json:"-"`
}

func checkReportDOM(t *testing.T, d reportDOM, failWF string) {
	t.Helper()
	if !slices.Equal(d.Cases, []string{"passed", "failed"}) {
		t.Errorf("cases %v, want passed, failed", d.Cases)
	}
	if len(d.Steps) != 10 || !slices.Equal(d.Steps[9], []string{"op5", "failed"}) {
		t.Errorf("steps %v: want 5 per run, the last one failed", d.Steps)
	}
	for _, s := range []string{"literal", "input", "synthesis"} {
		if !slices.Contains(d.Sources, s) {
			t.Errorf("argument sources %v lack %q", d.Sources, s)
		}
	}
	if d.Failure != failWF+":9:3" {
		t.Errorf("failure at %q, want %s:9:3", d.Failure, failWF)
	}
	if d.ImgWidth < 100 || !strings.HasPrefix(d.ImgSrc, "data:image/png;base64,") {
		t.Errorf("screenshot: width %d, src %.40q", d.ImgWidth, d.ImgSrc)
	}
	if d.Hidden != 9 {
		t.Errorf("the filter hid %d step rows, want the 9 that passed (does the CSP let the script run?)", d.Hidden)
	}
	if d.Color != "rgb(179, 38, 30)" {
		t.Errorf("a failed outcome is %s, want the stylesheet's red (does the CSP let the style apply?)", d.Color)
	}
	for _, u := range d.Requests {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the report requested %s", u)
		}
	}
}

// readReportDOM opens path in a fresh headless Chromium with the network
// emulated offline, records every request, reads the DOM and saves a
// screenshot of the page in the test's artifact folder.
func readReportDOM(t *testing.T, path string) reportDOM {
	t.Helper()
	bin, err := browser.FindChromium("")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	l := launcher.New().Context(ctx).Bin(bin).Leakless(false).Headless(true).NoSandbox(true).
		UserDataDir(t.TempDir()).Set("disable-background-networking").Set("disable-component-update").
		Set("disable-gpu").Set("no-first-run").Set("window-size", "1280,900")
	u, err := l.Launch()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Cleanup()
	defer l.Kill()
	b := rod.New().Context(ctx).ControlURL(u)
	if err := b.Connect(); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	page, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	if err := (proto.NetworkEnable{}).Call(page); err != nil {
		t.Fatal(err)
	}
	if err := (proto.NetworkEmulateNetworkConditions{Offline: true, Latency: 0, DownloadThroughput: -1, UploadThroughput: -1}).Call(page); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var requests []string
	go page.EachEvent(func(e *proto.NetworkRequestWillBeSent) {
		mu.Lock()
		requests = append(requests, e.Request.URL)
		mu.Unlock()
	})()
	if err := page.Navigate("file://" + path); err != nil {
		t.Fatal(err)
	}
	if err := page.WaitLoad(); err != nil {
		t.Fatal(err)
	}
	res, err := page.Eval(readDOMScript)
	if err != nil {
		t.Fatal(err)
	}
	var d reportDOM
	if err := json.Unmarshal([]byte(res.Value.Str()), &d); err != nil {
		t.Fatal(err)
	}
	shot, err := page.Screenshot(true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(t.ArtifactDir(), filepath.Base(path)+".png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	d.Requests = append([]string(nil), requests...)
	mu.Unlock()
	return d
}

// readDOMScript opens the screenshots' <details>, waits for the images,
// reads the page, then ticks the filter and counts the rows it hid.
const readDOMScript = `async () => {
  document.querySelectorAll("details").forEach(d => d.open = true);
  const imgs = [...document.querySelectorAll("img.shot")];
  await Promise.all(imgs.map(i => i.decode().catch(() => null)));
  const failed = document.querySelector("td.outcome.failed");
  const d = {
    cases: [...document.querySelectorAll("article.case")].map(a => a.dataset.status),
    steps: [...document.querySelectorAll("tr.step")].map(r => [r.dataset.step, r.dataset.outcome]),
    sources: [...document.querySelectorAll(".arg")].map(a => a.dataset.source),
    failure: (document.querySelector(".failure") || {dataset: {}}).dataset.pos || "",
    imgWidth: imgs.length ? imgs[0].naturalWidth : 0,
    imgSrc: imgs.length ? imgs[0].src.slice(0, 40) : "",
    color: failed ? getComputedStyle(failed).color : "",
    calls: [...document.querySelectorAll("tr.call")].map(r => [...r.cells].slice(0, 5).map(c => c.textContent.trim())),
  };
  const box = document.getElementById("only-problems");
  box.click();
  d.hidden = [...document.querySelectorAll("tr.step")].filter(r => getComputedStyle(r).display === "none").length;
  box.click();
  return JSON.stringify(d);
}`

func needXmllint(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is not installed; make test installs it (apt-get install libxml2-utils)")
		}
		t.Skip("xmllint is not installed (apt-get install libxml2-utils)")
	}
	return p
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestE2EReportBatch runs a 4-row batch on 2 workers whose third row
// opens a page without the form: run --report writes one JUnit suite for
// the batch with a case per row (validated with xmllint), `runs` sums the
// batch up in one line, and `report BATCH --format html` has a case per row.
func TestE2EReportBatch(t *testing.T) {
	needChromium(t)
	xmllint := needXmllint(t)
	_, wf, _, root, _ := batchSetup(t, 0)
	base := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`).FindString(readText(t, wf))
	csv := filepath.Join(filepath.Dir(wf), "rows2.csv")
	rows := "name,form_page\nr1," + base + "/form\nr2," + base + "/form\nr3," + base + "/wiki\nr4," + base + "/form\n"
	if err := os.WriteFile(csv, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "batch.xml")
	r := runWith(context.Background(), "", "run", wf, "--inputs", csv, "--parallel", "2", "--dir", root, "--report", out)
	if r.code != exitStepFailed {
		t.Fatalf("exit %d, want %d (row 3 fails)\n%s%s", r.code, exitStepFailed, r.stdout, r.stderr)
	}
	if msg, err := exec.Command(xmllint, "--noout", "--schema", "../../runtime/report/testdata/junit-10.xsd", out).CombinedOutput(); err != nil {
		t.Fatalf("xmllint: %v\n%s", err, msg)
	}
	x := readText(t, out)
	b := onlyBatch(t, root)
	for _, want := range []string{`<testsuite name="` + wf + `: order (batch ` + b.ID + `)" tests="4" failures="1"`,
		`<testcase name="row 3"`, wf + `:7:3: step op2 (type) failed`, `<property name="cogflow.parallel" value="2">`} {
		if !strings.Contains(x, want) {
			t.Errorf("JUnit lacks %q\n%s", want, x)
		}
	}
	if n := strings.Count(x, "<testcase "); n != 4 {
		t.Errorf("%d test cases, want 4", n)
	}
	list := runWith(context.Background(), "", "runs", "--failed", "--dir", root)
	if !strings.Contains(list.stdout, b.ID) || !strings.Contains(list.stdout, "4 rows: 3 ok, 1 failed, 0 in doubt, 0 not run") {
		t.Errorf("runs --failed:\n%s%s", list.stdout, list.stderr)
	}
	html := runWith(context.Background(), "", "report", b.ID, "--format", "html", "--dir", root)
	if html.code != exitOK || strings.Count(html.stdout, `<article class="case"`) != 4 {
		t.Errorf("report %s --format html: exit %d, %d cases, want 4\n%s", b.ID, html.code, strings.Count(html.stdout, `<article class="case"`), html.stderr)
	}
}
