package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/cogflow/cogflow/compiler/goal"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
)

// The goal commands' synopses.
const (
	goalArgs  = "TRACE.json [--no-llm]"
	judgeArgs = "--goal-a TEXT --trace-a A.trace.json --goal-b TEXT --trace-b B.trace.json [--no-llm]"
	evalArgs  = "goals DIR [--no-llm] [--reasons]"
)

const evalHelpText = `DIR holds demonstrations with reference goals: NAME.trace.json and NAME.goal.txt.
The goal file's first line is the reference goal; "param: VALUE" lines are its
parameters' values (default: its "quoted" parts; "params: none": it has
none); "mask: #ID" hides an element
and what is inside it, "mask: TEXT" a text, from the inference (the reference
goal itself is always hidden). For each demonstration the goal is inferred from
the masked trace and judged against the reference by mutual satisfaction.
`

// goalOptions builds the model options from the configuration; no model
// (none configured, or --no-llm) leaves them empty: rules only.
func (c *cli) goalOptions(cmd string, noLLM bool) (goal.Options, bool) {
	if noLLM {
		return goal.Options{}, true
	}
	conf, cdiags := config.Load(".")
	if cdiags.HasErrors() {
		conf.Render(c.stderr, cdiags)
		return goal.Options{}, false
	}
	client, err := llm.FromConfig(conf)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow %s: %v\n", cmd, err)
		return goal.Options{}, false
	}
	if client == nil {
		return goal.Options{}, true
	}
	return goal.Options{LLM: client, Model: conf.LLM.TextModel}, true
}

func (c *cli) loadTrace(file string) (*trace.Trace, bool) {
	tr, err := trace.Load(file)
	if err != nil {
		trace.Diagnostics(err, file).Render(c.stderr, nil)
		return nil, false
	}
	return tr, true
}

// runGoal is `cogflow goal TRACE.json`.
func runGoal(c *cli, args []string) int {
	fs := c.newFlags("goal")
	noLLM := fs.Bool("no-llm", false, "rules only, even when a model is configured")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow goal: give one trace")
		return exitUsage
	}
	tr, ok := c.loadTrace(files[0])
	if !ok {
		return exitBadInput
	}
	opts, ok := c.goalOptions("goal", *noLLM)
	if !ok {
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g, err := goal.Infer(ctx, tr, opts)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow goal: %v\n", err)
		return exitBadInput
	}
	fmt.Fprintf(c.stdout, "goal: %s\n", g.Sentence)
	for _, p := range g.Params {
		fmt.Fprintf(c.stdout, "param: %s = %q (%s)\n", p.Name, p.Value, p.Where)
	}
	if g.Source == goal.SourceRules {
		fmt.Fprintln(c.stdout, "source: rules only (no model): the steps as a sentence, the values typed, chosen and clicked as parameters")
	} else {
		fmt.Fprintf(c.stdout, "source: the model %s\n", opts.Model)
	}
	for _, n := range g.Notes {
		fmt.Fprintf(c.stderr, "cogflow goal: %s\n", n)
	}
	return exitOK
}

// runJudge is `cogflow judge`.
func runJudge(c *cli, args []string) int {
	fs := c.newFlags("judge")
	goalA := fs.String("goal-a", "", "description A")
	traceA := fs.String("trace-a", "", "the trajectory that carried out A")
	goalB := fs.String("goal-b", "", "description B")
	traceB := fs.String("trace-b", "", "the trajectory that carried out B")
	noLLM := fs.Bool("no-llm", false, "rules only, even when a model is configured")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) > 0 || strings.TrimSpace(*goalA) == "" || strings.TrimSpace(*goalB) == "" || *traceA == "" || *traceB == "" {
		fmt.Fprintln(c.stderr, "cogflow judge: give --goal-a, --trace-a, --goal-b and --trace-b")
		return exitUsage
	}
	a, ok := c.loadTrace(*traceA)
	if !ok {
		return exitBadInput
	}
	b, ok := c.loadTrace(*traceB)
	if !ok {
		return exitBadInput
	}
	opts, ok := c.goalOptions("judge", *noLLM)
	if !ok {
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	v, err := goal.Judge(ctx, goal.Described{Goal: *goalA, Trace: a}, goal.Described{Goal: *goalB, Trace: b}, opts)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow judge: %v\n", err)
		return exitBadInput
	}
	fmt.Fprintf(c.stdout, "verdict: %s\n", v.Verdict)
	for _, d := range []goal.Direction{v.AB, v.BA} {
		ans := d.Answer
		if ans == "" {
			ans = "cannot tell"
		}
		fmt.Fprintf(c.stdout, "%s's trajectory fulfils %s: %s: %s\n", d.From, d.To, ans, d.Reason)
	}
	if v.Source == goal.SourceRules {
		fmt.Fprintln(c.stdout, "source: rules only (no model): parameter values compared")
	} else {
		fmt.Fprintf(c.stdout, "source: the model %s\n", opts.Model)
	}
	return exitOK
}

// runEval is `cogflow eval goals DIR`.
func runEval(c *cli, args []string) int {
	fs := c.newFlags("eval")
	noLLM := fs.Bool("no-llm", false, "rules only, even when a model is configured")
	reasons := fs.Bool("reasons", false, "print the judge's reasons under the table")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) != 2 || rest[0] != "goals" {
		fmt.Fprintln(c.stderr, "cogflow eval: use `cogflow eval goals DIR`")
		return exitUsage
	}
	opts, ok := c.goalOptions("eval", *noLLM)
	if !ok {
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := goal.Evaluate(ctx, rest[1], opts)
	if err != nil && rep == nil {
		fmt.Fprintf(c.stderr, "cogflow eval: %v\n", err)
		return exitUsage
	}
	if werr := goal.WriteTable(c.stdout, rep, *reasons); werr != nil {
		return c.readError("eval", werr)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow eval: %v\n", err)
		return exitInterrupt
	}
	if rep.Totals().Errors > 0 {
		return exitBadInput // a demonstration that could not be evaluated is not a silent row
	}
	return exitOK
}
