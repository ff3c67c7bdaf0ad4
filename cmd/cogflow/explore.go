package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/explore"
	"github.com/cogflow/cogflow/runtime/knowledge"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/trace"
)

const exploreArgs = `"COMMAND" --driver browser|android [--url URL [--headed] [--browser-url ws://…] [--chrome PATH] | --app PKG [--adb HOST:PORT] [--serial S]] [--budget N] [--until TEXT] [--param name=value …] [-o FILE.trace.json] [--dir .cogflow]`

const exploreHelpText = `Explore carries out a command no one demonstrated: it ranks what the screen
offers, takes the best action, and checks whether the command is done; an
action that led nowhere is undone (the back key, Escape, clearing a field)
and the next one tried, within --budget steps. Actions that cannot be undone
(submit, send, delete, pay, …) are taken only when you answer yes.

A model ranks the actions and judges when the command is done: configure one
in cogflow.hcl or with OPENAI_API_KEY (a real model is needed for real use).
With --until TEXT the command is done when the screen shows TEXT, and without
a model the actions are ranked by the command's words alone.

What exploration learns is kept in the project's knowledge (--dir): the next
exploration of the same command replays the path found, with no model call.
The path is written as a trace (-o) that 'cogflow compile' turns into a
workflow, as it does a recorded demonstration. See docs/exploring.md.`

// exploreFlags are cogflow explore's flags.
type exploreFlags struct {
	driver, out, url, app, adb, serial *string
	browserURL, chrome, until, dir     *string
	headed                             *bool
	budget                             *int
	params                             inputFlags
}

// runExplore carries out a command by exploration and writes the trace of
// the path that reached it.
func runExplore(c *cli, args []string) int {
	fs := c.newFlags("explore")
	f := exploreFlags{
		driver:     fs.String("driver", "browser", "the driver: browser or android"),
		out:        fs.String("o", "explore.trace.json", "the trace of the path found, for cogflow compile"),
		url:        fs.String("url", "", "browser: the page to start on"),
		app:        fs.String("app", "", "android: the app to launch first (package or package/.Activity)"),
		adb:        fs.String("adb", "", "android: the adb server, HOST:PORT (default 127.0.0.1:5037)"),
		serial:     fs.String("serial", "", "android: the device's serial when several are attached"),
		browserURL: fs.String("browser-url", "", "browser: explore in a running browser (ws://… or http://host:port)"),
		chrome:     fs.String("chrome", "", "browser: the Chromium executable"),
		headed:     fs.Bool("headed", false, "browser: show the window"),
		budget:     fs.Int("budget", explore.DefaultBudget, "the most forward and back steps to take"),
		until:      fs.String("until", "", "the command is done when the screen shows this text (without it, the model judges)"),
		dir:        fs.String("dir", ".cogflow", "the project's directory, where knowledge is kept"),
		params:     inputFlags{},
	}
	fs.Var(f.params, "param", "a value the command carries, `name=value` (repeatable); typed into a field whose words name it")
	rest, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(rest) != 1 || strings.TrimSpace(rest[0]) == "" {
		fmt.Fprintln(c.stderr, `cogflow explore: give the command to carry out, in quotes: cogflow explore "import contacts from a file" --driver android`)
		return exitUsage
	}
	if *f.driver != trace.DriverBrowser && *f.driver != trace.DriverAndroid {
		fmt.Fprintf(c.stderr, "cogflow explore: --driver must be browser or android, not %q\n", *f.driver)
		return exitUsage
	}
	conf, cdiags := config.Load(".")
	if cdiags.HasErrors() {
		conf.Render(c.stderr, cdiags)
		return exitBadInput
	}
	model, err := llm.FromConfig(conf)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow explore: %v\n", err)
		return exitUsage
	}
	if model == nil && *f.until == "" {
		fmt.Fprintln(c.stderr, "cogflow explore: no model is configured (cogflow.hcl or OPENAI_API_KEY), and a model judges when the command is done; configure one, or give --until TEXT")
		return exitUsage
	}
	parent := cmp.Or[context.Context](c.ctx, context.Background())
	ctx, stop := context.WithCancel(parent)
	defer stop()
	return c.explore(ctx, rest[0], f, model, conf)
}

