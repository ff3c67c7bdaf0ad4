package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
)

const submitArgs = "FILE.cog --inputs rows.csv --temporal HOST:PORT [--task NAME] [--namespace NS] [--task-queue Q] [--in-doubt skip|redo|ask] [--yes] [--screenshots] [--row-timeout D] [--heartbeat-timeout D] [--wait] [--dir .cogflow] " + temporalConnArgs

// runSubmit starts a batch on Temporal: the .cog text and every row
// travel with it; a batch record in --dir names it (`cogflow runs`,
// `cogflow cancel`).
func runSubmit(c *cli, args []string) int {
	fs := c.newFlags("submit")
	var t temporalFlags
	t.add(fs, true)
	inputsCSV := fs.String("inputs", "", "a CSV file whose header names inputs: one row of the batch per line")
	taskName := fs.String("task", "", "the task to run when the file has several")
	inDoubt := fs.String("in-doubt", "", "what a worker does with a row whose worker died after a step with an effect beyond the browser started: skip (the row counts as done), redo (run it again), ask (report it in doubt); default: the step's own in_doubt:, else ask")
	yes := fs.Bool("yes", false, "say yes to the steps marked confirm (a worker has nobody to ask)")
	shots := fs.Bool("screenshots", false, "save a screenshot after every step, in the workers' --dir")
	rowTimeout := fs.Duration("row-timeout", time.Hour, "the longest one row may run")
	hbTimeout := fs.Duration("heartbeat-timeout", 30*time.Second, "how long a worker may be silent before its row goes to another worker")
	wait := fs.Bool("wait", false, "wait for the batch to end and print each row's result")
	root := fs.String("dir", ".cogflow", "where the batch record is written (and where workers' journals are read)")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	switch {
	case len(files) != 1 || *inputsCSV == "":
		fmt.Fprintln(c.stderr, "cogflow submit: give one workflow file and --inputs rows.csv")
		return exitUsage
	case *inDoubt != "" && !slices.Contains(inDoubtPolicies, *inDoubt):
		fmt.Fprintf(c.stderr, "cogflow submit: --in-doubt=%s: want one of %s\n", *inDoubt, strings.Join(inDoubtPolicies, ", "))
		return exitUsage
	case *hbTimeout < time.Second || *rowTimeout < *hbTimeout:
		fmt.Fprintln(c.stderr, "cogflow submit: --heartbeat-timeout must be at least 1s and --row-timeout at least as long")
		return exitUsage
	}
	l, err := load(files[0])
	if err != nil {
		return c.readError("submit", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	task, err := runtime.TaskNamed(l.file, *taskName)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow submit: %v\n", err)
		return exitUsage
	}
	rows, err := readInputRows(*inputsCSV, nil)
	if err == nil {
		err = checkInputRows(task, rows, *inputsCSV)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow submit: %v\n", err)
		return exitUsage
	}
	ctx, stop := signalled(c.ctx)
	defer stop()
	cl, sealed, code := c.dialTemporal(ctx, "submit", t)
	if cl == nil {
		return code
	}
	defer cl.Close()
	if secret := secretInput(task); !sealed && secret != "" {
		fmt.Fprintf(c.stderr, "cogflow submit: the secret input %s would reach Temporal's event history in the clear: give the submitter and the workers a payload key ($%s or --key-file; docs/scale.md)\n", secret, temporalrun.KeyEnv)
		return exitUsage
	}
	wfID := "cogflow-" + randomHex(6)
	b, err := journal.NewBatch(*root, journal.Batch{Workflow: files[0], WorkflowSHA256: l.w.SHA256(), Task: task.Name.Name,
		InputsFile: *inputsCSV, Rows: len(rows), Engine: journal.EngineTemporal,
		Temporal: &journal.TemporalRef{Address: t.conn.Address, Namespace: t.conn.Namespace, TaskQueue: t.queue, WorkflowID: wfID}})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow submit: %v\n", err)
		return exitUsage
	}
	batch := temporalrun.Batch{ID: b.ID, Workflow: files[0], Source: l.w.Source(), Task: task.Name.Name, Rows: rows,
		Settings: temporalrun.Settings{InDoubt: *inDoubt, Yes: *yes, Screenshots: *shots, RowTimeout: *rowTimeout, HeartbeatTimeout: *hbTimeout}}
	if err := temporalrun.Start(ctx, cl, t.queue, wfID, batch); err != nil {
		fmt.Fprintf(c.stderr, "cogflow submit: starting the batch: %v\n", err)
		return exitUsage
	}
	fmt.Fprintln(c.stdout, b.ID)
	fmt.Fprintf(c.stderr, "cogflow submit: %d rows of %s on task queue %s (Temporal workflow %s); cogflow runs show %s, cogflow cancel %s\n", len(rows), files[0], t.queue, wfID, b.ID, b.ID)
	if !*wait {
		return exitOK
	}
	results, err := temporalrun.Wait(ctx, cl, wfID)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow submit: the batch did not end: %v\n", err)
		return exitStepFailed
	}
	return c.printRowResults(results)
}

// printRowResults prints one line per row; the exit code says whether
// every row ended ok.
func (c *cli) printRowResults(rows []temporalrun.RowResult) int {
	status := exitOK
	for _, r := range rows {
		line := fmt.Sprintf("row %d: %s", r.Row, r.Status)
		if r.RunID != "" {
			line += " (run " + r.RunID + ")"
		}
		if r.Failure != "" {
			line += ": " + firstLine(r.Failure)
		}
		fmt.Fprintln(c.stdout, line)
		if r.Status != string(journal.OK) {
			status = exitStepFailed
		}
	}
	return status
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

// secretInput names a secret input of the task, "" if it has none: its
// value (from a row or a default) would travel with the batch.
func secretInput(task *ast.Task) string {
	for _, in := range inputDecls(task) {
		if isSecretInput(in) {
			return in.Name.Name
		}
	}
	return ""
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails
	return hex.EncodeToString(b)
}
