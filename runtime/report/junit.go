package report

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

// The JUnit XML that CI systems read (Jenkins' schema, checked in as
// testdata/junit-10.xsd): a <testsuites> root, a <testsuite> per run or
// batch, a <testcase> per task or row.

type xmlSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Time     string     `xml:"time,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Errors   int        `xml:"errors,attr"`
	Suites   []xmlSuite `xml:"testsuite"`
}

type xmlSuite struct {
	Name       string        `xml:"name,attr"`
	Tests      int           `xml:"tests,attr"`
	Failures   int           `xml:"failures,attr"`
	Errors     int           `xml:"errors,attr"`
	Skipped    int           `xml:"skipped,attr"`
	Time       string        `xml:"time,attr"`
	Timestamp  string        `xml:"timestamp,attr,omitempty"`
	Hostname   string        `xml:"hostname,attr,omitempty"`
	ID         string        `xml:"id,attr"`
	File       string        `xml:"file,attr,omitempty"`
	Properties *xmlProps     `xml:"properties,omitempty"`
	Cases      []xmlTestCase `xml:"testcase"`
}

type xmlProps struct {
	Props []xmlProp `xml:"property"`
}

type xmlProp struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type xmlTestCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	Time      string      `xml:"time,attr"`
	Skipped   *xmlProblem `xml:"skipped,omitempty"`
	Error     *xmlProblem `xml:"error,omitempty"`
	Failure   *xmlProblem `xml:"failure,omitempty"`
	SystemOut string      `xml:"system-out,omitempty"`
}

type xmlProblem struct {
	Type    string `xml:"type,attr,omitempty"`
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes suites as JUnit XML. A failed step is a <failure>
// whose text starts with the step's position (file:line:col); a case in
// doubt, interrupted or unfinished is an <error>; a batch row not run is
// <skipped>. Each case's <system-out> is its step table (as `cogflow runs
// show` prints it).
func WriteJUnit(w io.Writer, suites []Suite) error {
	root := xmlSuites{Name: "cogflow"}
	var total time.Duration
	host, _ := os.Hostname()
	for _, s := range suites {
		xs, d := junitSuite(s, host)
		total += d
		root.Tests += xs.Tests
		root.Failures += xs.Failures
		root.Errors += xs.Errors
		root.Suites = append(root.Suites, xs)
	}
	root.Time = seconds(total)
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(root); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// junitSuite converts one suite; its time is the sum of its cases'.
func junitSuite(s Suite, host string) (xmlSuite, time.Duration) {
	name := s.Task
	if s.Workflow != "" {
		name = s.Workflow + ": " + s.Task
	}
	if s.Batch != nil {
		name += " (batch " + s.ID + ")"
	}
	xs := xmlSuite{Name: name, ID: s.ID, File: s.Workflow, Hostname: host}
	if !s.Started.IsZero() {
		// JUnit's timestamp is ISO 8601 without a zone; ours is UTC.
		xs.Timestamp = s.Started.UTC().Format("2006-01-02T15:04:05")
	}
	xs.Properties = suiteProps(s)
	var total time.Duration
	for _, c := range s.Cases {
		tc := junitCase(s, c)
		switch {
		case tc.Failure != nil:
			xs.Failures++
		case tc.Error != nil:
			xs.Errors++
		case tc.Skipped != nil:
			xs.Skipped++
		}
		total += c.Duration()
		xs.Cases = append(xs.Cases, tc)
	}
	xs.Tests = len(xs.Cases)
	xs.Time = seconds(total)
	return xs, total
}

// suiteProps are the run's or batch's facts a CI page shows: ids, the
// workflow's hash, the inputs as the journal has them (secrets redacted).
func suiteProps(s Suite) *xmlProps {
	p := &xmlProps{}
	add := func(name, value string) {
		if value != "" {
			p.Props = append(p.Props, xmlProp{Name: name, Value: value})
		}
	}
	add("cogflow.workflow", s.Workflow)
	add("cogflow.task", s.Task)
	if b := s.Batch; b != nil {
		add("cogflow.batch", s.ID)
		add("cogflow.workflow_sha256", b.WorkflowSHA256)
		add("cogflow.inputs_file", b.InputsFile)
		add("cogflow.rows", strconv.Itoa(b.Rows))
		add("cogflow.engine", b.Engine)
		if b.Parallel > 0 {
			add("cogflow.parallel", strconv.Itoa(b.Parallel))
		}
	} else if len(s.Cases) == 1 && s.Cases[0].Run != nil {
		r := s.Cases[0].Run
		add("cogflow.run", r.ID)
		add("cogflow.workflow_sha256", r.Start.WorkflowSHA256)
		add("cogflow.driver", r.Start.Driver)
		add("cogflow.resumes", r.Start.Resume)
		for _, k := range slices.Sorted(maps.Keys(r.Start.Inputs)) {
			add("cogflow.input."+k, r.Start.Inputs[k])
		}
	}
	if len(p.Props) == 0 {
		return nil
	}
	return p
}

func junitCase(s Suite, c Case) xmlTestCase {
	class := strings.TrimSuffix(filepath.Base(s.Workflow), filepath.Ext(s.Workflow)) + "." + s.Task
	tc := xmlTestCase{Name: c.Name, Classname: class, Time: seconds(c.Duration())}
	if c.Run != nil {
		var out bytes.Buffer
		if journal.Render(&out, c.Run) == nil {
			tc.SystemOut = out.String()
		}
	}
	f := c.Failure
	switch c.Status {
	case Passed:
	case NotRun:
		tc.Skipped = &xmlProblem{Message: "not run"}
	case Failed:
		tc.Failure = &xmlProblem{Type: cmp.Or(f.Op, "failed"), Message: f.Message, Text: failureText(f)}
	default:
		tc.Error = &xmlProblem{Type: string(c.Status), Message: f.Message, Text: failureText(f)}
	}
	return tc
}

// failureText is the diagnostic as a compiler prints it: position, then
// the message, then the error's further lines.
func failureText(f *Failure) string {
	var b strings.Builder
	if f.Pos != "" {
		b.WriteString(f.Pos + ": ")
	}
	b.WriteString(f.Message)
	b.WriteByte('\n')
	if notes := f.Notes(); notes != "" {
		b.WriteString(notes)
		b.WriteByte('\n')
	}
	return b.String()
}

// seconds is a duration as JUnit's time attribute: seconds, 3 decimals.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
