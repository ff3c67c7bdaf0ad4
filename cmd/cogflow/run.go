package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/redact"
)

// runConfig is what the run command's flags say.
type runConfig struct {
	file                   string
	task                   string
	inputs                 inputFlags
	inputEnv, inputFile    inputFlags // resolved into inputs by runInputs
	inputsCSV              string
	dryRun, step, yes, ask bool
	headed, screenshots    bool
	browserURL, chrome     string
	adb, serial            string // android: the adb server and the device
	resume                 bool
	resumeFrom             string
	inDoubt                string          // --in-doubt: ask, skip or redo
	stop                   <-chan struct{} // closed by the first stop signal
	root                   string
	noCache, refresh       bool
	heal                   bool // --heal: explore for missing targets, propose a patch
	// knowledge is the project's knowledge store, opened by the first
	// exploration of the command's runs.
	knowledge *lazyKnowledge
	// llm holds the resolved LLM configuration for the whole command.
	llm *config.Config
	// secrets are the secrets of every row of the command: a row's journal
	// redacts the other rows' too (a page may still show them).
	secrets *redact.Set
	// report, reportFormat and ran serve --report (report.go).
	report, reportFormat string
	ran                  *reportRuns
	// batch: see batch.go.
	batchConfig
}

func runRun(c *cli, args []string) int {
	fs := c.newFlags("run")
	cfg := runConfig{inputs: inputFlags{}, inputEnv: inputFlags{}, inputFile: inputFlags{}}
	fs.Var(cfg.inputs, "input", "an input value, `name=value` (repeatable); every user of the machine can read it: give secrets with --input-env or --input-file")
	fs.Var(cfg.inputEnv, "input-env", "an input's value from an environment variable, `name=VAR` (repeatable)")
	fs.Var(cfg.inputFile, "input-file", "an input's value from a file, `name=PATH`; PATH - is standard input; one trailing newline is dropped (repeatable)")
	fs.StringVar(&cfg.inputsCSV, "inputs", "", "a CSV file whose header names inputs: one run per row")
	fs.StringVar(&cfg.task, "task", "", "the task to run when the file has several")
	fs.BoolVar(&cfg.dryRun, "dry-run", false, "print the plan and run nothing")
	fs.BoolVar(&cfg.step, "step", false, "ask before every step")
	fs.BoolVar(&cfg.yes, "yes", false, "say yes to the steps marked confirm without asking")
	fs.BoolVar(&cfg.ask, "ask", false, "answer cognitive dependencies at the terminal")
	fs.BoolVar(&cfg.headed, "headed", false, "show the browser window")
	fs.BoolVar(&cfg.screenshots, "screenshots", false, "save a screenshot after every step (fields and texts holding a secret are covered)")
	fs.StringVar(&cfg.browserURL, "browser-url", "", "attach to a running browser (ws://…) instead of starting one")
	fs.StringVar(&cfg.chrome, "chrome", "", "the Chromium executable (default: $COGFLOW_CHROME, /usr/bin/chromium)")
	fs.StringVar(&cfg.adb, "adb", "", "android: the adb server, HOST:PORT (default 127.0.0.1:5037)")
	fs.StringVar(&cfg.serial, "serial", "", "android: the device's serial when several are attached")
	fs.BoolVar(&cfg.resume, "resume", false, "continue the interrupted run of this task (with these --input values, if given), skipping finished loop items and reusing its inputs")
	fs.StringVar(&cfg.resumeFrom, "resume-from", "", "continue the given run ID")
	fs.StringVar(&cfg.inDoubt, "in-doubt", "", "with --resume: what to do with a step the run left in doubt (killed while it acted): ask (at a terminal; elsewhere the resume refuses), skip (its loop item counts as done) or redo (its loop item runs again); overrides the step's own in_doubt: in the workflow")
	fs.StringVar(&cfg.root, "dir", ".cogflow", "where runs are journaled")
	fs.BoolVar(&cfg.noCache, "no-cache", false, "neither read nor write the answer cache")
	fs.BoolVar(&cfg.refresh, "refresh", false, "ask the model again, then update the answer cache")
	fs.IntVar(&cfg.parallel, "parallel", 0, "with --inputs: run N rows at once, each in a browser context of its own in one Chromium (android: on the N devices --serial lists, comma-separated)")
	fs.StringVar(&cfg.isolate, "isolate", "worker", "with --parallel: a browser context of its own for each worker (its rows share it, as the rows of a batch share one browser without --parallel), or for each row (fresh cookies and storage every row, at about 2 CPU-seconds a row)")
	fs.StringVar(&cfg.resumeBatch, "resume-batch", "", "finish the batch ID (cogflow runs lists batches): its rows that did not end ok, each resumed from its journal")
	fs.BoolVar(&cfg.heal, "heal", false, "when a step's target is not on the screen, explore the app for it (actions it cannot undo need confirming, or --yes), then propose the path found as a patch of the workflow")
	addReportFlags(fs, &cfg)
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow run: give exactly one workflow file")
		return exitUsage
	}
	cfg.file = files[0]
	if msg := cfg.checkBatchFlags(cfg.resume, cfg.resumeFrom, cfg.step, cfg.ask); msg != "" {
		fmt.Fprintf(c.stderr, "cogflow run: %s\n", msg)
		return exitUsage
	}
	if cfg.inDoubt != "" && !slices.Contains(inDoubtPolicies, cfg.inDoubt) {
		fmt.Fprintf(c.stderr, "cogflow run: --in-doubt=%s: want one of %s\n", cfg.inDoubt, strings.Join(inDoubtPolicies, ", "))
		return exitUsage
	}
	return c.runReported(cfg)
}

