package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/browser"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/llm"
)

// A batch is `run --inputs rows.csv`: one run per row, all under one
// batch record (journal.NewBatch), each row's journal naming it. Without
// --parallel the rows run one after another in one browser, as they
// always did; with --parallel N, N workers take rows from a queue, each row
// in a browser context of its own in one shared Chromium (or on a device
// of its own). A resume of the batch (--resume with the same --inputs, or
// --resume-batch ID) runs exactly the rows whose latest run did not end
// ok: a row never started starts, any other is resumed from its journal
// by the exactly-once rules of a single run.

// batchConfig is what run's flags and the command say about a batch.
type batchConfig struct {
	parallel    int    // --parallel; 0: the rows one after another in one driver
	isolate     string // --isolate: "worker" (a browser context per worker) or "row"
	resumeBatch string // --resume-batch
	// batchStop is the command's graceful stop (the first Ctrl-C); each
	// row's own stop follows it through the row's guard.
	batchStop <-chan struct{}
	batchID   string // the batch a run is a row of
	limiter   *llm.Limiter
	// quiet leaves out the per-step lines (a worker of a parallel batch).
	quiet bool
	// signalOut is where the stop signals are reported: stderr, or the
	// live progress line's writer while a parallel batch shows one.
	signalOut *swapWriter
	// guard, for a row of a batch, is its observer (wrapping the progress
	// lines) and closes its Stop (cfg.stop) when it may stop.
	guard *rowGuard
}

// checkBatchFlags refuses the flag combinations a batch cannot honour.
func (b batchConfig) checkBatchFlags(resume bool, resumeFrom string, step, ask bool) string {
	switch {
	case b.parallel < 0:
		return fmt.Sprintf("--parallel %d: want a number of workers, 1 or more", b.parallel)
	case b.isolate != "worker" && b.isolate != "row":
		return fmt.Sprintf("--isolate %s: want worker or row", b.isolate)
	case b.parallel > 1 && (step || ask):
		return "--step and --ask need a person at the terminal for every question: they do not go with --parallel"
	case b.resumeBatch != "" && (resume || resumeFrom != ""):
		return "--resume-batch names the batch to resume: give it without --resume or --resume-from"
	case b.resumeBatch != "" && !journal.ValidBatchID(b.resumeBatch):
		return fmt.Sprintf("--resume-batch %s: not a batch id (batch-…; cogflow runs lists them)", b.resumeBatch)
	}
	return ""
}

// batchInputs takes a resumed batch's inputs file when --inputs is not
// given, and refuses flags that need one without it.
func (cfg *runConfig) batchInputs() error {
	if cfg.resumeBatch != "" && cfg.inputsCSV == "" {
		b, err := journal.LoadBatch(cfg.root, cfg.resumeBatch)
		if err != nil {
			return err
		}
		if b.InputsFile == "" {
			return fmt.Errorf("batch %s names no inputs file: give it with --inputs", b.ID)
		}
		cfg.inputsCSV = b.InputsFile
	}
	switch {
	case cfg.parallel > 0 && cfg.inputsCSV == "":
		return errors.New("--parallel runs the rows of an --inputs file: give one")
	case cfg.inputsCSV != "" && cfg.resumeFrom != "":
		return errors.New("--resume-from resumes one run; to finish a batch use --resume with the same --inputs, or --resume-batch ID")
	}
	return nil
}

// batchJob is one row to run: a fresh run, or a resume of its latest run.
type batchJob struct {
	row    int // 0-based
	inputs map[string]string
	resume string // the run to resume, "" for a fresh run
}

// planBatch makes the batch record of a new batch, or finds the batch a
// resume finishes, and lists the rows to run; done counts the rows a
// resumed batch had finished already.
func (c *cli) planBatch(cfg runConfig, l *loaded, task *ast.Task, rows []map[string]string) (b *journal.Batch, jobs []batchJob, done int, err error) {
	if !cfg.resume && cfg.resumeBatch == "" {
		b, err = journal.NewBatch(cfg.root, journal.Batch{Workflow: cfg.file, WorkflowSHA256: l.w.SHA256(), Task: task.Name.Name,
			InputsFile: cfg.inputsCSV, Rows: len(rows), Parallel: max(cfg.parallel, 1), Engine: journal.EngineLocal})
		if err != nil {
			return nil, nil, 0, err
		}
		for i, r := range rows {
			jobs = append(jobs, batchJob{row: i, inputs: r})
		}
		return b, jobs, 0, nil
	}
	if b, err = c.findBatch(cfg, task); err != nil {
		return nil, nil, 0, err
	}
	switch {
	case b.Workflow != cfg.file || b.Task != task.Name.Name:
		return nil, nil, 0, fmt.Errorf("batch %s ran %s (task %s), not %s (task %s)", b.ID, b.Workflow, b.Task, cfg.file, task.Name.Name)
	case b.Rows != len(rows):
		return nil, nil, 0, fmt.Errorf("batch %s had %d rows, %s has %d now: a resume runs the same rows (start a new batch for new ones)", b.ID, b.Rows, cfg.inputsCSV, len(rows))
	case b.WorkflowSHA256 != "" && b.WorkflowSHA256 != l.w.SHA256():
		return nil, nil, 0, fmt.Errorf("%s changed since batch %s was started: a resume could not tell which steps are done; restore the file or start a new batch", cfg.file, b.ID)
	}
	states, err := b.RowRuns(cfg.root)
	if err != nil {
		return nil, nil, 0, err
	}
	for _, st := range states {
		if st.Done() {
			done++
			continue
		}
		jobs = append(jobs, batchJob{row: st.Row - 1, inputs: rows[st.Row-1], resume: st.RunID})
	}
	return b, jobs, done, nil
}

