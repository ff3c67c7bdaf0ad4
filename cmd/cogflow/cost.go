package main

import (
	"fmt"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
)

// costPrice prices tokens on a model in US dollars at list price; ok is
// false when the model's price is unknown (local and unlisted models).
var costPrice = llm.Cost

func runCost(c *cli, args []string) int {
	fs := c.newFlags("cost")
	iters := runtime.Iterations{}
	fs.Var(&iters, "iterations", "loop iterations to assume: `N` for every loop, or VAR=N for the loops over VAR (repeatable)")
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
	l, err := load(files[0], checkEnv())
	if err != nil {
		return c.readError("cost", err)
	}
	if l.diags.HasErrors() {
		c.report(l)
		return exitBadInput
	}
	task, names := costTask(l.file, *taskName)
	if task == nil {
		if *taskName == "" {
			fmt.Fprintf(c.stderr, "cogflow cost: %s has no task\n", files[0])
		} else {
			fmt.Fprintf(c.stderr, "cogflow cost: %s has no task %s (tasks: %v)\n", files[0], *taskName, names)
		}
		return exitUsage
	}
	// The models only name the rows and price the calls: a bad
	// configuration is reported but does not stop the estimate.
	cfg, diags := config.Load(*dir)
	if len(diags) > 0 {
		cfg.Render(c.stderr, diags)
	}

	est := runtime.EstimateCost(l.file, l.info, task, projectKnowledge(),
		runtime.CostModels{Text: cfg.LLM.TextModel, Element: cfg.LLM.ElementModel, Price: costPrice})
	if err := est.Check(iters); err != nil {
		fmt.Fprintf(c.stderr, "cogflow cost: %v\n", err)
		return exitUsage
	}
	est.Write(c.stdout, iters)
	return exitOK
}

// costTask returns the task called name, or the first when name is "",
// and the names of all tasks.
func costTask(f *ast.File, name string) (*ast.Task, []string) {
	var task *ast.Task
	var names []string
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok {
			names = append(names, t.Name.Name)
			if task == nil && (name == "" || t.Name.Name == name) {
				task = t
			}
		}
	}
	return task, names
}
