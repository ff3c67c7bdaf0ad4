package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/journal"
)

// batchParallel runs jobs on cfg.parallel workers. Each row runs in a
// driver of its own (a fresh browser context), with no one at the
// terminal (a question it would ask fails it; a step in doubt follows
// --in-doubt or the step's in_doubt:, else the row's resume is refused), and
// its output is written as one block when it ends. A row's failure does
// not stop the others; the exit code is the worst of the rows'. The first
// Ctrl-C starts no new row and stops each row at its next safe point
// (rowGuard); a second one stops them all at once.
func (c *cli) batchParallel(ctx context.Context, cfg runConfig, l *loaded, task *ast.Task, b *journal.Batch, jobs []batchJob, done int) int {
	ds, err := c.openDrivers(ctx, cfg, task)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: %v\n", err)
		if errors.Is(err, driver.ErrUnavailable) {
			return exitNoDriver
		}
		return exitUsage
	}
	defer ds.Close()
	prog := newBatchProgress(c.stderr, b.ID, b.Rows, done, len(jobs))
	stdout, stderr := prog.writer(c.stdout), prog.writer(c.stderr)
	if cfg.signalOut != nil {
		// "stopping after the step in flight" goes above the live line.
		cfg.signalOut.set(stderr)
		defer cfg.signalOut.set(c.stderr)
	}
	ticker := time.NewTicker(500 * time.Millisecond)
	tickDone := make(chan struct{})
	go func() {
		for {
			select {
			case <-ticker.C:
				prog.tick()
			case <-tickDone:
				return
			}
		}
	}()
	cfg.quiet = true
	queue := make(chan batchJob)
	go func() {
		defer close(queue)
		for _, j := range jobs {
			select {
			case queue <- j:
			case <-cfg.batchStop:
				return
			}
		}
	}()
	var (
		mu       sync.Mutex
		status   = exitOK
		started  = map[int]bool{}
		failures []int
	)
	var wg sync.WaitGroup
	for w := range min(cfg.parallel, len(jobs)) {
		wg.Go(func() {
			for j := range queue {
				if stopped(cfg.batchStop) {
					continue // the feeder may have handed it over as the stop came
				}
				mu.Lock()
				started[j.row] = true
				mu.Unlock()
				code, out, errOut := c.batchRow(ctx, cfg, l, task, ds, w, j)
				_, _ = stdout.Write(out)
				_, _ = stderr.Write(errOut)
				prog.rowDone(code)
				mu.Lock()
				status = max(status, code)
				if code != exitOK && code != exitInterrupt {
					failures = append(failures, j.row+1)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	ticker.Stop()
	close(tickDone)
	prog.finish()
	slices.Sort(failures)
	if len(failures) > 0 {
		fmt.Fprintf(c.stderr, "batch %s: rows %s failed; cogflow runs lists their journals\n", b.ID, joinInts(failures))
	}
	if stopped(cfg.batchStop) {
		status = max(status, exitInterrupt)
		fmt.Fprintf(c.stderr, "batch %s: stopped, %d rows not started; cogflow run %s --inputs %s --resume (or --resume-batch %s) finishes it\n",
			b.ID, len(jobs)-len(started), cfg.file, cfg.inputsCSV, b.ID)
	}
	return status
}

// batchRow runs one row in worker w's next driver, its output gathered.
func (c *cli) batchRow(ctx context.Context, cfg runConfig, l *loaded, task *ast.Task, ds *drivers, w int, j batchJob) (code int, out, errOut []byte) {
	var ob, eb bytes.Buffer
	// Nobody answers at the terminal: interactive() is false for it.
	wc := &cli{stdout: &ob, stderr: &eb, stdin: strings.NewReader(""), ctx: c.ctx}
	if j.resume != "" {
		if err := checkRowResume(cfg.root, j.resume, cfg.inDoubt); err != nil {
			fmt.Fprintf(&eb, "row %d: %v\n", j.row+1, err)
			return exitUsage, ob.Bytes(), eb.Bytes()
		}
	}
	drv, err := ds.open(ctx, w)
	if err != nil {
		fmt.Fprintf(&eb, "row %d: cannot start its driver: %v\n", j.row+1, err)
		if errors.Is(err, driver.ErrGone) {
			return exitGone, ob.Bytes(), eb.Bytes()
		}
		return exitStepFailed, ob.Bytes(), eb.Bytes()
	}
	code = wc.runOnce(ctx, j.config(cfg), l, task, drv, j.inputs, j.row)
	ds.release(w, drv, code == exitGone)
	return code, ob.Bytes(), eb.Bytes()
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	return strings.Join(s, ", ")
}
