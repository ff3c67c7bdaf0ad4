package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/report"
)

const reportArgs = "RUN|BATCH… [--format junit|html] [-o FILE] [--dir .cogflow]"

const reportHelpText = `Each RUN is a run id (cogflow runs lists them) or a batch id: a run is a
testsuite with one testcase (its task), a batch a testsuite with one
testcase per row (its latest run). JUnit XML is what CI systems read: a
failed step is a <failure> with the step's position (file:line:col) and
its error; a run in doubt, interrupted or killed is an <error>. The HTML
report is one self-contained file (no network): steps with outcomes,
durations, arguments and where each came from, model calls with tokens
and cost, and the screenshots of runs made with --screenshots.

The format is --format, else -o's extension (.xml, .html), else junit.
The report is written whatever the runs' outcomes: read them in it.
The same report is written by run --report FILE.
`

var reportFormats = []string{"junit", "html"}

func runReport(c *cli, args []string) int {
	fs := c.newFlags("report")
	format := fs.String("format", "", "junit or html (default: from -o's extension, else junit)")
	out := fs.String("o", "", "write the report to `FILE` instead of standard output")
	root := fs.String("dir", ".cogflow", "where runs are journaled")
	ids, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(ids) == 0 {
		fmt.Fprintln(c.stderr, "cogflow report: name at least one run or batch (cogflow runs lists them)")
		return exitUsage
	}
	f, err := reportFormat(*format, *out)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow report: %v\n", err)
		return exitUsage
	}
	if err := c.writeReport(*root, ids, f, *out); err != nil {
		fmt.Fprintf(c.stderr, "cogflow report: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// reportFormat settles the format: the flag, else the file's extension,
// else junit.
func reportFormat(flagValue, file string) (string, error) {
	if flagValue != "" {
		if !slices.Contains(reportFormats, flagValue) {
			return "", fmt.Errorf("--format=%s: want one of %s", flagValue, strings.Join(reportFormats, ", "))
		}
		return flagValue, nil
	}
	switch strings.ToLower(filepath.Ext(file)) {
	case ".html", ".htm":
		return "html", nil
	case ".xml", "":
		return "junit", nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the extension; use .xml or .html, or --format junit|html", file)
}

// writeReport writes the report of ids to file, or to standard output
// when file is "". The report is streamed (screenshots are read one at a
// time); a file is written whole or not at all (a temporary file renamed
// into place), so a CI step never reads half a report.
func (c *cli) writeReport(root string, ids []string, format, file string) error {
	suites, err := report.Load(root, ids)
	if err != nil {
		return err
	}
	write := report.WriteJUnit
	if format == "html" {
		write = report.WriteHTML
	}
	if file == "" {
		return write(c.stdout, suites)
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	w := bufio.NewWriter(tmp)
	if err := write(w, suites); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// addReportFlags adds run's --report and --report-format.
func addReportFlags(fs *flag.FlagSet, cfg *runConfig) {
	fs.StringVar(&cfg.report, "report", "", "after the run, write its report to `FILE` (.xml: JUnit, .html: HTML; see cogflow help report)")
	fs.StringVar(&cfg.reportFormat, "report-format", "", "the --report file's format, junit or html (default: from its extension)")
	cfg.ran = &reportRuns{}
}

// runReported runs cfg and, with --report, writes the report of the runs
// it journaled: one suite per batch, one per run on its own. A report that
// cannot be written makes a successful command fail.
func (c *cli) runReported(cfg runConfig) int {
	if cfg.report == "" {
		return c.run(cfg)
	}
	format, err := reportFormat(cfg.reportFormat, cfg.report)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: --report: %v\n", err)
		return exitUsage
	}
	status := c.run(cfg)
	ids := reportIDs(cfg.root, cfg.ran.list())
	if len(ids) == 0 {
		fmt.Fprintln(c.stderr, "cogflow run: --report: no run was journaled, so there is nothing to report")
		if status == exitOK {
			return exitUsage
		}
		return status // says why nothing ran: a workflow with errors, no driver…
	}
	if err := c.writeReport(cfg.root, ids, format, cfg.report); err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: --report: %v\n", err)
		if status == exitOK {
			status = exitUsage
		}
		return status
	}
	fmt.Fprintf(c.stderr, "report: %s\n", cfg.report)
	return status
}

// reportIDs turns the runs a command journaled into report ids: a row of
// a batch is reported as its batch, once.
func reportIDs(root string, runs []string) []string {
	var ids []string
	for _, id := range runs {
		if r, err := journal.Load(root, id); err == nil && r.Start.Batch != "" {
			id = r.Start.Batch
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids
}

// reportRuns are the runs a command journaled, in the order they ended;
// a batch's workers add to it at once.
type reportRuns struct {
	mu  sync.Mutex
	ids []string
}

func (r *reportRuns) list() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.ids)
}

// noteRun remembers a run the command journaled, or the batch it ran
// rows of, for --report.
func (cfg runConfig) noteRun(id string) {
	if cfg.ran == nil || id == "" {
		return
	}
	cfg.ran.mu.Lock()
	cfg.ran.ids = append(cfg.ran.ids, id)
	cfg.ran.mu.Unlock()
}
