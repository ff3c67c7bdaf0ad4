package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/runtime/journal"
)

// Resuming a run: which run (the one named, or the one whose workflow,
// task and inputs match), held under its OS lock for the resume's life,
// with its inputs, and with its step in doubt settled (--in-doubt).

// inDoubtPolicies are the values of --in-doubt: those of a step's in_doubt:.
var inDoubtPolicies = check.InDoubtPolicies

// resumption is a run being resumed: the run as journaled, its lock, the
// inputs to run with, and how its step in doubt is settled.
type resumption struct {
	*cogflow.Resumption
	lock   *journal.Lock
	inputs map[string]string
}

// refuse is a resume refused here (its step in doubt not settled); those
// refused while finding the run are cogflow.ResumeErrors.
func refuse(format string, args ...any) error { return fmt.Errorf(format, args...) }

// resume takes the run to resume and prepares it. file holds task (and
// the steps' in_doubt: policies); given are the inputs of the command line
// (or the CSV row); hash is the workflow file's SHA-256.
// The caller releases the lock when the resumed run ends.
func (c *cli) resume(cfg runConfig, file *ast.File, task *ast.Task, given map[string]string, hash string) (*resumption, error) {
	prev, lock, err := cogflow.TakeResumable(cfg.root, cfg.file, task, cfg.resumeFrom, given)
	if err != nil {
		return nil, err
	}
	r := &resumption{Resumption: &cogflow.Resumption{Prev: prev}, lock: lock}
	fail := func(err error) (*resumption, error) {
		lock.Release()
		return nil, err
	}
	if err := cogflow.CheckUnchanged(prev, cfg.file, hash); err != nil {
		return fail(err)
	}
	if r.inputs, err = cogflow.ResumeInputs(prev, task, given); err != nil {
		return fail(err)
	}
	if err := c.settle(cfg, file, prev, r); err != nil {
		return fail(err)
	}
	return r, nil
}

// settle decides what the resumed run does with the step its run left in
// doubt: read it back when its effect can be, else follow the policy — an
// explicit --in-doubt, else the step's own in_doubt:, else ask — asking
// only a person at a terminal.
func (c *cli) settle(cfg runConfig, file *ast.File, prev *journal.Run, r *resumption) error {
	intent, ok := prev.InDoubt()
	if !ok {
		return nil
	}
	policy, from := cogflow.SettlePolicy(file, intent, cfg.inDoubt)
	if policy == "" || policy == "ask" {
		if !c.interactive() {
			why := ""
			if from == "step" && policy == "ask" {
				why = fmt.Sprintf("\nits in_doubt: \"ask\" (line %d) wants a person at the terminal, and there is none", intent.Line)
			}
			return refuse("%s%s\nchoose what to do with it: --in-doubt=skip (do not do it again: its loop item counts as done), --in-doubt=redo (do its loop item again: the step may take effect twice), or --in-doubt=ask at a terminal", describeInDoubt(prev, intent), why)
		}
		var err error
		if policy, err = c.askInDoubt(prev, intent); err != nil {
			return err
		}
		from = "terminal"
	}
	r.Resumption = cogflow.Settlement(prev, intent, policy, from)
	fmt.Fprintf(c.stderr, "%s\nsettled %s: %s\n", describeInDoubt(prev, intent), policySource(from, policy, intent.Line), map[string]string{
		"check": "it is done again with its loop item, and its effect read back",
		"skip":  "it is not done again (its loop item counts as done)",
		"redo":  "its loop item is done again",
	}[policy])
	return nil
}

// describeInDoubt says which step is in doubt: where, in which item, with
// which arguments (as journaled, so redacted).
func describeInDoubt(prev *journal.Run, in journal.Intent) string {
	var b strings.Builder
	why := "it was acting when the run was killed or lost its browser, so it may or may not have taken effect"
	if prev.Acted(in.Seq) {
		why = "it took effect, but its loop item did not finish, and a resume does an unfinished item again from its start"
	}
	fmt.Fprintf(&b, "run %s left step %s (line %d, %s) in doubt: %s", prev.ID, in.Step, in.Line, in.Op, why)
	for _, l := range in.Loop {
		fmt.Fprintf(&b, "\n  item: %s[%d] %q", l.Var, l.Index, truncateLine(l.Key, 60))
	}
	for _, a := range in.Args {
		name := a.Name
		if name == "" {
			name = "arg"
		}
		fmt.Fprintf(&b, "\n  %s: %s", name, truncateLine(a.Value, 80))
	}
	return b.String()
}

// interactive reports whether a person can answer at the terminal.
func (c *cli) interactive() bool {
	f, ok := c.stdin.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// askInDoubt asks the person at the terminal what to do with the step.
func (c *cli) askInDoubt(prev *journal.Run, in journal.Intent) (string, error) {
	id := prev.ID
	fmt.Fprintln(c.stderr, describeInDoubt(prev, in))
	rd := bufio.NewReader(c.stdin)
	for {
		fmt.Fprint(c.stderr, "[s]kip it (its item counts as done), [r]edo its item, or [q]uit? ")
		line, err := rd.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "s", "skip":
			return "skip", nil
		case "r", "redo":
			return "redo", nil
		case "q", "quit":
			return "", refuse("resume of run %s abandoned: the step in doubt was not settled", id)
		}
		if errors.Is(err, io.EOF) || err != nil {
			return "", refuse("no answer for the step in doubt of run %s; give --in-doubt=skip or --in-doubt=redo", id)
		}
	}
}
