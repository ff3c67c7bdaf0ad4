package report

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/journal"
)

// TestJUnitValidatesEveryOutcome: a report of a run of every ending
// (interrupted, in doubt, killed, killed before any step, failed before
// any step, failed at a step) and of batches (a row ok, one in doubt, one
// not run; no rows) validates against the schema, even when the journal's
// texts hold control characters, invalid UTF-8 and "]]>".
func TestJUnitValidatesEveryOutcome(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("xmllint is not installed; make test installs it (apt-get install libxml2-utils)")
		}
		t.Skip("xmllint is not installed (apt-get install libxml2-utils)")
	}
	root, wf := setup(t)
	open := func(batch string, row int) *journal.Writer {
		w, err := journal.Open(root, journal.RunMeta{Workflow: wf, Task: "pay", Row: row, Batch: batch,
			Inputs: map[string]string{"x\x1by": "a\x00b\x1b[31m]]>\ufffe"}})
		must(t, err)
		return w
	}
	step := journal.StepEvent{Step: "op1", Line: 5, Op: "open"}
	click := journal.Intent{Seq: 2, Step: "op3", Line: 7, Op: "click"}
	interrupted := open("", -1)
	must(t, interrupted.Step(step))
	must(t, interrupted.Interrupted(journal.Position{Step: "op2", Line: 6}))
	must(t, interrupted.Finish(journal.Interrupted, errors.New("interrupted")))
	doubt := open("", -1)
	must(t, doubt.Step(step))
	must(t, doubt.Intent(click))
	killed := open("", -1)
	must(t, killed.Step(step))
	empty := open("", -1)
	bad := open("", -1)
	must(t, bad.Finish(journal.Failed, errors.New("bad \x1b[1m input ]]> \x00 \xff")))
	failed := open("", -1)
	must(t, failed.Step(journal.StepEvent{Step: "op1", Line: 5, Op: "open", Outcome: journal.Failed, Error: "x\x1b\x07y\nline2 ]]>"}))
	must(t, failed.Finish(journal.Failed, errors.New("x")))
	b, err := journal.NewBatch(root, journal.Batch{Workflow: wf, Task: "pay", Rows: 3, Engine: journal.EngineLocal})
	must(t, err)
	row1 := open(b.ID, 0)
	must(t, row1.Step(step))
	must(t, row1.Finish(journal.OK, nil))
	row2 := open(b.ID, 1)
	must(t, row2.Step(step))
	must(t, row2.Intent(click))
	none, err := journal.NewBatch(root, journal.Batch{Workflow: wf, Task: "pay", Rows: 0, Engine: journal.EngineLocal})
	must(t, err)

	ids := []string{interrupted.ID(), doubt.ID(), killed.ID(), empty.ID(), bad.ID(), failed.ID(), b.ID, none.ID}
	suites, err := Load(root, ids)
	must(t, err)
	var out bytes.Buffer
	must(t, WriteJUnit(&out, suites))
	path := filepath.Join(t.TempDir(), "report.xml")
	must(t, os.WriteFile(path, out.Bytes(), 0o644))
	if msg, err := exec.Command(xmllint, "--noout", "--schema", "testdata/junit-10.xsd", path).CombinedOutput(); err != nil {
		t.Fatalf("xmllint: %v\n%s\n%s", err, msg, out.String())
	}
	x := out.String()
	for _, want := range []string{`tests="9" failures="2" errors="5"`, `<error type="interrupted"`, `<error type="in_doubt"`,
		`<error type="unfinished"`, `<skipped message="not run">`, `tests="0" failures="0" errors="0" skipped="0"`} {
		if !strings.Contains(x, want) {
			t.Errorf("JUnit lacks %s", want)
		}
	}
}
