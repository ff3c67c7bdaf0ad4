package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/compiler/reflection"
	"github.com/cogflow/cogflow/internal/readlimit"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// runReflect is `cogflow reflect FILE.cog`: it finds the dependencies a
// person changed since compile, asks the configured model why each
// compiled one was wrong and how the knowledge base should change, shows
// the proposed change as a diff and, with --apply, writes it.
func runReflect(c *cli, args []string) int {
	flags := c.newFlags("reflect")
	against := flags.String("against", "", "compare with the file at this git revision instead of DIR/compiled/")
	apply := flags.Bool("apply", false, "write the updated knowledge base to DIR/"+cogflow.KnowledgeFileName)
	dry := flags.Bool("dry-run", false, "only show the proposed change (the default)")
	dir := flags.String("dir", defaultProjectDir, "the project folder with compiled/ and "+cogflow.KnowledgeFileName)
	files, code, ok := c.parseArgs(flags, args)
	if !ok {
		return code
	}
	switch {
	case len(files) != 1:
		fmt.Fprintln(c.stderr, "cogflow reflect: give exactly one workflow file")
		return exitUsage
	case *apply && *dry:
		fmt.Fprintln(c.stderr, "cogflow reflect: --apply and --dry-run exclude each other")
		return exitUsage
	}
	path := files[0]
	orig, edited, code := c.reflectFiles(path, *against, *dir)
	if orig == nil {
		return code
	}
	changes := reflection.Changes(orig, edited)
	if len(changes) == 0 {
		fmt.Fprintf(c.stdout, "cogflow reflect: no dependency of %s changed since it was compiled\n", path)
		return exitOK
	}
	fmt.Fprintf(c.stdout, "%d dependency change(s) in %s:\n", len(changes), path)
	for _, ch := range changes {
		was := reflection.DepString(ch.Original)
		if ch.Original != nil && ch.Edited != nil {
			was += "  (at " + ch.Original.Range.String() + ")"
		}
		fmt.Fprintf(c.stdout, "  %s: %s: %s\n    was: %s\n    now: %s\n", changeWhere(ch), ch.Step, ch.Kind,
			was, reflection.DepString(ch.Edited))
	}
	k, ds := cogflow.ProjectKB(*dir)
	if ds.HasErrors() {
		c.renderFiles(ds)
		fmt.Fprintln(c.stderr, "cogflow reflect: the project's knowledge base has errors; fix them first")
		return exitBadInput
	}
	conf, cdiags := config.Load(".")
	if cdiags.HasErrors() {
		conf.Render(c.stderr, cdiags)
		return exitBadInput
	}
	if !conf.LLMConfigured() {
		fmt.Fprintf(c.stderr, "cogflow reflect: no model is configured (set %s, or base_url in %s), so the knowledge base cannot learn from these changes\n", config.EnvAPIKey, config.FileName)
		return exitUsage
	}
	client, err := llm.FromConfig(conf)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow reflect: %v\n", err)
		return exitUsage
	}
	note := fmt.Sprintf("Learned by cogflow reflect from %s on %s.", filepath.Base(path), time.Now().UTC().Format("2006-01-02"))
	updated := k
	for _, ch := range changes {
		req := reflection.Request{KB: updated, Filename: filepath.Base(path), Original: orig, Edited: edited, Change: ch}
		next, code := c.reflectOne(client, conf.LLM.TextModel, req, note)
		if next == nil {
			fmt.Fprintln(c.stderr, "cogflow reflect: the knowledge base is left unchanged")
			return code
		}
		updated = next
	}
	return c.writeKB(*dir, updated, *apply)
}

// changeWhere is the position of the side of a change that exists, preferring
// the edited file.
func changeWhere(ch reflection.Change) string {
	if ch.Edited != nil {
		return ch.Edited.Range.String()
	}
	return ch.Original.Range.String() + " (compiled)"
}

