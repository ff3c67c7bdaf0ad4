package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

const secretValue = "Hunter-7731-Zq"

const testWorkflow = `task pay "Pay a bill" {
  driver browser
  input account: text
  input pin: secret
  op1 = open("http://127.0.0.1/pay")
  op2 = type(textbox(name: "PIN"), pin)
  op3 = click(button(name: "Pay"))
}
`

// writeRun journals one run of testWorkflow: op3 fails with a message
// holding markup and the secret when fail is set.
func writeRun(t testing.TB, root, wf, batch string, row int, fail bool) string {
	t.Helper()
	src, err := os.ReadFile(wf)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(src)
	w, err := journal.Open(root, journal.RunMeta{Workflow: wf, Task: "pay", Driver: "browser", Row: row, Batch: batch,
		Inputs: map[string]string{"account": "<b>A&B</b>", "pin": secretValue}, Secrets: redact.New(secretValue),
		WorkflowSHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		t.Fatal(err)
	}
	var shot bytes.Buffer
	if err := png.Encode(&shot, image.NewRGBA(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	name, err := w.Screenshot("op1", shot.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	steps := []journal.StepEvent{
		{Step: "op1", Line: 5, Op: "open", Args: []journal.Arg{{Name: "url", Value: "http://127.0.0.1/pay", Source: journal.SourceLiteral}},
			Duration: journal.Duration(120 * time.Millisecond), Screenshot: name},
		{Step: "op2", Line: 6, Op: "type", Args: []journal.Arg{{Name: "text", Value: secretValue, Source: journal.SourceInput}},
			Duration: journal.Duration(30 * time.Millisecond)},
	}
	third := journal.StepEvent{Step: "op3", Line: 7, Op: "click", Args: []journal.Arg{{Name: "target", Value: `button "Pay"`, Source: journal.SourceLLM}},
		Source: journal.SourceLLM, Tokens: &journal.Tokens{In: 812, Out: 9, CostUSD: 0.0021, Calls: 1, Latency: journal.Duration(400 * time.Millisecond)},
		Duration: journal.Duration(450 * time.Millisecond)}
	var runErr error
	if fail {
		third.Outcome = journal.Failed
		third.Error = "no element matches <script>alert(1)</script> near " + secretValue + "\ncandidates: button \"Cancel\""
		runErr = errors.New(third.Error)
	}
	for _, s := range append(steps, third) {
		if err := w.Step(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish("", runErr); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// newBatch records a local batch of rows rows of wf.
func newBatch(t testing.TB, root, wf string, rows int) string {
	t.Helper()
	b, err := journal.NewBatch(root, journal.Batch{Workflow: wf, Task: "pay", InputsFile: "rows.csv", Rows: rows, Parallel: 2, Engine: journal.EngineLocal})
	if err != nil {
		t.Fatal(err)
	}
	return b.ID
}

func setup(t testing.TB) (root, wf string) {
	t.Helper()
	dir := t.TempDir()
	wf = filepath.Join(dir, "pay.cog")
	if err := os.WriteFile(wf, []byte(testWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, ".cogflow"), wf
}

func TestLoadStatuses(t *testing.T) {
	root, wf := setup(t)
	pass := writeRun(t, root, wf, "", 0, false)
	fail := writeRun(t, root, wf, "", 0, true)
	batch := newBatch(t, root, wf, 3)
	// Journals count rows from 0: 0 is the batch's row 1.
	writeRun(t, root, wf, batch, 0, true)
	b2 := writeRun(t, root, wf, batch, 1, false)
	b1again := writeRun(t, root, wf, batch, 0, false) // the row's later run decides
	suites, err := Load(root, []string{pass, fail, batch})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		suite, cas int
		status     Status
		pos        string
		run        string
	}{
		{0, 0, Passed, "", pass},
		{1, 0, Failed, wf + ":7:3", fail},
		{2, 0, Passed, "", b1again},
		{2, 1, Passed, "", b2},
		{2, 2, NotRun, "", ""},
	}
	for _, tt := range tests {
		c := suites[tt.suite].Cases[tt.cas]
		id := ""
		if c.Run != nil {
			id = c.Run.ID
		}
		if c.Status != tt.status || id != tt.run {
			t.Errorf("suite %d case %d: %s run %q, want %s run %q", tt.suite, tt.cas, c.Status, id, tt.status, tt.run)
		}
		if tt.pos != "" && (c.Failure == nil || c.Failure.Pos != tt.pos) {
			t.Errorf("suite %d case %d: failure %+v, want at %s", tt.suite, tt.cas, c.Failure, tt.pos)
		}
	}
	if names := []string{suites[2].Cases[0].Name, suites[2].Cases[2].Name}; len(suites[2].Cases) != 3 || suites[2].Batch == nil || names[0] != "row 1" || names[1] != "row 3" {
		t.Errorf("batch: %d cases %v, record %v; want rows 1 to 3", len(suites[2].Cases), names, suites[2].Batch)
	}
	for _, id := range []string{"nope", "batch-20261125T101335.337Z-ffff", "20261125T101335.337Z-ffff"} {
		if _, err := Load(root, []string{id}); err == nil || !strings.Contains(err.Error(), id) {
			t.Errorf("unknown id %s: %v", id, err)
		}
	}
	// A workflow changed since the run: the column cannot be trusted.
	if err := os.WriteFile(wf, []byte("\n"+testWorkflow), 0o644); err != nil {
		t.Fatal(err)
	}
	suites, _ = Load(root, []string{fail})
	if got := suites[0].Cases[0].Failure.Pos; got != wf+":7" {
		t.Errorf("changed workflow: pos %s, want %s:7", got, wf)
	}
}

// TestJUnitValidates writes the JUnit report of a passing run, a failing
// one and a batch, validates it against Jenkins' schema with xmllint and
// checks the failure's diagnostic and that the secret is nowhere.
func TestJUnitValidates(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is not installed; make test installs it (apt-get install libxml2-utils)")
		}
		t.Skip("xmllint is not installed (apt-get install libxml2-utils)")
	}
	root, wf := setup(t)
	pass := writeRun(t, root, wf, "", 0, false)
	fail := writeRun(t, root, wf, "", 0, true)
	batch := newBatch(t, root, wf, 3)
	writeRun(t, root, wf, batch, 0, true)
	writeRun(t, root, wf, batch, 1, false)
	suites, err := Load(root, []string{pass, fail, batch})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteJUnit(&out, suites); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(xmllint, "--noout", "--schema", "testdata/junit-10.xsd", path)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("xmllint: %v\n%s\n%s", err, msg, out.String())
	}
	x := out.String()
	for _, want := range []string{
		`<testsuites name="cogflow" time="`, `tests="5" failures="2" errors="0"`, `skipped="1"`, `<skipped message="not run">`,
		`<property name="cogflow.rows" value="3">`,
		`<testcase name="pay" classname="pay.pay" time="0.`,
		`<testcase name="row 1"`, `<failure type="click" message="step op3 (click) failed: no element matches &lt;script&gt;`,
		wf + `:7:3: step op3 (click) failed`, `candidates: button &#34;Cancel&#34;`,
		`<property name="cogflow.input.account" value="&lt;b&gt;A&amp;B&lt;/b&gt;">`,
		`<property name="cogflow.input.pin" value="[secret]">`,
	} {
		if !strings.Contains(x, want) {
			t.Errorf("JUnit lacks %q:\n%s", want, x)
		}
	}
	if strings.Contains(x, secretValue) {
		t.Errorf("the secret is in the JUnit report")
	}
}

func TestHTMLEscapesAndRedacts(t *testing.T) {
	root, wf := setup(t)
	fail := writeRun(t, root, wf, "", 0, true)
	suites, err := Load(root, []string{fail})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteHTML(&out, suites); err != nil {
		t.Fatal(err)
	}
	h := out.String()
	for _, want := range []string{
		`content="default-src &#39;none&#39;; img-src data:; style-src &#39;sha256-`,
		// default-src covers neither: a <base> or <form> smuggled in could
		// send a click elsewhere.
		`; base-uri &#39;none&#39;; form-action &#39;none&#39;"`,
		`&lt;script&gt;alert(1)&lt;/script&gt;`, `&lt;b&gt;A&amp;B&lt;/b&gt;`,
		`data-source="literal"`, `data-source="input"`, `data-source="model"`,
		`src="data:image/png;base64,`, `812+9 tokens, $0.0021`, `data-pos="` + wf + `:7:3"`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	// The CSP allows the style and the script by hash: they must reach the
	// page byte for byte.
	if !strings.Contains(h, "<style>"+pageCSS+"</style>") || !strings.Contains(h, "<script>"+pageJS+"</script>") {
		t.Errorf("the inline style or script differs from the one the CSP's hash allows")
	}
	for _, bad := range []string{secretValue, "<script>alert", `src="http`, `href="http`} {
		if strings.Contains(h, bad) {
			t.Errorf("HTML holds %q", bad)
		}
	}
}

func TestSourceLabel(t *testing.T) {
	tests := []struct {
		in   journal.Source
		want string
	}{
		{journal.SourceLiteral, "literal"}, {journal.SourceInput, "input"}, {journal.SourceStep, "structure"},
		{journal.SourceStructural, "structure"}, {journal.SourceFunction, "synthesis"}, {journal.SourceCache, "cache"},
		{journal.SourceLLM, "model"}, {journal.SourceAsk, "person"}, {"", ""},
	}
	for _, tt := range tests {
		if got := sourceLabel(tt.in); got != tt.want {
			t.Errorf("sourceLabel(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStoppedRuns: a run interrupted, one killed while a click acted (in
// doubt) and one killed between steps are never passing cases, and each
// names its step.
func TestStoppedRuns(t *testing.T) {
	root, wf := setup(t)
	open := func() *journal.Writer {
		w, err := journal.Open(root, journal.RunMeta{Workflow: wf, Task: "pay", Row: -1})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	step := journal.StepEvent{Step: "op1", Line: 5, Op: "open"}
	click := journal.Intent{Seq: 2, Step: "op3", Line: 7, Op: "click"}

	interrupted := open()
	must(t, interrupted.Step(step))
	must(t, interrupted.Interrupted(journal.Position{Step: "op2", Line: 6}))
	must(t, interrupted.Finish(journal.Interrupted, errors.New("interrupted")))

	doubt := open() // killed while op3's click acted: its intent has no outcome
	must(t, doubt.Step(step))
	must(t, doubt.Intent(click))

	killed := open() // killed between steps
	must(t, killed.Step(step))

	tests := []struct {
		id     string
		status Status
		step   string
		pos    string
	}{
		{interrupted.ID(), Interrupted, "op2", wf + ":6"},
		{doubt.ID(), InDoubt, "op3", wf + ":7"},
		{killed.ID(), Unfinished, "op1", wf + ":5"},
	}
	for _, tt := range tests {
		suites, err := Load(root, []string{tt.id})
		if err != nil {
			t.Fatal(err)
		}
		c := suites[0].Cases[0]
		if c.Status != tt.status || c.Failure == nil || c.Failure.Step != tt.step || c.Failure.Pos != tt.pos {
			t.Errorf("%s: %s %+v, want %s at step %s, %s", tt.id, c.Status, c.Failure, tt.status, tt.step, tt.pos)
		}
		var out bytes.Buffer
		if err := WriteJUnit(&out, suites); err != nil {
			t.Fatal(err)
		}
		if want := `<error type="` + string(tt.status) + `"`; !strings.Contains(out.String(), want) {
			t.Errorf("%s: JUnit lacks %s:\n%s", tt.id, want, out.String())
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
