package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/lang/diag"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
)

// runCompile compiles a demonstration trace into a workflow. The compiled
// original is also kept under DIR/compiled/, so that later edits can be
// told apart from what the compiler wrote.
func runCompile(c *cli, args []string) int {
	fs := c.newFlags("compile")
	out := fs.String("o", "", "the workflow file to write (default: standard output)")
	root := fs.String("dir", ".cogflow", "where the compiled original is kept and the project's knowledge.hcl is read")
	literal := fs.Bool("literal", false, "a literal replay: every typed value an input defaulting to the demonstrated one, every choice the demonstrated element; nothing read from the screen (the baseline that make eval compares against)")
	noLLM := fs.Bool("no-llm", false, "compile by rules only, even when a model is configured")
	noAPIFirst := fs.Bool("no-api-first", false, "keep the demonstrated UI steps where the api-first stage would call the application directly (a GET form typed into and submitted → open of its address)")
	explain := fs.Bool("explain", false, "print, for each value read from the screen or left to an input or a dependency, the evidence: where it was found, the consistent programs, why")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(c.stderr, "cogflow compile: give a trace (or several demonstrations of one task, to merge)")
		return exitUsage
	}
	var trs []*trace.Trace
	for _, file := range files {
		tr, err := trace.Load(file)
		if err != nil {
			trace.Diagnostics(err, file).Render(c.stderr, nil)
			return exitBadInput
		}
		trs = append(trs, tr)
	}
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(files[0]), ".json"), ".trace") + ".cog"
	if *out != "" {
		name = filepath.Base(*out)
	}
	k, kdiags := cogflow.ProjectKB(*root) // what reflect learned shapes the extractor's prompt
	if kdiags.HasErrors() {
		c.renderFiles(kdiags)
		return exitBadInput
	}
	opts := compiler.Options{Filename: name, Trace: files[0], Traces: files, KB: k, Literal: *literal, NoAPIFirst: *noAPIFirst}
	if !*noLLM {
		conf, cdiags := config.Load(".")
		if cdiags.HasErrors() {
			conf.Render(c.stderr, cdiags)
			return exitBadInput
		}
		client, err := llm.FromConfig(conf)
		if err != nil {
			fmt.Fprintf(c.stderr, "cogflow compile: %v\n", err)
			return exitUsage
		}
		if client != nil {
			opts.LLM, opts.Model = client, conf.LLM.TextModel
		}
	}
	res, err := compiler.CompileAll(trs, opts) // one trace: Compile; several: merged (compiler/merge.go)
	if err != nil {
		diag.FromError(err).Render(c.stderr, nil)
		return exitBadInput
	}
	res.Warnings.Render(c.stderr, nil)
	if *explain {
		fmt.Fprintf(c.stderr, "cogflow compile: evidence for %d values:\n", len(res.Evidence))
		for _, e := range res.Evidence {
			fmt.Fprint(c.stderr, e.String())
		}
	}
	if err := os.MkdirAll(filepath.Join(*root, "compiled"), 0o755); err == nil {
		err = writeNew(filepath.Join(*root, "compiled", name), res.Source)
		if err != nil {
			fmt.Fprintf(c.stderr, "cogflow compile: keeping the compiled original: %v\n", err)
		}
	}
	if *out == "" {
		c.stdout.Write(res.Source)
		return exitOK
	}
	if err := writeNew(*out, res.Source); err != nil {
		return c.readError("compile", err)
	}
	fmt.Fprintf(c.stderr, "cogflow compile: wrote %s (%d warnings)\n", *out, len(res.Warnings))
	return exitOK
}

// writeNew writes a file whole through a temporary file and a rename.
func writeNew(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