// reflectFiles parses the edited workflow and its compiled original. On
// failure it has reported the problem and returns nil files and the exit
// code.
func (c *cli) reflectFiles(path, against, dir string) (*ast.File, *ast.File, int) {
	// Parsed, not checked: a workflow being edited may not check yet.
	editedSrc, err := readlimit.File(path, "a workflow", maxWorkflowSize)
	if err != nil {
		return nil, nil, c.readError("reflect", err)
	}
	edited, ediags := syntax.Parse(path, editedSrc)
	if edited == nil || ediags.HasErrors() {
		ediags.Render(c.stderr, func(string) []byte { return editedSrc })
		return nil, nil, exitBadInput
	}
	origPath := filepath.Join(dir, "compiled", filepath.Base(path))
	var src []byte
	if against != "" {
		origPath = against + ":" + path
		src, err = gitShow(against, path)
	} else {
		src, err = readlimit.File(origPath, "a workflow", maxWorkflowSize)
		if errors.Is(err, fs.ErrNotExist) {
			err = fmt.Errorf("no compiled original %s (cogflow compile keeps one there; or compare with a git revision: --against REV)", origPath)
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow reflect: %v\n", err)
		return nil, nil, exitUsage
	}
	orig, diags := syntax.Parse(origPath, src)
	if orig == nil || diags.HasErrors() {
		diags.Render(c.stderr, func(string) []byte { return src })
		fmt.Fprintf(c.stderr, "cogflow reflect: the original %s does not parse\n", origPath)
		return nil, nil, exitBadInput
	}
	return orig, edited, exitOK
}

// gitShow returns the file at path as it was at revision rev, asking git
// in the file's folder so that any path inside the work tree works.
func gitShow(rev, path string) ([]byte, error) {
	cmd := exec.Command("git", "-C", filepath.Dir(path), "show", rev+":./"+filepath.Base(path))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git show %s:%s: %v: %s", rev, path, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// reflectOne asks about one change and applies the proposed updates to a
// copy of k. A reply that does not parse, or an update that is refused,
// gives nil: nothing of this run is written.
func (c *cli) reflectOne(client llm.Client, model string, req reflection.Request, note string) (*kb.KB, int) {
	ch := req.Change
	fmt.Fprintf(c.stdout, "\n%s (%s):\n", ch.Step, ch.Kind)
	reply, resp, err := reflection.Ask(context.Background(), client, model, req)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow reflect: %s: %v\n", ch.Step, err)
		if resp != nil {
			fmt.Fprintf(c.stderr, "the model's reply was:\n%s\n", reflectIndent(resp.Text))
		}
		return nil, exitBadInput
	}
	fmt.Fprintf(c.stdout, "  why: %s\n", strings.ReplaceAll(reply.Reason, "\n", "\n       "))
	for _, u := range reply.Updates {
		fmt.Fprintf(c.stdout, "  update: %s\n", u)
	}
	out, err := reflection.Apply(req.KB, reply.Updates, note)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow reflect: %s: %v\n", ch.Step, err)
		return nil, exitBadInput
	}
	return out, exitOK
}

// writeKB shows the change to the project's knowledge base as a diff and,
// with apply, writes it atomically; without a project file the default is
// the starting point.
func (c *cli) writeKB(dir string, k *kb.KB, apply bool) int {
	path := cogflow.ProjectKBPath(dir)
	old, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		old, err = stdlib.KnowledgeHCL, nil
	}
	if err != nil {
		return c.readError("reflect", err)
	}
	updated := k.Format()
	if bytes.Equal(old, updated) {
		fmt.Fprintln(c.stdout, "\nThe knowledge base needs no update.")
		return exitOK
	}
	if before, _ := kb.Parse(old, path); before != nil && !bytes.Equal(before.Format(), old) {
		fmt.Fprintf(c.stderr, "cogflow reflect: warning: %s is not in canonical form; writing it reformats it, and comments that are not directly above a block are lost\n", path)
	}
	fmt.Fprintln(c.stdout)
	c.stdout.Write(unifiedDiff(path, old, updated))
	if !apply {
		fmt.Fprintf(c.stdout, "\nDry run: %s is unchanged; run with --apply to write it.\n", path)
		return exitOK
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return c.readError("reflect", err)
	}
	if err := writeNew(path, updated); err != nil {
		return c.readError("reflect", err)
	}
	fmt.Fprintf(c.stdout, "\nWrote %s; the next compile uses it.\n", path)
	return exitOK
}

func reflectIndent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}
