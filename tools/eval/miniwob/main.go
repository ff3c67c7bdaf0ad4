// Command miniwob measures same-seed replay on the MiniWoB++ task pages:
// for each task a scripted person solves one seeded instance while
// `cogflow record` records it in a shared headless Chromium, the trace is
// compiled with `cogflow compile --no-llm` and replayed with `cogflow run`
// on the same seed (or -replay-seed), and a table shows the rewards.
//
//	go run ./tools/eval/miniwob [-tasks a,b] [-seed S] [-replay-seed R]
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
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
)

func main() {
	os.Exit(run())
}

func run() int {
	tasksFlag := flag.String("tasks", "", "comma-separated tasks to run (default: all scripted tasks)")
	seed := flag.String("seed", "1", "the seed of the demonstrated instance")
	replaySeed := flag.String("replay-seed", "", "the seed the workflow is replayed on (default: -seed; another seed tries a fresh instance)")
	fixtures := flag.String("fixtures", "", "the MiniWoB++ html folder (default $COGFLOW_FIXTURES/miniwob/html or ../shared/fixtures/miniwob/html)")
	outDir := flag.String("out", "", "where traces, workflows and journals are kept (default: a new temporary folder)")
	chrome := flag.String("chrome", "", "the Chromium to start (default $COGFLOW_CHROME, /usr/bin/chromium)")
	verbose := flag.Bool("v", false, "print the output of every cogflow command")
	flag.Parse()
	if *replaySeed == "" {
		*replaySeed = *seed
	}
	for _, s := range []string{*seed, *replaySeed} {
		// The seed goes into URLs and is replaced in the workflow's text.
		if !seedName.MatchString(s) {
			return fail(fmt.Errorf("seed %q: use letters, digits, - and _", s))
		}
	}
	start := time.Now()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	root, err := repoRoot()
	if err != nil {
		return fail(err)
	}
	names, err := selectTasks(*tasksFlag)
	if err != nil {
		return fail(err)
	}
	html := fixtureDir(root, *fixtures)
	srv, err := startServer(html)
	if err != nil {
		return fail(err)
	}
	defer srv.close()

	bin := filepath.Join(root, "bin", "cogflow")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/cogflow")
	build.Dir, build.Stdout, build.Stderr = root, os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fail(fmt.Errorf("building cogflow: %w", err))
	}
	if *outDir == "" {
		if *outDir, err = os.MkdirTemp("", "cogflow-eval-miniwob-"); err != nil {
			return fail(err)
		}
	}

	l, wsURL, err := launchChromium(ctx, *chrome, *outDir)
	if err != nil {
		return fail(err)
	}
	defer l.Cleanup()
	defer l.Kill()
	b := rod.New().Context(ctx).ControlURL(wsURL)
	if err := b.Connect(); err != nil {
		return fail(fmt.Errorf("connecting to Chromium: %w", err))
	}
	e := &env{bin: bin, srv: srv, browserURL: wsURL, b: b, out: *outDir, seed: *seed, replaySeed: *replaySeed, verbose: *verbose}

	fmt.Printf("MiniWoB++ same-seed replay: %d tasks, demo seed %s, replay seed %s, pages %s, files in %s\n",
		len(names), *seed, *replaySeed, html, *outDir)
	var results []result
	for _, name := range names {
		if ctx.Err() != nil {
			break
		}
		r := e.episode(ctx, name, scripts[name])
		fmt.Printf("  %-24s demo %-5s replay %-5s %s\n", name, rewardText(r.demo), rewardText(r.replay), oneLine(r.step, r.message, 120))
		results = append(results, r)
	}
	printTable(os.Stdout, results, time.Since(start))
	return 0
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
