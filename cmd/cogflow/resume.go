package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/runtime"
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
	prev    *journal.Run
	lock    *journal.Lock
	inputs  map[string]string
	settle  *runtime.Settle     // nil when no step is in doubt
	settled *journal.Settlement // the same, for the new run's journal
	skip    []journal.LoopPos   // the loop item skipped with the step in doubt
}

// resumeError is a resume refused; code is the exit code.
type resumeError struct {
	msg  string
	code int
}

func (e *resumeError) Error() string { return e.msg }

func refuse(format string, args ...any) *resumeError {
	return &resumeError{msg: fmt.Sprintf(format, args...), code: exitUsage}
}

// fileSHA256 is the hex SHA-256 of a file's bytes, "" if it cannot be read.
func fileSHA256(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// resume takes the run to resume and prepares it. file holds task (and
// the steps' in_doubt: policies); given are the inputs of the command line
// (or the CSV row); hash is the workflow file's SHA-256.
// The caller releases the lock when the resumed run ends.
func (c *cli) resume(cfg runConfig, file *ast.File, task *ast.Task, given map[string]string, hash string) (*resumption, error) {
	prev, lock, err := takeRun(cfg.root, cfg.file, task, cfg.resumeFrom, given)
	if err != nil {
		return nil, err
	}
	r := &resumption{prev: prev, lock: lock}
	fail := func(err error) (*resumption, error) {
		lock.Release()
		return nil, err
	}
	if old := prev.Start.WorkflowSHA256; old != "" && hash != "" && old != hash {
		return fail(refuse("%s changed since run %s was started (SHA-256 %.12s… then, %.12s… now): a resume could not tell which steps are done; restore the file or start a new run", cfg.file, prev.ID, old, hash))
	}
	if r.inputs, err = resumeInputs(prev, task, given); err != nil {
		return fail(err)
	}
	if err := c.settle(cfg, file, prev, r); err != nil {
		return fail(err)
	}
	return r, nil
}

// takeRun finds the run to resume and locks it: the run named by id, or
// the newest unfinished run of the workflow and task that no later run
// resumed and whose inputs are the given ones (when some are given).
func takeRun(root, file string, task *ast.Task, id string, given map[string]string) (*journal.Run, *journal.Lock, error) {
	runs, err := journal.List(root)
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		if id, err = findRun(runs, file, task, given, root); err != nil {
			return nil, nil, err
		}
	}
	lock, err := journal.LockRun(root, id)
	if errors.Is(err, journal.ErrLocked) {
		return nil, nil, refuse("run %s is in use: it is still running, or another cogflow is resuming it; wait for that to end", id)
	}
	if err != nil {
		return nil, nil, err
	}
	// Under the lock, look again: a resume that held it a moment ago may
	// have finished the run's work in a run of its own.
	if runs, err = journal.List(root); err == nil {
		if by := resumedBy(runs, id); by != "" {
			lock.Release()
			return nil, nil, refuse("run %s was already resumed by run %s; resume that one (--resume-from %s) if it did not finish", id, by, by)
		}
	}
	prev, err := journal.Load(root, id)
	if err != nil {
		lock.Release()
		return nil, nil, err
	}
	switch {
	case prev.Start.Workflow != file:
		lock.Release()
		return nil, nil, refuse("run %s ran %s, not %s", id, prev.Start.Workflow, file)
	case prev.Start.Task != task.Name.Name:
		lock.Release()
		return nil, nil, refuse("run %s ran task %s, not %s", id, prev.Start.Task, task.Name.Name)
	case prev.Finish != nil && prev.Finish.Outcome == journal.OK:
		lock.Release()
		return nil, nil, refuse("run %s finished; there is nothing to resume", id)
	}
	return prev, lock, nil
}

