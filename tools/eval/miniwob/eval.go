package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"
)

// taskEval is one task's row of the `make eval` table: one demonstration,
// compiled twice (generalizing, and literal), each run on the same fresh
// seeds.
type taskEval struct {
	task      string
	kind      int // from the fixtures' README; 0 when it names none
	demo      *demonstration
	demos     []*demonstration // the demonstrations merged into the compiled workflow (demo first)
	compiled  variantEval
	literal   variantEval
	counts    stepCounts // the compiled workflow's steps, by answer
	countsErr string     // why they could not be counted
	took      time.Duration
}

// variantEval is one compiled workflow and its runs, one per fresh seed.
type variantEval struct {
	w    workflow
	runs []outcome
}

// successes is how many runs solved the task (0 when it did not
// compile: its runs count as failures).
func (v variantEval) successes() int {
	n := 0
	for _, o := range v.runs {
		if o.ok() {
			n++
		}
	}
	return n
}

// silent is how many runs were silently wrong.
func (v variantEval) silent() int {
	n := 0
	for _, o := range v.runs {
		if o.silentlyWrong() {
			n++
		}
	}
	return n
}

// modelCalls is how many model requests the runs made.
func (v variantEval) modelCalls() int {
	n := 0
	for _, o := range v.runs {
		n += o.log.modelCalls
	}
	return n
}

// unanswered is how many runs stopped at a step that needs a model:
// with no model configured nothing answers its dependency.
func (v variantEval) unanswered(c stepCounts) int {
	n := 0
	for _, o := range v.runs {
		if o.log.failed != "" && c.kindOf(o.log.failed) == byModel {
			n++
		}
	}
	return n
}

// firstFailure is the first seed the workflow did not solve, where and
// why; ok is false when every run solved the task.
func (v variantEval) firstFailure() (seed, step, msg string, ok bool) {
	if v.w.err != "" {
		return "-", "", v.w.err, true
	}
	for _, o := range v.runs {
		if !o.ok() {
			return o.seed, o.step, o.message, true
		}
	}
	return "", "", "", false
}

// evalTask demonstrates a task on seed, compiles the demonstration both
// ways and runs both workflows on every fresh seed, parallel runs at a
// time (each run in a browser context of its own in the shared
// Chromium).
func (e *env) evalTask(ctx context.Context, task, seed string, fresh []string, parallel int) *taskEval {
	t0 := time.Now()
	r := &taskEval{task: task}
	want, _ := wantDemos(e.demos, task) // checked when the flags were read
	r.demos = e.demonstrateSeveral(ctx, task, seed, want, scripts[task])
	r.demo = r.demos[0]
	if len(r.demos) > 1 {
		r.compiled.w = e.compileMerged(ctx, r.demos, "compiled.cog")
	} else {
		r.compiled.w = e.compile(ctx, r.demo, "compiled.cog")
	}
	r.literal.w = e.compile(ctx, r.demo, "literal.cog", "--literal")
	if r.compiled.w.src != "" {
		var err error
		if r.counts, err = classifySource(r.compiled.w.path, []byte(r.compiled.w.src)); err != nil {
			r.countsErr = err.Error()
		}
	}
	variants := []struct {
		name string
		v    *variantEval
	}{{"compiled", &r.compiled}, {"literal", &r.literal}}
	sem := make(chan struct{}, max(parallel, 1))
	var wg sync.WaitGroup
	for _, vr := range variants {
		if vr.v.w.err != "" {
			continue
		}
		vr.v.runs = make([]outcome, len(fresh))
		for i, s := range fresh {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sem <- struct{}{}
				defer func() { <-sem }()
				if ctx.Err() != nil {
					vr.v.runs[i] = outcome{seed: s, step: "harness", message: "interrupted"}
					return
				}
				vr.v.runs[i] = e.runOn(ctx, r.demo, vr.v.w, vr.name, s)
			}()
		}
	}
	wg.Wait()
	r.took = time.Since(t0)
	return r
}

// evalAll is `make eval`: every task demonstrated on seed and run on the
// fresh seeds; a line per task as it ends, then the table and the
// summary.
func (e *env) evalAll(ctx context.Context, w io.Writer, names []string, kinds map[string]int, seed string, fresh []string, parallel int) {
	start := time.Now()
	var results []*taskEval
	for _, name := range names {
		if ctx.Err() != nil {
			break
		}
		r := e.evalTask(ctx, name, seed, fresh, parallel)
		r.kind = kinds[name]
		fmt.Fprintf(w, "  %-24s kind %s  demo %-5s demos merged %d  compiled %d/%d  literal %d/%d  %s", name, kindText(r.kind),
			rewardText(r.demo.reward), len(r.demos), r.compiled.successes(), len(fresh), r.literal.successes(), len(fresh), secs(r.took))
		if vs := variantsOf(r.demos); len(r.demos) > 1 && vs != "" {
			fmt.Fprintf(w, "  (%s)", vs)
		}
		fmt.Fprintln(w)
		results = append(results, r)
	}
	printEvalTable(w, results, len(fresh))
	printMerged(w, results)
	printEvalSummary(w, results, len(fresh), time.Since(start))
}