// findBatch is the batch --resume-batch names, or for --resume the newest
// batch of this workflow, task and inputs file with rows not done.
func (c *cli) findBatch(cfg runConfig, task *ast.Task) (*journal.Batch, error) {
	if cfg.resumeBatch != "" {
		return journal.LoadBatch(cfg.root, cfg.resumeBatch)
	}
	batches, err := journal.ListBatches(cfg.root)
	if err != nil {
		return nil, err
	}
	var runs []journal.RunInfo // listed once, for every batch
	for _, b := range batches {
		if b.Engine != journal.EngineLocal || b.Workflow != cfg.file || b.Task != task.Name.Name || b.InputsFile != cfg.inputsCSV {
			continue
		}
		if runs == nil {
			if runs, err = journal.List(cfg.root); err != nil {
				return nil, err
			}
		}
		for _, st := range b.RowRunsIn(cfg.root, runs) {
			if !st.Done() {
				return b, nil
			}
		}
	}
	return nil, fmt.Errorf("no unfinished batch of %s (task %s) over %s to resume in %s", cfg.file, task.Name.Name, cfg.inputsCSV, cfg.root)
}

// batch runs the rows of cfg.inputsCSV under one batch record.
func (c *cli) batch(ctx context.Context, cfg runConfig, l *loaded, task *ast.Task, rows []map[string]string) int {
	b, jobs, done, err := c.planBatch(cfg, l, task, rows)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		return exitUsage
	}
	cfg.batchID, cfg.batchStop = b.ID, cfg.stop
	// --report reports the batch even when no row runs now (a resume of a
	// batch already done, a driver that will not start): its rows' states
	// are in their journals.
	cfg.noteRun(b.ID)
	if cfg.resume || cfg.resumeBatch != "" {
		fmt.Fprintf(c.stderr, "batch %s: %d of %d rows done already; running %d\n", b.ID, done, b.Rows, len(jobs))
	}
	if len(jobs) == 0 {
		return exitOK
	}
	if cfg.parallel == 0 {
		return c.batchInOrder(ctx, cfg, l, task, jobs)
	}
	return c.batchParallel(ctx, cfg, l, task, b, jobs, done)
}

// batchInOrder runs the rows one after another in one driver, as `run
// --inputs` always did; an interruption or a lost browser ends the batch.
func (c *cli) batchInOrder(ctx context.Context, cfg runConfig, l *loaded, task *ast.Task, jobs []batchJob) int {
	drv, err := driver.Open(ctx, runtime.DriverOf(task), driver.Options{Headed: cfg.headed, RemoteURL: cmp.Or(cfg.adb, cfg.browserURL), Serial: cfg.serial, Executable: cfg.chrome})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		if errors.Is(err, driver.ErrUnavailable) {
			return exitNoDriver
		}
		return exitStepFailed
	}
	defer drv.Close()
	status := exitOK
	for i, j := range jobs {
		if stopped(cfg.batchStop) {
			fmt.Fprintf(c.stderr, "batch %s: stopped; %d rows not started; --resume with the same --inputs finishes the batch\n", cfg.batchID, len(jobs)-i)
			return exitInterrupt
		}
		if j.resume != "" {
			if err := checkRowResume(cfg.root, j.resume, cfg.inDoubt); err != nil {
				fmt.Fprintf(c.stderr, "row %d: %v\n", j.row+1, err)
				status = max(status, exitUsage)
				continue
			}
		}
		code := c.runOnce(ctx, j.config(cfg), l, task, drv, j.inputs, j.row)
		status = max(status, code)
		if code == exitInterrupt || code == exitGone {
			return code
		}
	}
	return status
}

// config is cfg for running j — a resume of its latest run, if it has
// one — with a guard that takes the batch's stop at a safe point.
func (j batchJob) config(cfg runConfig) runConfig {
	cfg.resume, cfg.resumeFrom = j.resume != "", j.resume
	cfg.guard = newRowGuard(cfg.batchStop, nil)
	cfg.stop = cfg.guard.stop
	return cfg
}