// findRun picks the run --resume continues (see takeRun). Several
// candidates with different inputs are refused rather than guessed at.
func findRun(runs []journal.RunInfo, file string, task *ast.Task, given map[string]string, root string) (string, error) {
	var found []journal.RunInfo
	for _, r := range runs {
		if r.Problem != "" || r.Workflow != file || r.Task != task.Name.Name || r.Outcome == journal.OK || resumedBy(runs, r.ID) != "" {
			continue
		}
		if len(given) > 0 {
			prev, err := journal.Load(root, r.ID)
			if err != nil || inputsDiffer(prev.Start.Inputs, given, secretNames(task)) != "" {
				continue
			}
		}
		found = append(found, r)
	}
	if len(found) == 0 {
		what := ""
		if len(given) > 0 {
			what = " with these inputs"
		}
		return "", refuse("no interrupted run of %s (task %s)%s to resume in %s", file, task.Name.Name, what, root)
	}
	if len(found) > 1 && len(given) == 0 {
		// Only an ambiguity if the candidates ran with different inputs.
		first, err := journal.Load(root, found[0].ID)
		for _, r := range found[1:] {
			other, oerr := journal.Load(root, r.ID)
			if err != nil || oerr != nil || !maps.Equal(first.Start.Inputs, other.Start.Inputs) {
				ids := make([]string, len(found))
				for i, f := range found {
					ids[i] = f.ID
				}
				return "", refuse("%d interrupted runs of %s ran with different inputs (%s): name one with --resume-from ID, or give its --input values", len(found), file, strings.Join(ids, ", "))
			}
		}
	}
	return found[0].ID, nil // List is newest first
}

// resumedBy names a run that resumed run id, "" if none did.
func resumedBy(runs []journal.RunInfo, id string) string {
	for _, r := range runs {
		if r.Resume == id {
			return r.ID
		}
	}
	return ""
}

// secretNames lists the task's secret inputs.
func secretNames(t *ast.Task) map[string]bool {
	out := map[string]bool{}
	for _, s := range t.Body.Stmts {
		if in, ok := s.(*ast.InputDecl); ok && strings.Contains(in.Type.String(), "secret") {
			out[in.Name.Name] = true
		}
	}
	return out
}

// inputsDiffer says how the given inputs differ from the journaled ones,
// "" when they do not. Secret inputs are not compared: the journal never
// holds their values.
func inputsDiffer(journaled, given map[string]string, secret map[string]bool) string {
	var diffs []string
	for _, name := range slices.Sorted(maps.Keys(given)) {
		if secret[name] {
			continue
		}
		old, ok := journaled[name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s was not given then (it took its default)", name))
		case old != given[name]:
			diffs = append(diffs, fmt.Sprintf("%s was %q then, %q now", name, old, given[name]))
		}
	}
	return strings.Join(diffs, "; ")
}

// resumeInputs are the resumed run's inputs: the journaled ones, which
// given inputs may repeat but not change; secret inputs must be given
// again, since the journal never holds them.
func resumeInputs(prev *journal.Run, task *ast.Task, given map[string]string) (map[string]string, error) {
	secret := secretNames(task)
	if d := inputsDiffer(prev.Start.Inputs, given, secret); d != "" {
		return nil, refuse("the inputs differ from run %s's: %s; a resume runs with the same inputs (start a new run for new ones)", prev.ID, d)
	}
	inputs := map[string]string{}
	var missing []string
	for _, name := range slices.Sorted(maps.Keys(prev.Start.Inputs)) {
		switch {
		case secret[name] && given[name] == "":
			missing = append(missing, name)
		case secret[name]:
		default:
			inputs[name] = prev.Start.Inputs[name]
		}
	}
	if len(missing) > 0 {
		return nil, refuse("run %s had the secret input(s) %s, which no journal keeps: give them again (--input %s=…)", prev.ID, strings.Join(missing, ", "), missing[0])
	}
	for name, v := range given {
		inputs[name] = v
	}
	return inputs, nil
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
	policy, from := cfg.inDoubt, "flag"
	if policy == "" {
		policy, from = stepPolicy(file, intent.Step, intent.Line), "step"
	}
	switch {
	case runtime.ReadBackOps[intent.Op]:
		// Journal.InDoubt returns a read-back step only when nothing
		// unrepeatable happened in its item: doing the item again is safe,
		// and skipping it would lose it.
		policy, from = "check", "read back"
	case policy == "" || policy == "ask":
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
	loops := make([]runtime.LoopPos, len(intent.Loop))
	for i, l := range intent.Loop {
		loops[i] = runtime.LoopPos{Var: l.Var, Index: l.Index, Key: l.Key}
	}
	r.settle = &runtime.Settle{Line: intent.Line, Loops: loops, Policy: policy}
	r.settled = &journal.Settlement{Run: prev.ID, Intent: intent, Policy: policy, From: from}
	if policy == "skip" && len(intent.Loop) > 0 {
		r.skip = intent.Loop
	}
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
