package lsp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/journal"
)

// Running a task from the editor. The server does not run workflows
// itself: it starts `cogflow run` as a subprocess, exactly as a person
// would in a terminal, in the file's workspace folder and with the
// project's journal folder, so that the run, its journal and
// `cogflow runs` are the same as from the command line. The outcome comes
// from the journal (already redacted), never from the run's raw output:
// the subprocess's stderr is captured, but only its run ID and, for a run
// that could not start, its own `cogflow run: …` error lines are read.

// runResult is executeCommand's result, for clients that look at it.
type runResult struct {
	Outcome string `json:"outcome"`           // ok, failed, interrupted, dry-run, not-run
	RunID   string `json:"runId,omitempty"`   // the journal's run, when there is one
	Message string `json:"message,omitempty"` // what the person was shown
}

// runStarted, when set (by tests), is told the subprocess's pid.
var runStarted func(pid int)

// Grace periods for stopping a cancelled run: the first interrupt lets it
// finish the step in flight, the second stops it at once (closing the
// browser it started); only then is the process group killed.
var (
	stopGrace = 3 * time.Second
	killGrace = 15 * time.Second
	// outputGrace is how long after the run's exit its output may still
	// come in, from processes that share its pipes.
	outputGrace = 2 * time.Second
)

const runSource = "cogflow run"

func runTask(ctx context.Context, s *Server, uri, task string, dry bool) (any, error) {
	d, err := s.Document(uri)
	if err != nil {
		return nil, err
	}
	fail := func(msg string) (any, error) {
		s.ShowMessage(1, msg)
		return runResult{Outcome: "not-run", Message: msg}, nil
	}
	if d.Diags.HasErrors() {
		return fail(fmt.Sprintf("cogflow: %s has errors; fix them before running task %s", filepath.Base(d.Path), task))
	}
	disk, err := os.ReadFile(d.Path)
	if err != nil || !bytes.Equal(disk, d.Text) {
		return fail(fmt.Sprintf("cogflow: save %s first: the run reads the file on disk", filepath.Base(d.Path)))
	}
	exe := s.opts.Executable
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return fail("cogflow: cannot find the cogflow binary to run the task: " + err.Error())
		}
	}
	root := s.workspaceFolderOf(d.Path)
	dir := d.ProjectDir
	if dir == "" {
		dir = filepath.Join(root, ".cogflow")
	}
	publishRunDiag(s, uri, nil) // the last run's failure goes with a new run
	before := runIDs(dir)
	args := []string{"run", "--task", task, "--dir", dir}
	if dry {
		args = append(args, "--dry-run")
	}
	args = append(args, "--", d.Path)
	stdout, stderr, code, err := runSubprocess(ctx, exe, root, args)
	if ctx.Err() != nil {
		msg := fmt.Sprintf("cogflow: the run of task %s was cancelled", task)
		s.ShowMessage(2, msg)
		return runResult{Outcome: "interrupted", Message: msg}, nil
	}
	if err != nil {
		return fail(fmt.Sprintf("cogflow: cannot start %s: %v", exe, err))
	}
	if dry {
		return dryRunOutcome(s, task, stdout, stderr, code)
	}
	id := newRunID(stdout, stderr, dir, before, d.Path, task)
	if id == "" {
		// It stopped before its run began (inputs, driver, configuration):
		// its own error lines say why; they name inputs, never values,
		// since the server gives it none.
		return fail(fmt.Sprintf("cogflow: task %s did not run (exit %d): %s", task, code, errorLines(stderr)))
	}
	return runOutcome(s, d, dir, id, task)
}

// workspaceFolderOf is the deepest workspace folder holding path, or the
// file's own folder.
func (s *Server) workspaceFolderOf(path string) string {
	s.mu.Lock()
	roots := append([]string(nil), s.roots...)
	s.mu.Unlock()
	best := ""
	for _, r := range roots {
		if within(path, r) && len(r) > len(best) {
			best = r
		}
	}
	if best == "" {
		best = filepath.Dir(path)
	}
	return best
}

