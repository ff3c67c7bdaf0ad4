// Command miniwob measures demonstrations of the MiniWoB++ task pages.
// For each task a scripted person solves one seeded instance while
// `cogflow record` records it in a shared headless Chromium, and the
// trace is compiled with `cogflow compile --no-llm`. Then:
//
//	go run ./tools/eval/miniwob [replay] [-tasks a,b] [-seed S] [-replay-seed R]
//
// replays the workflow once, on the same seed (or R), and shows the
// rewards (`make eval-replay-miniwob`);
//
//	go run ./tools/eval/miniwob eval [-tasks a,b] [-seed A] [-fresh N] [-parallel P]
//
// runs the workflow and a literal replay (`compile --literal`) of the same
// demonstration on N fresh seeds, and shows per task its kind, both
// success rates and how the compiled steps are answered (`make eval`).
//
//	go run ./tools/eval/miniwob goals [-tasks a,b] [-seed A] [-model]
//
// records one demonstration per task and writes a goal evaluation folder
// (the instruction is the reference goal, masked in the trace before
// inferring), adds the project's own demonstrations, and runs `cogflow
// eval goals` on it (`make eval-goals`; goals.go).
//
// The pages are third-party fixtures read from ../shared/fixtures/miniwob
// (or $COGFLOW_FIXTURES/miniwob), never copied into the repository.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

// options are the flags of both modes.
type options struct {
	mode       string // "replay" or "eval"
	tasks      string
	seed       string
	replaySeed string
	fresh      int
	parallel   int
	demos      string // -demos: a number or "auto"
	fixtures   string
	out        string
	chrome     string
	verbose    bool
	model      bool // goals: `cogflow eval goals` may use the configured model
}

// parseOptions reads the mode (the first argument, "replay" when absent)
// and its flags.
func parseOptions(args []string) (options, error) {
	o := options{mode: "replay"}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		o.mode, args = args[0], args[1:]
	}
	if o.mode != "replay" && o.mode != "eval" && o.mode != "goals" {
		return o, fmt.Errorf("unknown mode %q: use replay, eval or goals", o.mode)
	}
	fs := flag.NewFlagSet("miniwob "+o.mode, flag.ContinueOnError)
	fs.StringVar(&o.tasks, "tasks", "", "comma-separated tasks to run (default: all scripted tasks)")
	fs.StringVar(&o.seed, "seed", "1", "the seed of the demonstrated instance")
	switch o.mode {
	case "goals":
		fs.BoolVar(&o.model, "model", false, "let cogflow eval goals use the configured model (default: rules only; the demonstrations never use one)")
	case "replay":
		fs.StringVar(&o.replaySeed, "replay-seed", "", "the seed the workflow is replayed on (default: -seed; another seed tries a fresh instance)")
	default:
		fs.IntVar(&o.fresh, "fresh", 10, "how many fresh seeds (-seed with -1, -2 … appended) each workflow is run on")
		fs.StringVar(&o.demos, "demos", "auto", "demonstrations per task, merged into one workflow: a number, or auto (one per kind of instance for the kind-4 tasks, else 1)")
		fs.IntVar(&o.parallel, "parallel", 2, "how many runs at a time, each in a browser context of its own (2 cores: 2 is about 25% faster than 1)")
	}
	fs.StringVar(&o.fixtures, "fixtures", "", "the MiniWoB++ html folder (default $COGFLOW_FIXTURES/miniwob/html or ../shared/fixtures/miniwob/html)")
	fs.StringVar(&o.out, "out", "", "where traces, workflows and journals are kept (default: a new temporary folder)")
	fs.StringVar(&o.chrome, "chrome", "", "the Chromium to start (default $COGFLOW_CHROME, /usr/bin/chromium)")
	fs.BoolVar(&o.verbose, "v", false, "print the output of every cogflow command")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.replaySeed == "" {
		o.replaySeed = o.seed
	}
	for _, s := range []string{o.seed, o.replaySeed} {
		// The seed goes into URLs and is replaced in the workflow's text.
		if !seedName.MatchString(s) {
			return o, fmt.Errorf("seed %q: use letters, digits, - and _", s)
		}
	}
	if o.mode == "eval" && (o.fresh < 1 || o.parallel < 1) {
		return o, fmt.Errorf("-fresh and -parallel must be at least 1")
	}
	if o.mode == "eval" {
		if _, err := wantDemos(o.demos, ""); err != nil {
			return o, err
		}
	}
	return o, nil
}