func (c *cli) run(cfg runConfig) int {
	l, err := load(cfg.file)
	if err != nil {
		return c.readError("run", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	task, err := runtime.TaskNamed(l.file, cfg.task)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		return exitUsage
	}
	if err := cfg.batchInputs(); err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		return exitUsage
	}
	rows, err := c.runInputs(task, &cfg)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		return exitUsage
	}
	cfg.secrets = redact.New()
	for _, row := range rows {
		cfg.secrets.Add(runtime.SecretInputs(task, row)...)
	}
	cfg.knowledge = &lazyKnowledge{dir: cfg.root, secrets: cfg.secrets}
	defer cfg.knowledge.Close()
	if cfg.dryRun {
		for _, row := range rows {
			runtime.Plan(c.stdout, task, row)
		}
		return exitOK
	}
	conf, cdiags := config.Load(".")
	if cdiags.HasErrors() {
		conf.Render(c.stderr, cdiags)
		return exitBadInput
	}
	cfg.llm = conf
	cfg.limiter = llm.NewLimiter(conf.LLM.RequestsPerMinute, 1)
	parent := c.ctx
	if parent == nil {
		parent = context.Background()
	}
	cfg.signalOut = &swapWriter{w: c.stderr}
	ctx, stopRun, unwatch := graceful(parent, cfg.signalOut)
	defer unwatch()
	cfg.stop = stopRun
	if cfg.inputsCSV != "" {
		return c.batch(ctx, cfg, l, task, rows)
	}
	drv, err := driver.Open(ctx, runtime.DriverOf(task), driver.Options{Headed: cfg.headed, RemoteURL: cmp.Or(cfg.adb, cfg.browserURL), Serial: cfg.serial, Executable: cfg.chrome})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		if errors.Is(err, driver.ErrUnavailable) {
			return exitNoDriver
		}
		return exitStepFailed
	}
	defer drv.Close()
	return c.runOnce(ctx, cfg, l, task, drv, rows[0], -1)
}

// runOnce runs the task once with one set of inputs, journaled.
func (c *cli) runOnce(ctx context.Context, cfg runConfig, l *loaded, task *ast.Task, drv driver.Driver, inputs map[string]string, row int) int {
	var res *resumption
	if cfg.resume || cfg.resumeFrom != "" {
		var err error
		if res, err = c.resume(cfg, l.file, task, inputs, l.w.SHA256()); err != nil {
			fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
			return exitUsage
		}
		defer res.lock.Release()
		inputs = res.inputs
		if cfg.batchID == "" && res.Prev.Start.Batch != "" {
			// A row of a batch resumed on its own stays a row of it.
			cfg.batchID, row = res.Prev.Start.Batch, res.Prev.Start.Row
		}
	}
	// One set of secrets for the whole run: the interpreter adds every text
	// it derives from a secret, and the journal, the model answerer, the
	// cache and the terminal output all redact with what it holds.
	secrets := cfg.secrets
	if secrets == nil {
		secrets = redact.New(runtime.SecretInputs(task, inputs)...)
	}
	opts := cogflow.RunOptions{Task: task.Name.Name, Inputs: inputs, Driver: drv, JournalDir: cfg.root, Row: row + 1,
		Yes: cfg.yes, StepByStep: cfg.step, Screenshots: cfg.screenshots, Secrets: secrets, Stop: cfg.stop,
		Observer: progress{out: c.stderr, secrets: secrets}, Batch: cfg.batchID}
	if cfg.quiet {
		// A worker of a parallel batch: the batch's progress line, not
		// each step's.
		opts.Observer = nil
	}
	if cfg.guard != nil {
		cfg.guard.next, opts.Observer = opts.Observer, cfg.guard
	}
	if cfg.step || cfg.ask || !cfg.yes {
		// A question may show candidates, a page's text: redacted too.
		opts.Prompter = runtime.NewTermPrompter(c.stdin, secrets.Writer(c.stderr))
	}
	model, err := cogflow.ModelAnswererLimited(cfg.llm, cogflow.CacheOptions{JournalDir: cfg.root, NoCache: cfg.noCache, Refresh: cfg.refresh}, secrets, cfg.limiter)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		return exitUsage
	}
	opts.Answerers = append(opts.Answerers, model)
	opts.Heal = cfg.heal
	if opts.Explore, err = exploreConfig(cfg); err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		return exitUsage
	}
	if cfg.llm != nil {
		opts.AllowOrigins = cfg.llm.AllowOrigins // cogflow.hcl's urls block
	}
	if cfg.ask {
		opts.Answerers = append(opts.Answerers, runtime.AskAnswerer{P: opts.Prompter})
	}
	if res != nil {
		opts.Resume = res.Resumption
	}
	result, runErr := l.w.Run(ctx, opts)
	if result == nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", runErr)
		return exitUsage
	}
	cfg.noteRun(result.RunID)
	code := exitOK
	switch {
	case errors.Is(runErr, cogflow.ErrInterrupted):
		code = exitInterrupt
	case errors.Is(runErr, cogflow.ErrGone):
		code = exitGone
	case runErr != nil:
		code = exitStepFailed
	}
	c.reportRun(l, result.RunID, row, result.Stats, runErr, secrets, result.Stopped)
	if runErr == nil && len(result.Heals) > 0 {
		c.proposePatch(cfg, l, result.Heals, result.RunID, opts.Prompter, secrets)
	}
	if result.JournalErr != nil {
		fmt.Fprintf(c.stderr, "cogflow run: the journal could not be written completely: %v\n", result.JournalErr)
	}
	return code
}

