// Command apifirst measures what the compiler's api-first stage buys (issue
// 19's acceptance): the keyword example is demonstrated once on the demo
// site (examples/site) — search the wiki for a keyword, open the result,
// add a line to the notes — by a scripted person while the browser
// recorder records; the trace is compiled twice, with the api-first stage
// (typing the keyword and pressing Enter in the GET search form becomes
// open(…/wiki?q= + urlquery(keyword))) and with --no-api-first; then both
// workflows run interleaved in one headless Chromium, each run on a reset
// site, and the table gives the median wall time each way, their ratio,
// the steps each way and whether the site ended in the same state.
//
// It is run by `make eval-apifirst`, never by `make test`.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow"
	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

func main() {
	runs := flag.Int("runs", 7, "runs of each workflow (interleaved)")
	keyword := flag.String("keyword", "Mount Kenya", "the keyword the runs search for")
	chrome := flag.String("chrome", "", "the Chromium executable (default: $COGFLOW_CHROME, /usr/bin/chromium)")
	keep := flag.String("keep", "", "a folder to keep the trace and both workflows in")
	flag.Parse()
	if *runs < 2 {
		fmt.Fprintln(os.Stderr, "eval-apifirst: -runs must be at least 2 (the time of the steps that differ needs the other way's first run)")
		os.Exit(2)
	}
	if err := run(*runs, *keyword, *chrome, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "eval-apifirst:", err)
		os.Exit(1)
	}
}

// way is one compilation of the demonstration and its runs.
type way struct {
	name  string
	w     *cogflow.Workflow
	input string // the keyword's input
	src   []byte
	times []time.Duration
	steps []int
	state []site.State
	// form is, per run, the time of the steps that differ between the
	// ways (the form's typing and submission, or the one open).
	form []time.Duration
	ops  map[string]string // step name → its operation, from the runs
	// per are each step's times, order the step names as first seen.
	per   map[string][]time.Duration
	order []string
}

// stepTimes is an Observer that keeps each step's operation and duration.
type stepTimes struct {
	op   map[string]string
	took map[string]time.Duration
}

func (o *stepTimes) Step(r runtime.StepReport) {
	o.op[r.Step], o.took[r.Step] = r.Op, o.took[r.Step]+r.Duration
}
func (o *stepTimes) IterationDone([]runtime.LoopPos) {}
func (o *stepTimes) Interrupted(runtime.Position)    {}

func run(runs int, keyword, chrome, keep string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s := site.New()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()

	sess, err := newSession(ctx, chrome)
	if err != nil {
		return err
	}
	defer sess.close()
	tr, err := sess.demonstrate(ctx, srv.URL)
	if err != nil {
		return fmt.Errorf("demonstration: %w", err)
	}
	ways := []*way{{name: "api-first"}, {name: "ui (--no-api-first)"}}
	for i, w := range ways {
		res, err := cogflow.Compile(tr, cogflow.CompileOptions{Filename: "keyword.cog", Trace: "keyword.trace.json", NoAPIFirst: i == 1})
		if err != nil {
			return fmt.Errorf("compile %s: %w", w.name, err)
		}
		wf, diags := cogflow.LoadSource("keyword.cog", res.Source, cogflow.Options{})
		if diags.HasErrors() {
			return fmt.Errorf("load %s: %v", w.name, diags.Err())
		}
		w.w, w.src = wf, res.Source
		if w.input = inputWithDefault(string(res.Source), "Kilimanjaro"); w.input == "" {
			return fmt.Errorf("%s: the typed keyword is not an input:\n%s", w.name, res.Source)
		}
	}
	if keep != "" {
		if err := keepFiles(keep, tr, ways); err != nil {
			return err
		}
	}
	if string(ways[0].src) == string(ways[1].src) {
		return fmt.Errorf("the api-first stage did not change the workflow:\n%s", ways[0].src)
	}

	// Interleaved, the order alternating, so that drift (a warming cache, a
	// busy machine) weighs on both ways alike.
	for r := 0; r < runs; r++ {
		order := []*way{ways[0], ways[1]}
		if r%2 == 1 {
			order[0], order[1] = order[1], order[0]
		}
		for _, w := range order {
			s.Reset()
			obs := &stepTimes{op: map[string]string{}, took: map[string]time.Duration{}}
			start := time.Now()
			res, err := w.w.Run(ctx, cogflow.RunOptions{Driver: sess.d, Inputs: map[string]string{w.input: keyword}, Yes: true, Observer: obs})
			if err != nil {
				return fmt.Errorf("run %d, %s: %w", r+1, w.name, err)
			}
			w.times = append(w.times, time.Since(start))
			w.steps = append(w.steps, res.Stats.Steps)
			w.state = append(w.state, s.State())
			if d, ok := differing(obs, ways, w); ok {
				w.form = append(w.form, d)
			}
			w.ops = obs.op
			if w.per == nil {
				w.per = map[string][]time.Duration{}
			}
			for name, d := range obs.took {
				if w.per[name] == nil {
					w.order = append(w.order, name)
				}
				w.per[name] = append(w.per[name], d)
			}
		}
	}
	report(os.Stdout, runs, keyword, ways)
	return nil
}

