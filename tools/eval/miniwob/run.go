package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// runLimit is the most one `cogflow run` of a MiniWoB++ task may take; a
// run that hangs costs the measurement this much, not the whole budget.
const runLimit = 90 * time.Second

// outcome is one run of a workflow on one seed.
type outcome struct {
	seed    string
	reward  *Reward // nil: the episode never ended
	same    bool    // the instance showed the demonstration's instruction
	stepsOK bool    // the run ended ok: every step reported ok
	log     runLog
	step    string // where it failed: a step, "run", "(end)" or "(all ok)"
	message string
	took    time.Duration // the cogflow process
	waited  time.Duration // for the page's reward after it
}

// ok reports whether the run solved the task.
func (o outcome) ok() bool { return o.reward != nil && o.reward.Raw > 0 }

// silentlyWrong reports a run whose steps all reported ok while the
// task's own checker said the task was not done: the run did not notice.
func (o outcome) silentlyWrong() bool { return o.stepsOK && o.reward != nil && o.reward.Raw <= 0 }

// runOn runs a compiled workflow on the task's instance of seed, under
// its own episode id and folder (variant names the workflow).
func (e *env) runOn(ctx context.Context, d *demonstration, w workflow, variant, seed string) outcome {
	o := outcome{seed: seed}
	ep := fmt.Sprintf("%s-%s-%s", d.task, variant, seed)
	name := fmt.Sprintf("%s-%s", variant, seed)
	cog := filepath.Join(d.dir, name+".cog")
	src := strings.ReplaceAll(w.src, d.query(), fmt.Sprintf("seed=%s&ep=%s", seed, ep))
	if err := os.WriteFile(cog, []byte(src), 0o644); err != nil {
		o.step, o.message = "harness", err.Error()
		return o
	}
	runDir := filepath.Join(d.dir, "runs", name)
	_ = os.RemoveAll(runDir) // journals of an earlier run in the same -out
	args := []string{"run", cog, "--yes", "--browser-url", e.browserURL, "--dir", runDir}
	if ins := secretInputs(w.src); len(ins) > 0 {
		// The person knows the password (the instruction shows it); a
		// secret input has no default in the workflow. On a fresh seed
		// it is that instance's password.
		secret := d.secret
		if p := e.instancePassword(d.task, seed); p != "" {
			secret = p
		}
		for _, in := range ins {
			args = append(args, "--input", in+"="+secret)
		}
	}
	t0 := time.Now()
	out, err := e.cli(ctx, runLimit, args...)
	o.took = time.Since(t0)
	grace := 3 * time.Second // the page's post may trail the run's end
	if err != nil {
		grace = 500 * time.Millisecond
	}
	t1 := time.Now()
	rw, ok := e.srv.reward(ep, grace)
	o.waited = time.Since(t1)
	if ok {
		o.reward = &rw
		o.same = d.reward != nil && rw.Query == d.reward.Query
	}
	o.log = readRunLog(runDir)
	o.stepsOK = err == nil && o.log.failed == ""
	o.step, o.message = verdict(o, err, out, seed == d.seed)
	return o
}

// verdict says where a run failed: the journal's failing step, else the
// run's own last words, else what the reward says about a run whose
// steps all reported ok. On the demonstration's own seed that is the
// case the project must never let happen; on another seed it is also
// the workflow not generalizing.
func verdict(o outcome, runErr error, out string, sameSeed bool) (string, string) {
	switch {
	case o.log.failed != "":
		return o.log.where, o.log.err
	case runErr != nil:
		return "run", lastLine(out)
	case o.reward == nil:
		return "(end)", "every step ran but the episode did not end"
	case o.reward.Raw <= 0 && !sameSeed:
		return "(all ok)", fmt.Sprintf("SILENTLY WRONG (not generalized): every step reported ok, the task's checker gave %.2g (%s)", o.reward.Raw, o.reward.Reason)
	case o.reward.Raw <= 0:
		return "(all ok)", fmt.Sprintf("SILENTLY WRONG: every step reported ok, the task's checker gave %.2g (%s)", o.reward.Raw, o.reward.Reason)
	}
	return "", ""
}
