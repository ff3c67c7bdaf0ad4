package main

import (
	"fmt"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
)

// costPrice prices tokens on a model in US dollars at list price; ok is
// false when the model's price is unknown (local and unlisted models).
var costPrice = llm.Cost

func runCost(c *cli, args []string) int {
	fs := c.newFlags("cost")
	iters := cogflow.Iterations{}
	fs.Var(&iters, "iterations", "loop iterations to assume: `N` for every loop, VAR=N for the loops over VAR, while=N, until=N or repeat=N for those loops instead of their bound (repeatable)")
	taskName := fs.String("task", "", "the task to estimate when the file has several (default: the first)")
	dir := fs.String("dir", ".", "the project folder whose "+config.FileName+" names the models")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "cogflow cost: give exactly one workflow file")
		return exitUsage
	}
	l, err := load(files[0])
	if err != nil {
		return c.readError("cost", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	// The models only name the rows and price the calls: a bad
	// configuration is reported but does not stop the estimate.
	cfg, diags := config.Load(*dir)
	if len(diags) > 0 {
		cfg.Render(c.stderr, diags)
	}

	est, err := l.w.Cost(*taskName, cogflow.CostModels{Text: cfg.LLM.TextModel, Element: cfg.LLM.ElementModel, Price: costPrice})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow cost: %v\n", err)
		return exitUsage
	}
	if err := est.Check(iters); err != nil {
		fmt.Fprintf(c.stderr, "cogflow cost: %v\n", err)
		return exitUsage
	}
	est.Write(c.stdout, iters)
	return exitOK
}