// explore opens the driver, explores and writes the trace.
func (c *cli) explore(ctx context.Context, command string, f exploreFlags, model llm.Client, conf *config.Config) int {
	d, err := driver.Open(ctx, *f.driver, driver.Options{Headed: *f.headed, RemoteURL: cmp.Or(*f.adb, *f.browserURL),
		Serial: *f.serial, Executable: *f.chrome})
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow explore: %v\n", err)
		if errors.Is(err, driver.ErrUnavailable) {
			return exitNoDriver
		}
		return exitStepFailed
	}
	defer d.Close()
	start, err := exploreStart(ctx, d, f)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow explore: %v\n", err)
		return exitStepFailed
	}
	k, kdiags := cogflow.ProjectKB(*f.dir) // its irreversible words
	if kdiags.HasErrors() {
		c.renderFiles(kdiags)
		return exitBadInput
	}
	mem, err := knowledge.Open(*f.dir)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow explore: knowledge: %v\n", err)
		return exitUsage
	}
	defer mem.Close()
	o := explore.Options{Budget: *f.budget, Command: command, Params: f.params, Memory: mem, Model: model,
		IrreversibleWords: k.Irreversible, Confirm: c.confirmIrreversible(), OnStep: func(s explore.Step) { fmt.Fprintf(c.stderr, "explore: %s\n", s) }}
	if model != nil {
		o.ModelName = conf.LLM.TextModel
	}
	goal := explore.Goal{Text: command}
	if *f.until != "" {
		goal.Check = screenShows(*f.until)
	}
	res, err := explore.Explore(ctx, d, goal, o)
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow explore: %v\n", err)
		if ctx.Err() != nil {
			return exitInterrupt
		}
		return exitStepFailed
	}
	tr, err := explore.TraceOf(*f.driver, start, res, f.params, nil)
	if err == nil {
		tr.Title = command // the compiled task is named after the command
		err = trace.Save(*f.out, tr)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "cogflow explore: %v\n", err)
		return exitStepFailed
	}
	how := fmt.Sprintf("explored in %d steps, %d model calls", len(res.Steps), res.ModelCalls)
	if res.Replayed {
		how = "replayed from knowledge, no model call"
	}
	fmt.Fprintf(c.stderr, "cogflow explore: done (%s); the path has %d steps; wrote %s — compile it: cogflow compile %s\n",
		how, len(res.Path), *f.out, *f.out)
	return exitOK
}

// exploreStart opens the page or launches the app the exploration starts
// from, and says so for the trace.
func exploreStart(ctx context.Context, d driver.Driver, f exploreFlags) (trace.Start, error) {
	switch {
	case *f.driver == trace.DriverBrowser && *f.url != "":
		_, err := d.Do(ctx, driver.Action{Op: action.Open, Text: *f.url})
		return trace.Start{URL: *f.url}, err
	case *f.driver == trace.DriverAndroid && *f.app != "":
		_, err := d.Do(ctx, driver.Action{Op: action.Launch, Text: *f.app})
		return trace.Start{App: *f.app}, err
	case *f.driver == trace.DriverBrowser:
		return trace.Start{}, errors.New("--url is required with the browser driver")
	}
	t, err := d.Observe(ctx)
	if err != nil {
		return trace.Start{}, err
	}
	return trace.Start{App: strings.TrimPrefix(t.URL, "android-app://")}, nil
}

// screenShows is the goal check of --until: a visible element's text or
// name contains the text. A field's text is only what was typed into it
// (exploration types the --param values): it never shows the goal.
func screenShows(text string) func(*driver.Tree) (bool, error) {
	return func(t *driver.Tree) (bool, error) {
		for _, e := range t.Elements {
			if e == nil || !e.Visible {
				continue
			}
			if !e.Editable && strings.Contains(e.Text, text) || strings.Contains(e.Name, text) {
				return true, nil
			}
		}
		return false, nil
	}
}

// confirmIrreversible is an exploration's Confirm: it asks on the
// terminal before an action exploration cannot undo; no answer is no. One
// reader serves every question, so that answers given ahead (piped) are
// not swallowed by the buffer of the first.
func (c *cli) confirmIrreversible() func(context.Context, *driver.Element, string) bool {
	in := bufio.NewReader(c.stdin)
	return func(_ context.Context, e *driver.Element, why string) bool {
		fmt.Fprintf(c.stderr, "cogflow explore: %s %q cannot be undone (%s). Take it? [y/N] ", e.Role, cmp.Or(e.Name, e.Text), why)
		line, _ := in.ReadString('\n')
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true
		}
		return false
	}
}