// runSubprocess runs exe in its own process group and returns its output
// and exit code. When ctx ends it interrupts the group, then interrupts it
// again, then kills it and the processes it started (the browser runs in
// a group of its own), and returns only once they are gone.
func runSubprocess(ctx context.Context, exe, dir string, args []string) (stdout, stderr []byte, code int, err error) {
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Stdin = nil // no terminal: a question to a person is answered no
	// Once the run has exited, its output is complete after a moment even
	// when a process it left behind (a browser's helper) still holds the
	// pipes: Wait would otherwise wait for that process too.
	cmd.WaitDelay = outputGrace
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		return nil, nil, -1, err
	}
	pid := cmd.Process.Pid
	if runStarted != nil {
		runStarted(pid)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-ctx.Done():
		stopProcess(pid, done)
	}
	// The exit code is the process's, also when Wait reports the pipes it
	// had to close (exec.ErrWaitDelay); -1 when a signal ended it.
	code = -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	return out.Bytes(), errOut.Bytes(), code, nil
}

// stopProcess stops a run the way Ctrl-C does, twice, and kills what is
// left after the grace periods. It returns once Wait has.
func stopProcess(pid int, done <-chan error) {
	interruptGroup(pid)
	select {
	case <-done:
		return
	case <-time.After(stopGrace):
	}
	interruptGroup(pid)
	select {
	case <-done:
		return
	case <-time.After(killGrace):
	}
	killTree(pid)
	<-done
}

func runIDs(dir string) map[string]bool {
	ids := map[string]bool{}
	infos, _ := journal.List(dir)
	for _, i := range infos {
		ids[i.ID] = true
	}
	return ids
}

var runIDRe = regexp.MustCompile(`(?:\(run |cogflow runs show )([0-9]{8}T[0-9]{6}\.[0-9]{3}Z-[0-9a-f]{4})`)

// newRunID finds the run the subprocess journaled: the ID it printed, or
// else the newest run of this file and task that was not there before.
func newRunID(stdout, stderr []byte, dir string, before map[string]bool, path, task string) string {
	for _, out := range [][]byte{stdout, stderr} {
		if m := runIDRe.FindSubmatch(out); m != nil && journal.ValidID(string(m[1])) && !before[string(m[1])] {
			return string(m[1])
		}
	}
	infos, _ := journal.List(dir)
	for _, i := range infos {
		if !before[i.ID] && i.Task == task && sameFile(i.Workflow, path) {
			return i.ID
		}
	}
	return ""
}

func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	return ea == nil && eb == nil && os.SameFile(fa, fb)
}

// errorLines are the subprocess's own error lines, clipped.
func errorLines(stderr []byte) string {
	var out []string
	for _, l := range strings.Split(string(stderr), "\n") {
		if strings.HasPrefix(l, "cogflow run: ") && !strings.Contains(l, "warning:") {
			out = append(out, clipText(strings.TrimPrefix(l, "cogflow run: "), 300))
		}
	}
	if len(out) == 0 {
		return "no reason given"
	}
	return strings.Join(out, "; ")
}

func clipText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

var planStepRe = regexp.MustCompile(`(?m)^\s+\d+\. line `)

// dryRunOutcome shows the plan: its size as a message, the plan itself
// (which shows secret inputs as [secret]) in the log.
func dryRunOutcome(s *Server, task string, stdout, stderr []byte, code int) (any, error) {
	if code != 0 {
		msg := fmt.Sprintf("cogflow: the dry run of task %s failed (exit %d): %s", task, code, errorLines(stderr))
		s.ShowMessage(1, msg)
		return runResult{Outcome: "failed", Message: msg}, nil
	}
	n := len(planStepRe.FindAll(stdout, -1))
	s.Notify("window/logMessage", map[string]any{"type": 3, "message": string(stdout)})
	msg := fmt.Sprintf("cogflow: dry run of task %s: %d steps planned (the plan is in the log)", task, n)
	s.ShowMessage(3, msg)
	return runResult{Outcome: "dry-run", Message: msg}, nil
}

