// Command cogflow is the one command-line tool of cogflow: it checks,
// formats, draws, records, compiles, estimates and runs workflow files.
// It parses flags, calls the library (package cogflow at the module root,
// and the packages it wires together) and prints; the workflow logic lives
// there, not here.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit codes. Scripts and CI tell outcomes apart by them.
const (
	exitOK         = 0
	exitBadInput   = 1 // the workflow has errors, or fmt -l found unformatted files
	exitUsage      = 2 // the command line is wrong, or a file cannot be read
	exitStepFailed = 3 // reserved for run: a step failed
	exitNoDriver   = 4 // reserved for run: the driver cannot run here
	exitGone       = 5 // run: the browser exited or the device went away during the run
	exitInterrupt  = 130
)

// command is one subcommand.
type command struct {
	name    string
	args    string // synopsis of the arguments
	summary string
	run     func(ctx *cli, args []string) int
	// long, when set, is printed by --help after the summary.
	long string
}

// cli carries the streams so that tests run commands in process.
type cli struct {
	stdout, stderr io.Writer
	stdin          io.Reader
	// ctx, when set, replaces the Ctrl-C context of run: tests cancel it
	// to interrupt a run the way a person would.
	ctx context.Context
}

var commands []*command

func init() {
	commands = []*command{
		{name: "check", args: "FILE… [-q]", summary: "check workflows for errors and warnings", run: runCheck},
		{name: "fmt", args: "[-w|-l|-d] FILE…", summary: "format workflows in the canonical layout", run: runFmt},
		{name: "graph", args: "FILE [--format dot|mermaid|html] [--task NAME] [--run ID] [--dir .cogflow] [-o FILE]", summary: "draw a workflow's steps and dependencies (html: one self-contained page; --run: what a run did)", run: runGraph},
		{name: "demo", args: demoArgs, summary: demoSummary, run: runDemo, long: demoHelpText},
		{name: "compile", args: "TRACE.json [MORE.trace.json …] [-o FILE.cog] [--no-llm] [--literal] [--no-api-first] [--explain] [--dir .cogflow]", summary: "compile a demonstration trace (or several of one task, merged) into a workflow", run: runCompile},
		{name: "explore", args: exploreArgs, summary: "carry out a command no one demonstrated, by exploring the app, and write the path as a trace", run: runExplore, long: exploreHelpText},
		{name: "import", args: "RECORDING.json [-o FILE.trace.json]", summary: "convert a Chrome DevTools Recorder recording into a trace", run: runImport},
		{name: "record", args: "--url URL [-o FILE.trace.json] [--headless] [--browser-url ws://…] [--chrome PATH] [--stop-chord Ctrl+Shift+X] [--no-api-first] | --driver android [--app PKG/.ACTIVITY] [--adb HOST:PORT] [--serial S] | --driver uia [--app PROGRAM]", summary: "record a demonstration in the browser, on an Android device or on the Windows desktop", run: runRecord},
		{name: "run", args: "FILE [--task NAME] [--input k=v …] [--input-env k=VAR …] [--input-file k=PATH|- …] [--inputs rows.csv [--parallel N [--isolate worker|row]]] [--resume-batch ID] [--dry-run] [--step] [--yes] [--ask] [--screenshots] [--headed] [--browser-url ws://…] [--chrome PATH] [--adb HOST:PORT] [--serial S] [--resume|--resume-from ID] [--in-doubt ask|skip|redo] [--dir .cogflow] [--no-cache|--refresh] [--heal] [--report FILE.xml|FILE.html] [--report-format junit|html]", summary: "run a workflow", run: runRun, long: runHelpText},
		{name: "report", args: reportArgs, summary: "write the JUnit XML or self-contained HTML report of runs and batches", run: runReport, long: reportHelpText},
		{name: "runs", args: "[show ID|BATCH] [--failed] [--since DURATION|DATE] [--workflow PATH] [--dir .cogflow]", summary: "list past runs (filtered) and batches, or show one from its journal", run: runRuns},
		{name: "worker", args: workerArgs, summary: "serve batches submitted to Temporal: run their rows in browsers, journaled in --dir", run: runWorker},
		{name: "submit", args: submitArgs, summary: "run a batch of rows on Temporal workers; prints the batch id", run: runSubmit},
		{name: "cancel", args: "BATCH [--dir .cogflow] [--temporal HOST:PORT] [--namespace NS] " + temporalConnArgs, summary: "stop a Temporal batch: its rows stop between steps", run: runCancel},
		{name: "config", args: "[--dir DIR]", summary: "print the effective configuration, the API key masked", run: runConfigCmd},
		{name: "kb", args: "init|list|show NAME|validate [FILE] [--dir .cogflow] [--force]", summary: "manage the project's knowledge base of cognitive dependencies", run: runKB},
		{name: "skills", args: skillsArgs, summary: "discover and validate the project's skills by exploring a site; list, show and re-validate them", run: runSkills, long: skillsHelpText},
		{name: "knowledge", args: knowledgeArgs, summary: knowledgeSummary, run: runKnowledge, long: knowledgeHelpText},
		{name: "goal", args: goalArgs, summary: "infer the goal of a demonstration: its sentence and parameters (rules only without a model)", run: runGoal},
		{name: "judge", args: judgeArgs, summary: "judge whether two goal descriptions, each with its trajectory, mean the same task (match, partial, no)", run: runJudge},
		{name: "eval", args: evalArgs, summary: "evaluate goal inference over a folder of demonstrations with reference goals", run: runEval, long: evalHelpText},
		{name: "reflect", args: "FILE.cog [--against REV] [--apply] [--dry-run] [--dir .cogflow]", summary: "learn from edited dependencies: propose knowledge base updates", run: runReflect},
		{name: "cost", args: "FILE [--iterations N] [--task NAME] [--dir DIR]", summary: "estimate the LLM calls, tokens and cost of a run", run: runCost},
		{name: "lsp", args: "[--stdio]", summary: "serve the Language Server Protocol on stdin/stdout, for editors", run: runLSP},
		{name: "version", summary: "print the version", run: runVersion},
		{name: "help", args: "[COMMAND]", summary: "show help for a command", run: runHelp},
	}
}

