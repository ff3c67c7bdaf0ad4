package cogflow

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
)

// Resuming a run: which run (the one named, or the one whose workflow,
// task and inputs match), held under its OS lock for the resume's life,
// with its inputs.

// ResumeError is a resume refused: no run to resume, a run in use, a
// changed workflow file or different inputs. Its message says what to do.
type ResumeError struct {
	msg string
}

func (e *ResumeError) Error() string { return e.msg }

func refuse(format string, args ...any) *ResumeError {
	return &ResumeError{msg: fmt.Sprintf(format, args...)}
}

// TakeResumable finds the run to resume and locks it in the journal
// folder root: the run named by id, or
// the newest unfinished run of the workflow and task that no later run
// resumed and whose inputs are the given ones (when some are given).
func TakeResumable(root, file string, task *ast.Task, id string, given map[string]string) (*journal.Run, *journal.Lock, error) {
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

// findRun picks the run --resume continues (see TakeResumable). Several
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

// ResumeInputs are the resumed run's inputs: the journaled ones, which
// given inputs may repeat but not change; secret inputs must be given
// again, since the journal never holds them.
func ResumeInputs(prev *journal.Run, task *ast.Task, given map[string]string) (map[string]string, error) {
	secret := secretNames(task)
	for name, v := range prev.Start.Inputs {
		if v == journal.Redacted {
			// A plain input the run typed into a password field: the
			// journal took it out (Writer.Rescrub), so it is given again.
			secret[name] = true
		}
	}
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

// CheckUnchanged refuses to resume prev with the workflow file path whose
// SHA-256 is now hash: a resume could not tell which steps are done.
func CheckUnchanged(prev *journal.Run, path, hash string) error {
	if old := prev.Start.WorkflowSHA256; old != "" && hash != "" && old != hash {
		return refuse("%s changed since run %s was started (SHA-256 %.12s… then, %.12s… now): a resume could not tell which steps are done; restore the file or start a new run", path, prev.ID, old, hash)
	}
	return nil
}

// SettlePolicy is what the settings say to do with the step a run left in
// doubt (intent), and which setting says it: a step whose effect can be
// read back is done again and checked ("check", "read back"); else the
// flag (from "flag"), else the step's own in_doubt: ("step"). A policy ""
// or "ask" needs a person to answer.
func SettlePolicy(file *ast.File, intent journal.Intent, flag string) (policy, from string) {
	policy, from = flag, "flag"
	if policy == "" {
		policy, from = runtime.StepPolicy(file, intent.Step, intent.Line), "step"
	}
	if runtime.ReadBackOps[intent.Op] {
		// Journal.InDoubt returns a read-back step only when nothing
		// unrepeatable happened in its item: doing the item again is safe,
		// and skipping it would lose it.
		policy, from = "check", "read back"
	}
	return policy, from
}

// Settlement is the resumption of prev that settles its step in doubt
// (intent) with policy ("check", "skip" or "redo"), chosen by from.
func Settlement(prev *journal.Run, intent journal.Intent, policy, from string) *Resumption {
	loops := make([]runtime.LoopPos, len(intent.Loop))
	for i, l := range intent.Loop {
		loops[i] = runtime.LoopPos{Var: l.Var, Index: l.Index, Key: l.Key}
	}
	r := &Resumption{Prev: prev, Settle: &runtime.Settle{Line: intent.Line, Loops: loops, Policy: policy},
		Settled: &journal.Settlement{Run: prev.ID, Intent: intent, Policy: policy, From: from}}
	if policy == "skip" && len(intent.Loop) > 0 {
		r.Skip = intent.Loop
	}
	return r
}