// differing sums the time of the run's steps that the other way does not
// has (the same name doing the same operation: the replaced steps and
// the open that replaced them); false before the other way has run once.
func differing(o *stepTimes, ways []*way, w *way) (time.Duration, bool) {
	other := ways[0]
	if other == w {
		other = ways[1]
	}
	if other.ops == nil {
		return 0, false
	}
	var d time.Duration
	for name, op := range o.op {
		if other.ops[name] != op {
			d += o.took[name]
		}
	}
	return d, true
}

// inputWithDefault finds the input whose default is value in a workflow's
// source.
func inputWithDefault(src, value string) string {
	for _, line := range strings.Split(src, "\n") {
		f := strings.Fields(strings.TrimSpace(line))
		if len(f) >= 2 && f[0] == "input" && strings.Contains(line, `"`+value+`"`) {
			return strings.TrimSuffix(f[1], ":")
		}
	}
	return ""
}

// keepFiles writes the trace and both workflows into dir.
func keepFiles(dir string, tr *trace.Trace, ways []*way) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := trace.Save(filepath.Join(dir, "keyword.trace.json"), tr); err != nil {
		return err
	}
	for i, w := range ways {
		name := []string{"api-first.cog", "ui.cog"}[i]
		if err := os.WriteFile(filepath.Join(dir, name), w.src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// median is 0 for no values.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// report prints the table.
func report(out *os.File, runs int, keyword string, ways []*way) {
	api, ui := ways[0], ways[1]
	same := true
	var diffs []string
	for i := range api.state {
		for _, other := range []site.State{ui.state[i], api.state[0]} {
			if d := site.Diff(other, api.state[i]); len(d) > 0 {
				same = false
				diffs = append(diffs, d...)
			}
		}
	}
	ma, mu := median(api.times), median(ui.times)
	fmt.Fprintf(out, "api-first on the keyword demonstration (demo site, keyword %q, %d runs each, interleaved)\n\n", keyword, runs)
	fmt.Fprintf(out, "| way | runs | median wall time | steps |\n|---|---|---|---|\n")
	for _, w := range ways {
		fmt.Fprintf(out, "| %s | %d | %s | %d |\n", w.name, len(w.times), median(w.times).Round(time.Millisecond), w.steps[0])
	}
	fmt.Fprintf(out, "\nratio (api-first / ui): %.2f\n", float64(ma)/float64(mu))
	fa, fu := median(api.form), median(ui.form)
	fmt.Fprintf(out, "the steps that differ (the form's typing and submission, or the open): median %s api-first, %s ui, ratio %.2f\n",
		fa.Round(time.Millisecond), fu.Round(time.Millisecond), float64(fa)/float64(fu))
	fmt.Fprintf(out, "steps saved: %d (%d → %d)\n", ui.steps[0]-api.steps[0], ui.steps[0], api.steps[0])
	fmt.Fprintf(out, "final state equal: %v\n", same)
	for _, d := range diffs {
		fmt.Fprintln(out, "  differs:", d)
	}
	fmt.Fprintf(out, "\nall wall times: api-first %v; ui %v\n", rounded(api.times), rounded(ui.times))
	for _, w := range ways {
		sort.Slice(w.order, func(i, j int) bool { return stepNum(w.order[i]) < stepNum(w.order[j]) })
		fmt.Fprintf(out, "median step times, %s:", w.name)
		for _, name := range w.order {
			fmt.Fprintf(out, " %s %s %s;", name, w.ops[name], median(w.per[name]).Round(time.Millisecond))
		}
		fmt.Fprintln(out)
	}
}

// stepNum orders op2 before op10.
func stepNum(name string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(name, "op"))
	return n
}

func rounded(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(time.Millisecond)
	}
	return out
}

// driverOptions are the options the shared browser is started with.
func driverOptions(chrome, remote string) driver.Options {
	return driver.Options{Executable: chrome, RemoteURL: remote, ActionTimeout: 10 * time.Second}
}