func main() {
	c := &cli{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}
	os.Exit(c.main(os.Args[1:]))
}

func (c *cli) main(args []string) int {
	if len(args) == 0 {
		c.usage(c.stderr)
		return exitUsage
	}
	name := args[0]
	if name == "-h" || name == "--help" || name == "-help" {
		c.usage(c.stdout)
		return exitOK
	}
	for _, cmd := range commands {
		if cmd.name == name {
			return cmd.run(c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "cogflow: unknown command %q\n\n", name)
	c.usage(c.stderr)
	return exitUsage
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintln(w, "cogflow turns one demonstration of a GUI task into a workflow you can read, edit and run.")
	fmt.Fprintln(w, "\nUsage: cogflow COMMAND [ARGS]\n\nCommands:")
	names := make([]string, 0, len(commands))
	byName := map[string]*command{}
	for _, cmd := range commands {
		names = append(names, cmd.name)
		byName[cmd.name] = cmd
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-9s %s\n", n, byName[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'cogflow help COMMAND' or 'cogflow COMMAND --help' for a command's options.")
}

func runHelp(c *cli, args []string) int {
	args, code, ok := c.parseArgs(c.newFlags("help"), args)
	if !ok {
		return code
	}
	if len(args) == 0 {
		c.usage(c.stdout)
		return exitOK
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, []string{"--help"})
		}
	}
	fmt.Fprintf(c.stderr, "cogflow help: unknown command %q\n", args[0])
	return exitUsage
}

// newFlags makes a flag set for a subcommand whose --help prints the
// synopsis and the flags to stdout.
func (c *cli) newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("cogflow "+name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var cmd *command
	for _, x := range commands {
		if x.name == name {
			cmd = x
		}
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n%s.\n", strings.TrimSpace("cogflow "+cmd.name+" "+cmd.args), capitalize(cmd.summary))
		if cmd.long != "" {
			fmt.Fprintf(fs.Output(), "\n%s", cmd.long)
		}
		var hasFlags bool
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(fs.Output(), "\nOptions:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseArgs parses flags that may stand before, between or after the
// positional arguments, as people type them: `graph FILE --format dot`.
// It returns the positional arguments, or an exit code when parsing ended
// the command (help shown, or a bad flag).
func (c *cli) parseArgs(fs *flag.FlagSet, args []string) ([]string, int, bool) {
	// The flag package prints the usage itself, on its output (stderr),
	// both for -h and for a bad flag; print it here instead, once, on the
	// stream that fits.
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(c.stdout)
				usage()
				return nil, exitOK, false
			}
			usage()
			return nil, exitUsage, false
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, 0, true
		}
		// A "--" ends the flags: everything after it is positional.
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), 0, true
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
