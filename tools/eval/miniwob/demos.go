package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-rod/rod/lib/proto"
)

// variantCount is how many kinds of instance a task of kind 4 has, as
// the person tells them apart (person.variant): -demos auto demonstrates
// seeds until each has been seen.
var variantCount = map[string]int{
	"email-inbox":            4, // reply, forward, delete, star
	"email-inbox-star-reply": 2, // star, reply
	"login-user-popup":       3, // no popup, popup at username, popup at password
}

// maxDemoTries bounds the seeds tried to see every variant.
const maxDemoTries = 12

// wantDemos is how many demonstrations -demos asks of a task: a number,
// or "auto" (its variants' count; 1 for a task whose instances do not
// vary).
func wantDemos(flag, task string) (int, error) {
	if flag == "auto" {
		if n, ok := variantCount[task]; ok {
			return n, nil
		}
		return 1, nil
	}
	n, err := strconv.Atoi(flag)
	if err != nil || n < 1 || n > maxDemoTries {
		return 0, fmt.Errorf("-demos %q: use auto or a number from 1 to %d", flag, maxDemoTries)
	}
	return n, nil
}

// demoSeed is the seed of the k-th demonstration (k from 0): seed A
// itself first, then A-dK, never one of the fresh seeds A-1 … A-N.
func demoSeed(seed string, k int) string {
	if k == 0 {
		return seed
	}
	return fmt.Sprintf("%s-d%d", seed, k+1)
}

// demonstrateSeveral records the person solving seeds until want
// demonstrations of different variants are kept (a task without variants:
// the first want solved ones); each in a folder of its own under the
// task's. The first kept is the one the workflow opens.
func (e *env) demonstrateSeveral(ctx context.Context, task, seed string, want int, solve func(*person) error) []*demonstration {
	if want <= 1 {
		return []*demonstration{e.demonstrate(ctx, task, seed, solve)}
	}
	var kept []*demonstration
	seen := map[string]bool{}
	for k := 0; k < maxDemoTries && len(kept) < want && ctx.Err() == nil; k++ {
		file := "demo.trace.json"
		if k > 0 {
			file = filepath.Join("demo-"+strconv.Itoa(k+1), "demo.trace.json")
		}
		d := e.demonstrateTo(ctx, task, demoSeed(seed, k), file, solve)
		if k == 0 && !d.solved() {
			return []*demonstration{d} // the first demonstration is the row's; it failed
		}
		if !d.solved() || seen[d.variant] && d.variant != "" {
			continue
		}
		seen[d.variant] = true
		kept = append(kept, d)
	}
	return kept
}

// compileMerged compiles several demonstrations into one workflow with
// `cogflow compile A.trace.json B.trace.json … --no-llm` (compiler.CompileAll).
func (e *env) compileMerged(ctx context.Context, ds []*demonstration, name string) workflow {
	first := ds[0]
	w := workflow{path: filepath.Join(first.dir, name)}
	args := []string{"compile"}
	for _, d := range ds {
		if _, err := os.Stat(d.trace); err != nil {
			w.err = "record: " + firstLine(d.err, "no trace written")
			return w
		}
		args = append(args, d.trace)
	}
	args = append(args, "--no-llm", "-o", w.path, "--dir", filepath.Join(first.dir, "compile"))
	return e.compileInto(ctx, w, args, first.query(), "the merged workflow does not open the first demonstration's page URL")
}

// variantsOf lists the demonstrations' variants, for the task's line.
func variantsOf(ds []*demonstration) string {
	var vs []string
	for _, d := range ds {
		if d.variant != "" {
			vs = append(vs, d.variant)
		}
	}
	return strings.Join(vs, ", ")
}

// instancePassword is the password the instance of seed asks for, read
// from its instruction the way the person reads it (`password "…"`):
// a workflow's secret input is the person's to give at run time, and on
// a fresh seed it is that instance's password, not the demonstration's.
// It opens the instance in a tab of its own under a probe episode id;
// "" when the instruction names no password.
func (e *env) instancePassword(task, seed string) string {
	page, err := e.b.Page(proto.TargetCreateTarget{URL: e.srv.taskURL(task, seed, task+"-probe-"+seed)})
	if err != nil {
		return ""
	}
	defer page.Close()
	h := &person{p: page}
	for range 2 {
		_ = page.Timeout(10 * time.Second).WaitLoad()
		if q := h.query(); strings.Contains(q, `password "`) {
			return between(q, `password "`, `"`)
		}
		// The instruction may be written when the episode starts.
		if el, err := page.Timeout(2 * time.Second).Element("#sync-task-cover"); err == nil {
			_ = el.Click(proto.InputMouseButtonLeft, 1)
			time.Sleep(200 * time.Millisecond)
		}
	}
	return ""
}

// printMerged lists, under the table, the tasks whose compiled workflow
// merged several demonstrations: how many, and of which kinds.
func printMerged(w io.Writer, results []*taskEval) {
	var lines []string
	for _, r := range results {
		if len(r.demos) > 1 {
			lines = append(lines, fmt.Sprintf("%s %d (%s)", r.task, len(r.demos), variantsOf(r.demos)))
		}
	}
	if len(lines) > 0 {
		fmt.Fprintf(w, "\ndemonstrations merged: %s\n", strings.Join(lines, "; "))
	}
}