func (c *cli) reportRun(l *loaded, id string, row int, stats runtime.Stats, err error, secrets *redact.Set, at runtime.Position) {
	prefix := ""
	if row >= 0 {
		prefix = fmt.Sprintf("row %d: ", row+1)
	}
	var stepErr *runtime.StepError
	switch {
	case errors.Is(err, runtime.ErrInterrupted):
		fmt.Fprintf(c.stderr, "%sinterrupted after %d steps, %s; the journal says where (cogflow runs show %s); --resume continues\n", prefix, stats.Steps, lastFinished(at, secrets), id)
	case errors.As(err, &stepErr):
		// Like a compiler error: the step's position, its source line with
		// a caret, then why (the candidates an anchor was chosen from).
		msg := secrets.String(stepErr.Err.Error())
		first, rest, _ := strings.Cut(msg, "\n")
		d := &diag.Diagnostic{Range: stepErr.Step.Range, Message: fmt.Sprintf("%sstep %s failed: %s", prefix, stepErr.Step.Name.Name, first)}
		for _, note := range strings.Split(rest, "\n") {
			if note = strings.TrimSpace(note); note != "" {
				d.Notes = append(d.Notes, note)
			}
		}
		d.Render(c.stderr, l.src)
		if errors.Is(err, driver.ErrGone) {
			fmt.Fprintf(c.stderr, "%sthe step was acting when that happened, so it is in doubt; `cogflow run --resume` settles it (see --in-doubt)\n", prefix)
		}
		fmt.Fprintf(c.stderr, "%sjournal: cogflow runs show %s\n", prefix, id)
	case err != nil:
		fmt.Fprintf(c.stderr, "%sfailed: %s\n", prefix, secrets.String(err.Error()))
		fmt.Fprintf(c.stderr, "%sjournal: cogflow runs show %s\n", prefix, id)
	case stats.Explored > 0:
		fmt.Fprintf(c.stdout, "%sok: %d steps, %d iterations, %d exploration steps (run %s)\n", prefix, stats.Steps, stats.Iterations, stats.Explored, id)
	default:
		fmt.Fprintf(c.stdout, "%sok: %d steps, %d iterations (run %s)\n", prefix, stats.Steps, stats.Iterations, id)
	}
}

// progress prints one line per step as the run goes.
type progress struct {
	out     io.Writer
	secrets *redact.Set
}

func (p progress) Step(s runtime.StepReport) {
	mark := map[string]string{"ok": "ok", "failed": "FAILED", "declined": "skipped"}[s.Outcome]
	indent := strings.Repeat("  ", len(s.Loops))
	fmt.Fprintf(p.out, "%s%-7s line %-4d %s  (%s)\n", indent, mark, s.Line, p.secrets.String(truncateLine(s.Source, 90)), s.Duration.Round(time.Millisecond))
}

// Explored prints an exploration step under the step it explores for.
func (p progress) Explored(r runtime.ExploreReport) {
	s := r.Explore
	line := fmt.Sprintf("%d %s %s %s", s.N, s.Direction, s.Op, s.Target)
	if s.Reached {
		line += " — reached"
	}
	if s.Note != "" {
		line += " (" + s.Note + ")"
	}
	fmt.Fprintf(p.out, "%s%-7s line %-4d %s\n", strings.Repeat("  ", len(r.Loops)), "explore", r.Line, p.secrets.String(truncateLine(line, 110)))
}

func (p progress) IterationDone([]runtime.LoopPos) {}
func (p progress) Interrupted(runtime.Position)    {}

func truncateLine(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
