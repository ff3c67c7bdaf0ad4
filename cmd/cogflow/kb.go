package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/lang/suggest"
	"github.com/cogflow/cogflow/stdlib"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// defaultProjectDir is the project folder that check, run, graph and cost
// read the knowledge base from; compile, reflect and kb take --dir.
const defaultProjectDir = ".cogflow"

// renderFiles prints diagnostics with the source lines read from their
// files.
func (c *cli) renderFiles(ds diag.List) {
	ds.Render(c.stderr, diag.ReadFiles())
}

// runKB is `cogflow kb init|list|show|validate`.
func runKB(c *cli, args []string) int {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	flags := c.newFlags("kb")
	dir := flags.String("dir", defaultProjectDir, "the project folder that holds "+cogflow.KnowledgeFileName)
	force := flags.Bool("force", false, "init: replace an existing knowledge base")
	rest, code, ok := c.parseArgs(flags, args)
	if !ok {
		return code
	}
	switch sub {
	case "init":
		return c.kbInit(*dir, *force, rest)
	case "list":
		return c.kbList(*dir, rest)
	case "show":
		return c.kbShow(*dir, rest)
	case "validate":
		return c.kbValidate(*dir, rest)
	case "":
		flags.Usage()
		return exitUsage
	}
	fmt.Fprintf(c.stderr, "cogflow kb: unknown subcommand %q (init, list, show, validate)\n", sub)
	return exitUsage
}

// kbInit copies the default knowledge base into the project, where it
// evolves and is versioned with the workflows.
func (c *cli) kbInit(dir string, force bool, rest []string) int {
	if len(rest) > 0 {
		fmt.Fprintln(c.stderr, "cogflow kb init: takes no arguments")
		return exitUsage
	}
	path := cogflow.ProjectKBPath(dir)
	if _, err := os.Stat(path); err == nil && !force {
		fmt.Fprintf(c.stderr, "cogflow kb init: %s exists; it may hold what reflect learned, so it is kept (--force replaces it)\n", path)
		return exitUsage
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return c.readError("kb init", err)
	}
	if err := writeNew(path, stdlib.KnowledgeHCL); err != nil {
		return c.readError("kb init", err)
	}
	fmt.Fprintf(c.stdout, "cogflow kb init: wrote %s, the default knowledge base; commit it with your workflows\n", path)
	return exitOK
}

// loadKB loads the project's knowledge base for kb list and show, and says
// which one it is.
func (c *cli) loadKB(cmd, dir string) (*kb.KB, string, bool) {
	k, ds := cogflow.ProjectKB(dir)
	if ds.HasErrors() {
		c.renderFiles(ds)
		fmt.Fprintf(c.stderr, "cogflow %s: the knowledge base has errors\n", cmd)
		return nil, "", false
	}
	from := cogflow.ProjectKBPath(dir)
	if _, err := os.Stat(from); err != nil {
		from = "the default knowledge base (no " + from + "; cogflow kb init copies it there)"
	}
	return k, from, true
}

func (c *cli) kbList(dir string, rest []string) int {
	if len(rest) > 0 {
		fmt.Fprintln(c.stderr, "cogflow kb list: takes no arguments")
		return exitUsage
	}
	k, from, ok := c.loadKB("kb list", dir)
	if !ok {
		return exitBadInput
	}
	fmt.Fprintf(c.stdout, "# %s\n", from)
	for _, cat := range k.Categories {
		fmt.Fprintf(c.stdout, "%s (%s): %s\n", cat.Name, cat.Result, cat.Definition)
		for _, s := range cat.Subcategories {
			fmt.Fprintf(c.stdout, "  %s: %s\n", s.Name, s.Definition)
		}
	}
	fmt.Fprintf(c.stdout, "%d rules (cogflow kb show N prints one)\n", len(k.Rules))
	return exitOK
}

// kbShow prints a main category, a subcategory or a rule.
func (c *cli) kbShow(dir string, rest []string) int {
	if len(rest) != 1 {
		fmt.Fprintln(c.stderr, "cogflow kb show: give one name: a main category, a subcategory or a rule number")
		return exitUsage
	}
	k, _, ok := c.loadKB("kb show", dir)
	if !ok {
		return exitBadInput
	}
	name, w := rest[0], c.stdout
	if cat := k.Main(name); cat != nil {
		fmt.Fprintf(w, "%s (main category, returns %s)\n  %s\nsubcategories:\n", cat.Name, cat.Result, cat.Definition)
		for _, s := range cat.Subcategories {
			fmt.Fprintf(w, "  %s: %s\n", s.Name, s.Definition)
		}
		return exitOK
	}
	if cat, s, found := k.Lookup(name); found {
		res := s.Result
		if res == "" {
			res = cat.Result
		}
		fmt.Fprintf(w, "%s.%s (returns %s)\n", cat.Name, s.Name, res)
		for _, line := range s.Comment {
			fmt.Fprintf(w, "  # %s\n", line)
		}
		fmt.Fprintf(w, "  %s\nexamples:\n", s.Definition)
		for _, ex := range s.Examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
		return exitOK
	}
	if r := k.Rule(strings.TrimPrefix(name, "rule")); r != nil {
		for _, line := range r.Comment {
			fmt.Fprintf(w, "# %s\n", line)
		}
		fmt.Fprintf(w, "rule %s: %s\n", r.ID, r.Text)
		return exitOK
	}
	msg := fmt.Sprintf("cogflow kb show: no main category, subcategory or rule %q", name)
	if near := suggest.Closest(name, append(kb.MainCategories(), k.SubcategoryNames()...), 1); len(near) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", near[0])
	}
	fmt.Fprintln(c.stderr, msg)
	return exitBadInput
}

// kbValidate checks a knowledge base file: errors and warnings with their
// positions, exit 1 on errors.
func (c *cli) kbValidate(dir string, rest []string) int {
	if len(rest) > 1 {
		fmt.Fprintln(c.stderr, "cogflow kb validate: give at most one file")
		return exitUsage
	}
	path := cogflow.ProjectKBPath(dir)
	if len(rest) == 1 {
		path = rest[0]
	}
	src, err := kb.ReadFile(path)
	if err != nil {
		if len(rest) == 0 && errors.Is(err, fs.ErrNotExist) {
			fmt.Fprintf(c.stderr, "cogflow kb validate: no %s (cogflow kb init creates it from the default)\n", path)
			return exitUsage
		}
		return c.readError("kb validate", err)
	}
	k, ds := kb.Parse(src, path)
	ds.Render(c.stderr, func(string) []byte { return src })
	if ds.HasErrors() {
		return exitBadInput
	}
	fmt.Fprintf(c.stdout, "%s: ok: %d main categories, %d subcategories, %d rules\n", path, len(k.Categories), len(k.SubcategoryNames()), len(k.Rules))
	return exitOK
}
