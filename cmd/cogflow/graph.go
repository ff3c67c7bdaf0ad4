package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/graph"
	"github.com/cogflow/cogflow/runtime/journal"
)

func runGraph(c *cli, args []string) int {
	fs := c.newFlags("graph")
	format := fs.String("format", "dot", "output format: dot (Graphviz), mermaid, or html (one self-contained page)")
	taskName := fs.String("task", "", "the task to draw when the file has several (default: the first)")
	runID := fs.String("run", "", "html: show what this run's journal says each step did")
	root := fs.String("dir", ".cogflow", "where runs are journaled (for --run)")
	out := fs.String("o", "", "the file to write (default: standard output)")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow graph: give exactly one workflow file")
		return exitUsage
	}
	if *format != "dot" && *format != "mermaid" && *format != "html" {
		fmt.Fprintf(c.stderr, "cogflow graph: unknown format %q (use dot, mermaid or html)\n", *format)
		return exitUsage
	}
	if *runID != "" && *format != "html" {
		fmt.Fprintln(c.stderr, "cogflow graph: --run needs --format html")
		return exitUsage
	}
	l, err := load(files[0])
	if err != nil {
		return c.readError("graph", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	task, err := l.w.Task(*taskName)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow graph: %v\n", err)
		return exitUsage
	}
	g := graph.Build(task, l.info)
	var page bytes.Buffer
	switch *format {
	case "mermaid":
		page.WriteString(g.Mermaid())
	case "html":
		opts := graph.HTMLOptions{File: files[0], Source: l.src}
		if *runID != "" {
			facts, err := runFacts(*root, *runID, g, l.src)
			if err != nil {
				fmt.Fprintf(c.stderr, "cogflow graph: %v\n", err)
				return exitUsage
			}
			if facts.Warning != "" {
				fmt.Fprintf(c.stderr, "cogflow graph: warning: %s\n", facts.Warning)
			}
			opts.Run = facts
		}
		if err := g.HTML(&page, opts); err != nil {
			fmt.Fprintf(c.stderr, "cogflow graph: %v\n", err)
			return exitUsage
		}
	default:
		page.WriteString(g.DOT())
	}
	return c.writeGraph(*out, page.Bytes())
}

// writeGraph writes the drawing to standard output or to the file -o
// names.
func (c *cli) writeGraph(path string, b []byte) int {
	var w io.Writer = c.stdout
	if path != "" {
		if err := os.WriteFile(path, b, 0o644); err != nil {
			fmt.Fprintf(c.stderr, "cogflow graph: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	if _, err := w.Write(b); err != nil {
		fmt.Fprintf(c.stderr, "cogflow graph: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// runFacts reads run id's journal under root into the plain data the
// graph page shows; lang/graph may not import the runtime, so the
// command reads the journal and hands over what it found. The journal is
// already redacted, and nothing else is added to it. A run of another
// task is refused; a run of an earlier version of the file is shown with
// a warning, since its line numbers may not match.
func runFacts(root, id string, g *graph.Graph, src []byte) (*graph.RunFacts, error) {
	task := g.Task
	run, err := journal.Load(root, id)
	if err != nil {
		return nil, err
	}
	if run.Start.Task != task {
		return nil, fmt.Errorf("run %s is of task %q, not %q (choose it with --task %s)", id, run.Start.Task, task, run.Start.Task)
	}
	f := &graph.RunFacts{ID: id, Started: run.Start.Started, Steps: map[string][]graph.StepFact{}, Inputs: run.Start.Inputs}
	if sum := sha256.Sum256(src); run.Start.WorkflowSHA256 != "" && run.Start.WorkflowSHA256 != hex.EncodeToString(sum[:]) {
		f.Warning = fmt.Sprintf("the workflow file changed since run %s: its steps' lines may not match the run's", id)
	}
	if run.Finish != nil {
		f.Outcome, f.Error, f.Duration = string(run.Finish.Outcome), run.Finish.Error, time.Duration(run.Finish.Duration)
	} else if run.Interruption != nil {
		f.Outcome = string(journal.Interrupted)
	} else if in, ok := run.InDoubt(); ok {
		f.Error = fmt.Sprintf("killed while step %s (%s) acted: it may or may not have taken effect; --resume settles it", in.Step, in.Op)
	}
	// The steps of a skill are journaled under their own names, which may
	// be a task step's too: while the file is the one the run ran, an
	// execution counts for a step only on the step's own line.
	lines := map[string]int{}
	if f.Warning == "" {
		for _, n := range g.Nodes {
			if n.Kind == "step" {
				lines[n.ID] = n.Range.Start.Line
			}
		}
	}
	ours := func(evTask, step string, line int) bool {
		if evTask != "" && evTask != task {
			return false
		}
		want, ok := lines[step]
		return !ok || line <= 0 || line == want
	}
	acted := map[int]bool{}
	for _, ev := range run.Steps {
		acted[ev.Seq] = true
		if !ours(ev.Task, ev.Step, ev.Line) {
			continue
		}
		outcome := ev.Outcome
		if outcome == "" {
			outcome = journal.OK
		}
		sf := graph.StepFact{Outcome: string(outcome), Duration: time.Duration(ev.Duration), Value: ev.Value,
			Source: string(ev.Source), Error: ev.Error, Where: where(ev.Loop, ev.Branches), Branches: ev.Branches}
		sf.Args = argFacts(ev.Args)
		f.Steps[ev.Step] = append(f.Steps[ev.Step], sf)
	}
	// A step whose intent has no outcome was acting when the run was
	// killed: in doubt, not "not run".
	for _, in := range run.Intents {
		if in.Seq == 0 || acted[in.Seq] || !ours(in.Task, in.Step, in.Line) {
			continue
		}
		f.Steps[in.Step] = append(f.Steps[in.Step], graph.StepFact{Outcome: string(journal.InDoubt),
			Where: where(in.Loop, in.Branches), Branches: in.Branches, Args: argFacts(in.Args),
			Error: "the run was killed while this step acted: it may or may not have taken effect"})
	}
	return f, nil
}

func argFacts(args []journal.Arg) []graph.ArgFact {
	var out []graph.ArgFact
	for _, a := range args {
		out = append(out, graph.ArgFact{Name: a.Name, Value: a.Value, Source: string(a.Source)})
	}
	return out
}

// where tells the loop item and branches a step ran in.
func where(loop []journal.LoopPos, branches []string) string {
	var parts []string
	if len(loop) > 0 {
		parts = append(parts, strings.TrimPrefix(journal.Position{Loop: loop}.String(), "in "))
	}
	parts = append(parts, branches...)
	return strings.Join(parts, "; ")
}
