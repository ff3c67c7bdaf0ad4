package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"
)

// replayResult is one task's row of the replay table (`make
// eval-replay-miniwob`): the demonstration, compiled with no model and
// run once, on its own seed or on -replay-seed.
type replayResult struct {
	task string
	demo *demonstration
	w    workflow
	run  outcome
	ran  bool // the workflow was run (it compiled)
}

// ok reports whether the replay solved the task.
func (r replayResult) ok() bool { return r.ran && r.run.ok() }

// where is the replay's failing step and its message, or why it never
// ran.
func (r replayResult) where() (string, string) {
	if !r.ran {
		step, msg, _ := strings.Cut(r.w.err, ": ")
		return step, msg
	}
	return r.run.step, r.run.message
}

// replayTask records, compiles and replays one task.
func (e *env) replayTask(ctx context.Context, task, seed, replaySeed string) replayResult {
	r := replayResult{task: task}
	r.demo = e.demonstrate(ctx, task, seed, scripts[task])
	r.w = e.compile(ctx, r.demo, "demo.cog")
	if r.w.err != "" {
		return r
	}
	r.run, r.ran = e.runOn(ctx, r.demo, r.w, "replay", replaySeed), true
	return r
}

// replayAll is `make eval-replay-miniwob`: each task replayed once.
func (e *env) replayAll(ctx context.Context, w io.Writer, names []string, seed, replaySeed string) {
	start := time.Now()
	var results []replayResult
	for _, name := range names {
		if ctx.Err() != nil {
			break
		}
		r := e.replayTask(ctx, name, seed, replaySeed)
		step, msg := r.where()
		fmt.Fprintf(w, "  %-24s demo %-5s replay %-5s %s\n", name, rewardText(r.demo.reward), rewardText(r.run.reward), oneLine(step, msg, 120))
		results = append(results, r)
	}
	printReplayTable(w, results, seed == replaySeed, time.Since(start))
}

// printReplayTable writes the per-task replay table and the totals.
func printReplayTable(w io.Writer, results []replayResult, sameSeed bool, wall time.Duration) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "task\tdemo\treplay\tsame instruction\trecord\tcompile\trun\tfailing step\tmessage")
	demoOK, replayOK, silent := 0, 0, 0
	for _, r := range results {
		if r.demo.solved() {
			demoOK++
		}
		if r.ok() {
			replayOK++
		}
		if r.ran && r.run.silentlyWrong() && sameSeed {
			silent++
		}
		same := "-"
		if r.run.reward != nil {
			same = map[bool]string{true: "yes", false: "NO"}[r.run.same]
		}
		step, msg := r.where()
		if r.demo.err != "" && step != "record" { // a failed recording's step says it already
			msg = strings.TrimSpace("[demo: " + r.demo.err + "] " + msg)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.task, rewardText(r.demo.reward), rewardText(r.run.reward), same,
			secs(r.demo.took), secs(r.w.took), secs(r.run.took), step, oneLine("", msg, 160))
	}
	_ = tw.Flush()
	n := len(results)
	fmt.Fprintf(w, "\ndemonstrations solved: %d/%d; replays with reward 1: %d/%d (%.0f%%); silently wrong replays: %d; wall time %s\n",
		demoOK, n, replayOK, n, pct(replayOK, n), silent, wall.Round(time.Second))
}
