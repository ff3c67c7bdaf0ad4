package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/patch"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/redact"
)

// The patch a healed run proposes (cogflow run --heal): the path
// exploration found for each healed step, inserted before that step, shown
// as a unified diff the way `cogflow reflect` shows its knowledge-base
// update, kept in the run's folder as heal.patch, and written to the
// workflow when --yes is given or the person at the terminal says yes.

// healPatchFile is the patch's name in the run's folder.
const healPatchFile = "heal.patch"

// healInsertions turns the paths healing found into insertions, one per
// healed step. A path that types a parameter's value ({name}) is left
// out: the workflow would need an input for it, which is the author's
// choice to make.
func healInsertions(heals []runtime.Heal) []patch.Insertion {
	var out []patch.Insertion
	for _, h := range heals {
		ins := patch.Insertion{Before: h.Step.Name.Name, Line: h.Step.Range.Start.Line, Note: healNote(h.Step.Name.Name, len(h.Path))}
		ok := true
		for _, s := range h.Path {
			if strings.Contains(s.Text, "{") {
				ok = false
			}
			ins.Steps = append(ins.Steps, patch.Step{Op: s.Op, Target: s.Target, Text: s.Text})
		}
		if ok && len(ins.Steps) > 0 {
			out = append(out, ins)
		}
	}
	return out
}

// healNote is the comment above the inserted steps.
func healNote(step string, n int) string {
	what := "this step"
	if n > 1 {
		what = "these steps"
	}
	return fmt.Sprintf("Added by cogflow run --heal: %s's target shows only after %s.", step, what)
}

// patchDiff applies the insertions to src and returns the new text and
// the unified diff from src to it.
func patchDiff(path string, src []byte, ins []patch.Insertion) (patched, diff []byte, err error) {
	patched, err = patch.Apply(path, src, ins)
	if err != nil {
		return nil, nil, err
	}
	return patched, unifiedDiff(filepath.ToSlash(path), src, patched), nil
}

// proposePatch shows the patch for the heals of a run and writes it to
// the workflow if the person agrees (or --yes). It never changes the
// run's exit code: the run reached its end either way.
func (c *cli) proposePatch(cfg runConfig, l *loaded, heals []runtime.Heal, runID string, ask runtime.Prompter, secrets *redact.Set) {
	ins := healInsertions(heals)
	if len(ins) == 0 {
		return
	}
	patched, diff, err := patchDiff(cfg.file, l.src, ins)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: the path exploration found cannot be offered as a patch: %v\n", err)
		return
	}
	if secrets.Holds(string(diff)) {
		// An element the path names shows a secret: it must not reach
		// the workflow, the terminal or the run's folder.
		fmt.Fprintln(c.stderr, "cogflow run: the path exploration found names an element that shows a secret, so it is not offered as a patch")
		return
	}
	fmt.Fprintf(c.stdout, "\nHealed %d step(s) by exploring. This patch makes %s take the path found:\n\n", len(ins), cfg.file)
	c.stdout.Write(diff)
	saved := ""
	if runID != "" {
		saved = filepath.Join(cfg.root, "runs", runID, healPatchFile)
		if err := os.WriteFile(saved, diff, 0o644); err != nil {
			fmt.Fprintf(c.stderr, "cogflow run: keeping the patch: %v\n", err)
			saved = ""
		}
	}
	apply := cfg.yes
	if !apply && ask != nil {
		answer, err := ask.Ask(fmt.Sprintf("apply this patch to %s? [y]es, [n]o", cfg.file))
		a := strings.ToLower(strings.TrimSpace(answer))
		apply = err == nil && (a == "y" || a == "yes")
	}
	if !apply {
		how := "run again with --heal --yes to apply it"
		if saved != "" {
			how = fmt.Sprintf("apply it with: patch %s < %s (or run again with --heal --yes)", cfg.file, saved)
		}
		fmt.Fprintf(c.stdout, "\nNot applied: %s is unchanged; %s.\n", cfg.file, how)
		return
	}
	if err := writeOver(cfg.file, l.src, patched); err != nil {
		fmt.Fprintf(c.stderr, "cogflow run: the patch was not applied: %v\n", err)
		return
	}
	fmt.Fprintf(c.stdout, "\nApplied: wrote %s; the next run takes the path without exploring.\n", cfg.file)
}

// writeOver replaces the file at path with data, atomically and keeping
// its mode, unless it no longer holds was (it was edited during the run).
func writeOver(path string, was, data []byte) error {
	now, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, was) {
		return fmt.Errorf("%s changed during the run", path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(st.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// exploreConfig is what the run's explorations use: the configured model,
// if any (none: lexical ranking and deterministic goals only), the
// knowledge base's irreversible words and the project's knowledge store.
func exploreConfig(cfg runConfig) (runtime.ExploreConfig, error) {
	var x runtime.ExploreConfig
	client, err := llm.FromConfig(cfg.llm)
	if err != nil {
		return x, err
	}
	x.Model = client
	if cfg.knowledge != nil {
		x.Memory = cfg.knowledge
	}
	return x, nil
}

// lazyKnowledge is the project's knowledge store (runtime/knowledge),
// opened at the first exploration: a run that explores nothing neither
// creates the file nor holds its lock.
type lazyKnowledge struct {
	dir     string
	secrets *redact.Set
	once    sync.Once
	s       *knowledge.Store
	err     error
}

func (k *lazyKnowledge) store() (*knowledge.Store, error) {
	k.once.Do(func() {
		k.s, k.err = knowledge.Open(k.dir)
		if k.err == nil && k.secrets != nil {
			k.s.Refuse(k.secrets)
		}
	})
	return k.s, k.err
}

// Close closes the store if it was opened.
func (k *lazyKnowledge) Close() error {
	if k.s == nil {
		return nil
	}
	return k.s.Close()
}

// Transitions implements explore.Memory.
func (k *lazyKnowledge) Transitions(app, from string) ([]knowledge.Transition, error) {
	s, err := k.store()
	if err != nil {
		return nil, err
	}
	return s.Transitions(app, from)
}

// AddTransition implements explore.Memory.
func (k *lazyKnowledge) AddTransition(t knowledge.Transition) error {
	s, err := k.store()
	if err != nil {
		return err
	}
	return s.AddTransition(t)
}

// Path implements explore.Memory.
func (k *lazyKnowledge) Path(app, command string) (knowledge.Path, bool, error) {
	s, err := k.store()
	if err != nil {
		return knowledge.Path{}, false, err
	}
	return s.Path(app, command)
}

// SavePath implements explore.Memory.
func (k *lazyKnowledge) SavePath(p knowledge.Path) error {
	s, err := k.store()
	if err != nil {
		return err
	}
	return s.SavePath(p)
}

// AddLesson implements explore.Memory.
func (k *lazyKnowledge) AddLesson(l knowledge.Lesson) error {
	s, err := k.store()
	if err != nil {
		return err
	}
	return s.AddLesson(l)
}

// Lessons implements explore.Memory.
func (k *lazyKnowledge) Lessons(app, command string) ([]knowledge.Lesson, error) {
	s, err := k.store()
	if err != nil {
		return nil, err
	}
	return s.Lessons(app, command)
}