func run(args []string) int {
	o, err := parseOptions(args)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root, err := repoRoot()
	if err != nil {
		return fail(err)
	}
	names, err := selectTasks(o.tasks)
	if err != nil {
		return fail(err)
	}
	html := fixtureDir(root, o.fixtures)
	var kinds map[string]int
	if o.mode == "eval" {
		if kinds, err = readKinds(html, scriptNames()); err != nil {
			return fail(fmt.Errorf("the kinds of task: %w", err))
		}
	}
	srv, err := startServer(html)
	if err != nil {
		return fail(err)
	}
	defer srv.close()
	e, cleanup, err := setup(ctx, root, o, srv)
	if err != nil {
		return fail(err)
	}
	defer cleanup()

	if o.mode == "goals" {
		fmt.Printf("MiniWoB++ goal evaluation: %d tasks, demo seed %s, pages %s, files in %s\n", len(names), o.seed, html, e.out)
		if err := e.goalsAll(ctx, os.Stdout, root, names, o.seed, o.model); err != nil && ctx.Err() == nil {
			return fail(err)
		}
	} else if o.mode == "eval" {
		fresh := freshSeeds(o.seed, o.fresh)
		fmt.Printf("MiniWoB++ fresh-seed evaluation: %d tasks, demo seed %s, fresh seeds %s … %s, %d run(s) at a time, pages %s, files in %s\n",
			len(names), o.seed, fresh[0], fresh[len(fresh)-1], o.parallel, html, e.out)
		e.demos = o.demos
		e.evalAll(ctx, os.Stdout, names, kinds, o.seed, fresh, o.parallel)
	} else {
		fmt.Printf("MiniWoB++ replay: %d tasks, demo seed %s, replay seed %s, pages %s, files in %s\n",
			len(names), o.seed, o.replaySeed, html, e.out)
		e.replayAll(ctx, os.Stdout, names, o.seed, o.replaySeed)
	}
	if ctx.Err() != nil {
		fmt.Fprintln(os.Stderr, "miniwob: interrupted")
		return 130
	}
	return 0
}

// setup makes the output folder, builds the CLI into it and starts the
// shared Chromium; cleanup kills Chromium.
func setup(ctx context.Context, root string, o options, srv *server) (*env, func(), error) {
	out := o.out
	var err error
	if out == "" {
		out, err = os.MkdirTemp("", "cogflow-eval-miniwob-")
	} else {
		out, err = filepath.Abs(out)
	}
	if err == nil {
		err = os.MkdirAll(filepath.Join(out, "config"), 0o755)
	}
	if err != nil {
		return nil, nil, err
	}
	// The CLI is built into the output folder: every process of this
	// measurement runs the same binary, whatever is built meanwhile.
	bin := filepath.Join(out, "cogflow")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/cogflow")
	build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return nil, nil, fmt.Errorf("building cogflow: %w", err)
	}
	l, wsURL, err := launchChromium(ctx, o.chrome, out)
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { l.Kill(); l.Cleanup() }
	b := rod.New().Context(ctx).ControlURL(wsURL)
	if err := b.Connect(); err != nil {
		cleanup()
		return nil, nil, fmt.Errorf("connecting to Chromium: %w", err)
	}
	e := &env{bin: bin, srv: srv, browserURL: wsURL, b: b, out: out, verbose: o.verbose,
		cliEnv: noModelEnv(filepath.Join(out, "config"))}
	return e, cleanup, nil
}

// launchChromium starts the one headless Chromium every episode shares.
func launchChromium(ctx context.Context, bin, dir string) (*launcher.Launcher, string, error) {
	if bin == "" {
		bin = os.Getenv("COGFLOW_CHROME")
	}
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		return nil, "", fmt.Errorf("no Chromium at %s (set -chrome or $COGFLOW_CHROME)", bin)
	}
	l := launcher.New().Context(ctx).Bin(bin).Leakless(false).Headless(true).NoSandbox(true).
		UserDataDir(filepath.Join(dir, "chromium-profile")).
		Set("disable-background-networking").Set("disable-component-update").
		Set("disable-gpu").Set("no-first-run").Set("window-size", "1280,900")
	u, err := l.Launch()
	if err != nil {
		return nil, "", fmt.Errorf("starting Chromium: %w", err)
	}
	return l, u, nil
}

// scriptNames is the set of tasks the harness has a person for.
func scriptNames() map[string]bool {
	names := map[string]bool{}
	for n := range scripts {
		names[n] = true
	}
	return names
}

// selectTasks returns the tasks to run, in name order.
func selectTasks(list string) ([]string, error) {
	if list == "" {
		var all []string
		for n := range scripts {
			all = append(all, n)
		}
		sort.Strings(all)
		return all, nil
	}
	var out []string
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if _, ok := scripts[n]; !ok {
			return nil, fmt.Errorf("no scripted demonstration for task %q", n)
		}
		out = append(out, n)
	}
	return out, nil
}

// fixtureDir is -fixtures, else $COGFLOW_FIXTURES/miniwob/html, else
// ../shared/fixtures/miniwob/html relative to the repository.
func fixtureDir(root, flagged string) string {
	if flagged != "" {
		return flagged
	}
	if f := os.Getenv("COGFLOW_FIXTURES"); f != "" {
		return filepath.Join(f, "miniwob", "html")
	}
	return filepath.Join(root, "..", "shared", "fixtures", "miniwob", "html")
}

// repoRoot is the folder holding go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the cogflow repository (no go.mod above the working directory)")
		}
		dir = parent
	}
}

var seedName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func fail(err error) int {
	fmt.Fprintf(os.Stderr, "miniwob: %v\n", err)
	return 2
}