// runOutcome reads the run's journal and shows it: a message, and for a
// failed step a diagnostic on its line.
func runOutcome(s *Server, d *Document, dir, id, task string) (any, error) {
	run, err := journal.Load(dir, id)
	if err != nil {
		msg := fmt.Sprintf("cogflow: task %s ran (run %s) but its journal cannot be read: %v", task, id, err)
		s.ShowMessage(1, msg)
		return runResult{Outcome: "failed", RunID: id, Message: msg}, nil
	}
	sum := run.Summarize()
	if sum.Outcome == journal.OK {
		msg := fmt.Sprintf("cogflow: task %s ok: %d steps, %d iterations (run %s)", task, sum.Steps.Total(), sum.Iterations, id)
		s.ShowMessage(3, msg)
		return runResult{Outcome: "ok", RunID: id, Message: msg}, nil
	}
	var failed *journal.StepEvent
	for i := range run.Steps {
		if run.Steps[i].Outcome == journal.Failed {
			failed = &run.Steps[i]
		}
	}
	outcome := string(sum.Outcome)
	if outcome == "" {
		outcome = "stopped"
	}
	msg := fmt.Sprintf("cogflow: task %s %s", task, outcome)
	if failed != nil {
		why, _, _ := strings.Cut(failed.Error, "\n")
		msg += fmt.Sprintf(" at step %s (line %d): %s", failed.Step, failed.Line, clipText(why, 300))
		publishRunDiag(s, d.URI, &runFailure{Position: journal.Position{Task: task, Step: failed.Step, Line: failed.Line}, why: clipText(why, 300), id: id})
	} else if sum.Error != "" {
		msg += ": " + clipText(sum.Error, 300)
	}
	msg += fmt.Sprintf(" (run %s; cogflow runs show %s)", id, id)
	s.ShowMessage(1, msg)
	return runResult{Outcome: outcome, RunID: id, Message: msg}, nil
}

// runFailure is where a run failed and why (from the journal).
type runFailure struct {
	journal.Position
	why, id string
}

// publishRunDiag publishes the document's diagnostics with, when at is
// set, the failed step's as source "cogflow run". The next analysis (an
// edit) publishes without it, and so does the next run. It publishes only
// when no edit came in since the analysis it adds to: that edit's own
// publish is the newer one.
func publishRunDiag(s *Server, uri string, at *runFailure) {
	d, err := s.Document(uri)
	if err != nil {
		return
	}
	list := d.ProtocolDiagnostics()
	if at != nil {
		rng := stepRange(d, &at.Position)
		list = append(list, Diagnostic{Range: rng, Severity: SeverityError, Source: runSource,
			Message: fmt.Sprintf("step %s failed in run %s: %s", at.Step, at.id, at.why)})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.docs[uri]
	if st == nil || st.analyzed != d || st.analyzedGen != st.gen {
		return
	}
	version := d.Version
	s.Notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: uri, Version: &version, Diagnostics: list})
}

// stepRange is where the failed step is in the document now: the step of
// that name in the task (at the journal's line when several), else the
// journal's line.
func stepRange(d *Document, at *journal.Position) Range {
	var best *ast.Step
	if d.File != nil {
		for _, decl := range d.File.Decls {
			if t, ok := decl.(*ast.Task); ok && t.Name.Name == at.Task {
				walkSteps(t.Body, func(s *ast.Step) {
					if s.Name.Name == at.Step && (best == nil || s.Range.Start.Line == at.Line) {
						best = s
					}
				})
			}
		}
	}
	if best != nil {
		return d.Range(best.Range)
	}
	line := uint32(max(at.Line-1, 0))
	if start, ok := cogLineStart(d.Text, at.Line); ok { // the journal counts cogflow's lines
		line = d.Lines.Position(start).Line
	}
	return Range{Start: Position{Line: line}, End: Position{Line: line, Character: 1 << 16}}
}

func walkSteps(b *ast.Block, fn func(*ast.Step)) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		if st, ok := s.(*ast.Step); ok {
			fn(st)
		}
		for _, inner := range ast.Bodies(s) {
			walkSteps(inner, fn)
		}
	}
}