// drivers opens the drivers of a parallel batch: for the browser, a
// browser context of one shared Chromium per worker (its rows one after
// another in it, as the rows of a batch without --parallel share one
// browser), or with --isolate row a fresh one per row; for other drivers
// one driver per worker, on the device --serial lists for it.
//
// A browser context takes several DevTools round trips and a renderer
// process (started from scratch: the browser runs without a zygote) to
// make, and as many to throw away: 2.4 CPU-seconds a row on the project's
// machine, several times a demo row itself. So with --isolate row a
// context is made ahead, while the previous row runs (ready holds one per
// worker), and a finished row's context is disposed of in the background.
type drivers struct {
	shared  *browser.Shared
	opts    driver.Options
	name    string
	serials []string
	mu      sync.Mutex
	perW    map[int]driver.Driver
	perRow  bool // --isolate row

	ready   chan prepared // browser contexts made ahead
	closing sync.WaitGroup
}

// prepared is a browser context made ahead, or why it could not be.
type prepared struct {
	d   driver.Driver
	err error
}

func (c *cli) openDrivers(ctx context.Context, cfg runConfig, task *ast.Task) (*drivers, error) {
	ds := &drivers{name: runtime.DriverOf(task), perW: map[int]driver.Driver{},
		opts: driver.Options{Headed: cfg.headed, RemoteURL: cmp.Or(cfg.adb, cfg.browserURL), Executable: cfg.chrome}}
	switch ds.name {
	case "browser":
		s, err := browser.StartShared(ctx, ds.opts)
		if err != nil {
			return nil, err
		}
		ds.shared = s
		if ds.perRow = cfg.isolate == "row"; ds.perRow {
			ds.ready = make(chan prepared, cfg.parallel)
			for range cfg.parallel {
				ds.prepare(ctx)
			}
		}
	case "android":
		for _, s := range strings.Split(cfg.serial, ",") {
			if s = strings.TrimSpace(s); s != "" {
				ds.serials = append(ds.serials, s)
			}
		}
		if cfg.parallel > 1 && len(ds.serials) < cfg.parallel {
			return nil, fmt.Errorf("--parallel %d on android needs %d devices: list their serials with --serial S1,S2,… (%d given)", cfg.parallel, cfg.parallel, len(ds.serials))
		}
	default:
		if cfg.parallel > 1 {
			return nil, fmt.Errorf("driver %s drives the one desktop of this machine: --parallel must be 1", ds.name)
		}
	}
	return ds, nil
}

// prepare makes a browser context in the background, into ds.ready.
func (ds *drivers) prepare(ctx context.Context) {
	ds.closing.Add(1)
	go func() {
		defer ds.closing.Done()
		d, err := ds.shared.Open(ctx)
		ds.ready <- prepared{d, err}
	}()
}

// open gives worker w the driver for its next row; release gives it back.
func (ds *drivers) open(ctx context.Context, w int) (driver.Driver, error) {
	if ds.perRow {
		p := <-ds.ready
		ds.prepare(ctx) // the next row's, while this one runs
		return p.d, p.err
	}
	ds.mu.Lock()
	defer ds.mu.Unlock()
	if d := ds.perW[w]; d != nil {
		return d, nil
	}
	o := ds.opts
	if w < len(ds.serials) {
		o.Serial = ds.serials[w]
	}
	var d driver.Driver
	var err error
	if ds.shared != nil {
		d, err = ds.shared.Open(ctx)
	} else {
		d, err = driver.Open(ctx, ds.name, o)
	}
	if err == nil {
		ds.perW[w] = d
	}
	return d, err
}

// release closes a row's browser context; a worker's device stays open
// for its next row (unless the row lost it).
func (ds *drivers) release(w int, d driver.Driver, gone bool) {
	if ds.perRow {
		ds.closing.Add(1)
		go func() {
			defer ds.closing.Done()
			_ = d.Close()
		}()
		return
	}
	if gone {
		ds.mu.Lock()
		delete(ds.perW, w)
		ds.mu.Unlock()
		_ = d.Close()
	}
}

// Close waits for the contexts being made or thrown away, closes those
// made ahead and not used, then the devices and the shared browser.
func (ds *drivers) Close() {
	if ds.perRow {
		ds.closing.Wait()
		for len(ds.ready) > 0 {
			if p := <-ds.ready; p.d != nil {
				_ = p.d.Close()
			}
		}
	}
	ds.mu.Lock()
	for _, d := range ds.perW {
		_ = d.Close()
	}
	ds.mu.Unlock()
	if ds.shared != nil {
		_ = ds.shared.Close()
	}
}

// swapWriter is a writer whose destination can change while another
// goroutine writes to it.
type swapWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *swapWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	w := s.w
	s.mu.Unlock()
	return w.Write(b)
}

// set makes s write to w.
func (s *swapWriter) set(w io.Writer) {
	s.mu.Lock()
	s.w = w
	s.mu.Unlock()
}
