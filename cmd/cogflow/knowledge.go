package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cogflow/cogflow/runtime/knowledge"
)

const knowledgeArgs = "list [--kind K] [--app A] [--json] | show ID… | forget ID… | forget --all --app A [--dir .cogflow]"

const knowledgeSummary = "inspect and forget what exploration learned about apps and sites"

const knowledgeHelpText = `Exploration (cogflow explore, cogflow run --heal) learns about each app or
site and keeps it in DIR/knowledge.db: the transitions an action causes
between screens (environment), commands and their parameters (task), the
shortest path that reached a command's goal, which the next run replays
(execution), and short lessons from wrong paths (lesson). Secrets are never
stored. This is not the knowledge base of cognitive dependencies: that is
'cogflow kb'.

  list     one line per entry: its id, kind, app, when it was saved, a summary
  show     every field of the entries with these ids
  forget   delete the entries with these ids, or with --all every entry of
           the app --app names (its replayed paths included)
`

// runKnowledge is `cogflow knowledge list|show|forget`.
func runKnowledge(c *cli, args []string) int {
	sub := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	flags := c.newFlags("knowledge")
	dir := flags.String("dir", defaultProjectDir, "the project folder that holds "+knowledge.FileName)
	kind := flags.String("kind", "", "list: only entries of this kind: environment, task, execution or lesson")
	app := flags.String("app", "", "list: only entries about this app (a site's origin or an Android package); forget --all: the app")
	asJSON := flags.Bool("json", false, "list: print a JSON array")
	all := flags.Bool("all", false, "forget: every entry about the app --app names")
	rest, code, ok := c.parseArgs(flags, args)
	if !ok {
		return code
	}
	switch sub {
	case "list":
		if len(rest) > 0 {
			fmt.Fprintln(c.stderr, "cogflow knowledge list: takes no arguments (--kind and --app filter)")
			return exitUsage
		}
		return c.knowledgeList(*dir, *kind, *app, *asJSON)
	case "show":
		return c.knowledgeShow(*dir, rest)
	case "forget":
		return c.knowledgeForget(*dir, rest, *all, *app)
	case "":
		flags.Usage()
		return exitUsage
	}
	fmt.Fprintf(c.stderr, "cogflow knowledge: unknown subcommand %q (list, show, forget)\n", sub)
	return exitUsage
}

// noKnowledge says where the store would be and what fills it, when
// there is none in dir.
func noKnowledge(dir string) (string, bool) {
	path := filepath.Join(dir, knowledge.FileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("no knowledge yet: %s does not exist; cogflow explore and cogflow run --heal fill it as they explore", path), true
	}
	return "", false
}

// openKnowledge opens the project's store for a subcommand, never
// creating one; nil and an exit code when it cannot.
func (c *cli) openKnowledge(sub, dir string) (*knowledge.Store, int) {
	if msg, missing := noKnowledge(dir); missing {
		fmt.Fprintf(c.stderr, "cogflow knowledge %s: %s\n", sub, msg)
		return nil, exitBadInput
	}
	s, err := knowledge.Open(dir)
	if err != nil {
		return nil, c.readError("knowledge "+sub, err)
	}
	return s, exitOK
}

// jsonEntry is an entry as list --json prints it.
type jsonEntry struct {
	ID      string    `json:"id"`
	Kind    string    `json:"kind"`
	App     string    `json:"app"`
	Summary string    `json:"summary"`
	Saved   time.Time `json:"saved"`
}

func (c *cli) knowledgeList(dir, kind, app string, asJSON bool) int {
	// Nothing learned yet is an empty list, not an error.
	if msg, missing := noKnowledge(dir); missing {
		if asJSON {
			msg = "[]"
		}
		fmt.Fprintln(c.stdout, msg)
		return exitOK
	}
	s, code := c.openKnowledge("list", dir)
	if s == nil {
		return code
	}
	defer s.Close()
	all, err := s.List(kind)
	if err != nil {
		return c.readError("knowledge list", err)
	}
	out := []jsonEntry{}
	for _, e := range all {
		if app == "" || e.App == app {
			out = append(out, jsonEntry(e))
		}
	}
	if asJSON {
		b, _ := json.MarshalIndent(out, "", "  ") // plain strings and times always encode
		fmt.Fprintf(c.stdout, "%s\n", b)
		return exitOK
	}
	fmt.Fprintf(c.stdout, "# %s: %s\n", s.File(), entries(len(out)))
	if len(out) == 0 {
		return exitOK
	}
	w := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tKIND\tAPP\tSAVED\tSUMMARY")
	for _, e := range out {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", e.ID, e.Kind, e.App, e.Saved.UTC().Format("2006-01-02 15:04"), e.Summary)
	}
	w.Flush()
	return exitOK
}

// entries counts entries in words.
func entries(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

func (c *cli) knowledgeShow(dir string, ids []string) int {
	if len(ids) == 0 {
		fmt.Fprintln(c.stderr, "cogflow knowledge show: give one or more ids (cogflow knowledge list shows them)")
		return exitUsage
	}
	s, code := c.openKnowledge("show", dir)
	if s == nil {
		return code
	}
	defer s.Close()
	code = exitOK
	for i, id := range ids {
		text, err := s.Show(id)
		if err != nil {
			fmt.Fprintf(c.stderr, "cogflow knowledge show: %v\n", err)
			code = exitBadInput
			continue
		}
		if i > 0 {
			fmt.Fprintln(c.stdout)
		}
		fmt.Fprint(c.stdout, text)
	}
	return code
}

// knowledgeForget deletes entries by id, all or none: an unknown id among
// them deletes nothing, so a typo never leaves half a command done.
func (c *cli) knowledgeForget(dir string, ids []string, all bool, app string) int {
	switch {
	case all && (app == "" || len(ids) > 0):
		fmt.Fprintln(c.stderr, "cogflow knowledge forget: --all needs --app A and no ids (to forget every app, delete the store file)")
		return exitUsage
	case !all && len(ids) == 0:
		fmt.Fprintln(c.stderr, "cogflow knowledge forget: give one or more ids, or --all --app A")
		return exitUsage
	}
	s, code := c.openKnowledge("forget", dir)
	if s == nil {
		return code
	}
	defer s.Close()
	if all {
		n, err := s.ForgetApp(app)
		if err != nil {
			return c.readError("knowledge forget", err)
		}
		fmt.Fprintf(c.stdout, "forgot %s about %s\n", entries(n), app)
		return exitOK
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	for _, id := range ids {
		if _, err := s.Show(id); err != nil {
			fmt.Fprintf(c.stderr, "cogflow knowledge forget: %v; nothing was forgotten\n", err)
			return exitBadInput
		}
	}
	for _, id := range ids {
		if err := s.Forget(id); err != nil {
			return c.readError("knowledge forget", err)
		}
		fmt.Fprintf(c.stdout, "forgot %s\n", id)
	}
	return exitOK
}
