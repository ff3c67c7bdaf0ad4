//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/runtime/journal"
)

// The interrupt trials: the cogflow binary submits the demo site's order
// form once per name, 40 names, and is stopped at a random point — by
// SIGINT, by SIGKILL, or by SIGKILL of its Chromium — then resumed. The
// site's own record of submissions says whether every name was submitted
// exactly once. Every trial logs its seed; COGFLOW_SOAK_SEED=N replays
// one, COGFLOW_SOAK_TRIALS=N sets how many trials of each kind run (3 by
// default; `make soak` runs 20).

const soakWorkflow = `task soak "Submit the order form once for every name" {
  driver browser
  input names: text
  input form_page: url = "BASE/form"

  anchor name_box  = textbox(name: "Name")
  anchor email_box = textbox(name: "Email")

  for person in split(",", names) {
    op1 = open(form_page)
    op2 = type(name_box, person)
    op3 = type(email_box, person + "@example.org")
    op4 = click(button(name: "Submit"))
    op5 = wait("from " + person + " (")
  }
}
`

// cogflowBinary builds the command into dir (a top-level test's temporary
// folder): signals need a process of its own.
func cogflowBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "cogflow")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// soakRun is one cogflow process.
type soakRun struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	err            error
}

func startCogflow(t *testing.T, bin, dir string, args ...string) *soakRun {
	t.Helper()
	r := &soakRun{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	r.cmd.Dir = dir
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	r.cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "OPENAI_API_KEY=", "OPENAI_BASE_URL=",
		"COGFLOW_TEXT_MODEL=", "COGFLOW_ELEMENT_MODEL=")
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.err = r.cmd.Wait(); close(r.done) }()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			killTree(r.cmd.Process.Pid)
			<-r.done
		}
	})
	return r
}

// wait waits for the process and returns its exit code (-1 when a signal
// ended it).
func (r *soakRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(5 * time.Minute):
		killTree(r.cmd.Process.Pid)
		<-r.done
		t.Fatalf("cogflow did not end within 5 minutes\n%s", r.stderr.String())
	}
	var ee *exec.ExitError
	if errors.As(r.err, &ee) {
		return ee.ExitCode()
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return 0
}

// exited reports whether the process ended already.
func (r *soakRun) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// procs maps each process id to its parent and command name, from /proc.
func procs() map[int][2]string {
	out := map[int][2]string{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) > 1 {
			out[pid] = [2]string{f[1], s[open+1 : end]}
		}
	}
	return out
}

// descendants lists the processes below pid.
func descendants(pid int) []int {
	all := procs()
	var out []int
	for p := range all {
		for q := p; q > 1; {
			ppid, _ := strconv.Atoi(all[q][0])
			if ppid == pid {
				out = append(out, p)
				break
			}
			if _, ok := all[ppid]; !ok {
				break
			}
			q = ppid
		}
	}
	return out
}

// browserOf finds the Chromium browser process below cogflow's pid: a
// chromium process whose parent is not one.
func browserOf(pid int) int {
	all := procs()
	for _, p := range descendants(pid) {
		ppid, _ := strconv.Atoi(all[p][0])
		if strings.HasPrefix(all[p][1], "chrom") && !strings.HasPrefix(all[ppid][1], "chrom") {
			return p
		}
	}
	return 0
}

// killTree kills a process and everything below it: only what this test
// started.
func killTree(pid int) {
	below := descendants(pid)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	for _, p := range below {
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}

func soakTrials() int {
	if n, err := strconv.Atoi(os.Getenv("COGFLOW_SOAK_TRIALS")); err == nil && n > 0 {
		return n
	}
	return 3
}

// TestE2EInterrupts builds the command once for its two parts: the
// trials (`make soak` runs only those) and the concurrent resumes.
func TestE2EInterrupts(t *testing.T) {
	needChromium(t)
	isolateConfig(t)
	bin := cogflowBinary(t, t.TempDir())
	t.Run("trials", func(t *testing.T) { interruptTrials(t, bin) })
	t.Run("concurrent resumes", func(t *testing.T) { resumeConcurrency(t, bin) })
}

// interruptTrials runs the trials of each kind.
func interruptTrials(t *testing.T, bin string) {
	for _, kind := range []string{"sigint", "kill-cogflow", "kill-chromium"} {
		t.Run(kind, func(t *testing.T) {
			seeds := []uint64{}
			if s, err := strconv.ParseUint(os.Getenv("COGFLOW_SOAK_SEED"), 10, 64); err == nil {
				seeds = append(seeds, s)
			} else {
				for range soakTrials() {
					seeds = append(seeds, rand.Uint64()%1_000_000)
				}
			}
			var tally trialTally
			for _, seed := range seeds {
				t.Run(fmt.Sprint(seed), func(t *testing.T) {
					t.Logf("seed %d (replay: COGFLOW_SOAK_SEED=%d go test ./cmd/cogflow -run 'TestE2EInterrupts/trials/%s')", seed, seed, kind)
					interruptTrial(t, bin, kind, seed, &tally)
				})
			}
			t.Logf("%s: %s", kind, tally.String())
		})
	}
}

// trialTally counts what the trials of one kind saw, for `make soak`.
type trialTally struct {
	trials, inDoubt, skipped, redone, checked, doubled, missing int
}

func (c trialTally) String() string {
	return fmt.Sprintf("%d trials, %d left a step in doubt (%d skipped, %d redone, %d read back), %d items submitted twice, %d missing",
		c.trials, c.inDoubt, c.skipped, c.redone, c.checked, c.doubled, c.missing)
}

func interruptTrial(t *testing.T, bin, kind string, seed uint64, tally *trialTally) {
	rng := rand.New(rand.NewPCG(seed, 14))
	const items = 40
	after := 2 + rng.IntN(items-8)                           // submissions before the interrupt
	extra := time.Duration(rng.IntN(300)) * time.Millisecond // phase within an item
	policy := []string{"skip", "redo"}[rng.IntN(2)]
	// Half the trials give the policy as the submit step's in_doubt: in
	// the workflow rather than as --in-doubt.
	fromStep := rng.IntN(2) == 0
	t.Logf("interrupt after %d submissions + %v; in-doubt policy %s (in the workflow: %v)", after, extra, policy, fromStep)

	s := site.New()
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	dir := t.TempDir()
	wf := filepath.Join(dir, "soak.cog")
	src := strings.ReplaceAll(soakWorkflow, "BASE", srv.URL)
	if fromStep {
		src = strings.Replace(src, `click(button(name: "Submit"))`, `click(button(name: "Submit"), in_doubt: "`+policy+`")`, 1)
	}
	if err := os.WriteFile(wf, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	names := make([]string, items)
	for i := range names {
		names[i] = fmt.Sprintf("p%02d", i+1)
	}
	root := filepath.Join(dir, ".cogflow")
	first := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--input", "names="+strings.Join(names, ","))
	for len(s.State().Submissions) < after && !first.exited() {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(extra)
	if first.exited() {
		t.Fatalf("the run ended before it could be interrupted\n%s", first.stderr.String())
	}
	want := map[string]int{"sigint": exitInterrupt, "kill-cogflow": -1, "kill-chromium": exitGone}[kind]
	switch kind {
	case "sigint":
		_ = first.cmd.Process.Signal(syscall.SIGINT)
	case "kill-cogflow":
		killTree(first.cmd.Process.Pid) // cogflow and, as its leakless guard would, its Chromium
	case "kill-chromium":
		pid := browserOf(first.cmd.Process.Pid)
		if pid == 0 {
			t.Fatal("no Chromium process found below cogflow")
		}
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	t0 := time.Now()
	if code := first.wait(t); code != want {
		t.Fatalf("interrupted run: exit %d, want %d\n%s", code, want, first.stderr.String())
	}
	t.Logf("the interrupted run ended %v after the signal", time.Since(t0).Round(time.Millisecond))
	runs, err := journal.List(root)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	firstRun, err := journal.Load(root, runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	checkStopReport(t, kind, firstRun, first.stderr.String())

	args := []string{"run", wf, "--dir", root, "--resume"}
	if kind != "sigint" && !fromStep {
		args = append(args, "--in-doubt="+policy) // a graceful stop must need none
	}
	t0 = time.Now()
	resumed := startCogflow(t, bin, dir, args...)
	if code := resumed.wait(t); code != exitOK {
		t.Fatalf("resume: exit %d\n%s", code, resumed.stderr.String())
	}
	t.Logf("the resumed run took %v", time.Since(t0).Round(time.Millisecond))
	runs, _ = journal.List(root)
	second, err := journal.Load(root, runs[0].ID)
	if err != nil || second.Start.Resume != firstRun.ID {
		t.Fatalf("the newest run %s does not resume %s: %v", runs[0].ID, firstRun.ID, err)
	}
	if st := second.Settled; st != nil && st.Policy != "check" {
		if wantFrom := map[bool]string{true: "step", false: "flag"}[fromStep]; st.Policy != policy || st.From != wantFrom {
			t.Errorf("settled with %s from %s, want %s from %s", st.Policy, st.From, policy, wantFrom)
		}
	}
	checkSubmissions(t, kind, s.State().Submissions, names, second.Settled, tally)
	if t.Failed() {
		t.Logf("interrupted run:\n%s\nresumed run:\n%s", first.stderr.String(), resumed.stderr.String())
	}
}

// checkStopReport checks what the stopped run said and journaled.
func checkStopReport(t *testing.T, kind string, run *journal.Run, stderr string) {
	t.Helper()
	_, inDoubt := run.InDoubt()
	switch kind {
	case "sigint":
		if inDoubt {
			t.Errorf("a graceful stop left a step in doubt")
		}
		last := run.Steps[len(run.Steps)-1]
		if run.Interruption == nil || run.Interruption.Step != last.Step || run.Interruption.Line != last.Line {
			t.Errorf("interruption %+v does not name the last finished step %s (line %d)", run.Interruption, last.Step, last.Line)
		}
		if wantLine := fmt.Sprintf("the last finished step %s (line %d)", last.Step, last.Line); !strings.Contains(stderr, wantLine) {
			t.Errorf("the interrupted line does not say %q:\n%s", wantLine, stderr)
		}
	case "kill-chromium":
		if !strings.Contains(stderr, "the browser exited") {
			t.Errorf("no \"the browser exited\" in:\n%s", stderr)
		}
	}
}

// checkSubmissions holds the site's record against the rules: after a
// graceful stop every name exactly once; after a kill no name twice unless
// it was the item in doubt and redone, none missing unless it was the item
// in doubt and skipped.
func checkSubmissions(t *testing.T, kind string, subs []site.Submission, names []string, settled *journal.Settlement, tally *trialTally) {
	t.Helper()
	count := map[string]int{}
	for _, s := range subs {
		count[s.Name]++
	}
	doubtName, policy := "", ""
	if settled != nil {
		policy = settled.Policy
		if len(settled.Intent.Loop) == 1 {
			doubtName = names[settled.Intent.Loop[0].Index]
		}
		tally.inDoubt++
		switch policy {
		case "skip":
			tally.skipped++
		case "check":
			tally.checked++
		default:
			tally.redone++
		}
		t.Logf("in doubt: step %s (%s) of %q, settled by %s", settled.Intent.Step, settled.Intent.Op, doubtName, policy)
	}
	tally.trials++
	if kind == "sigint" && settled != nil {
		t.Errorf("a graceful stop left a step in doubt: %+v", settled)
	}
	for _, n := range names {
		switch c := count[n]; {
		case c == 1:
		case c == 0 && n == doubtName && policy == "skip":
			tally.missing++
		case c == 2 && n == doubtName && policy == "redo":
			tally.doubled++
		default:
			t.Errorf("%s submitted %d times (in doubt: %q, policy %q)", n, c, doubtName, policy)
		}
	}
	if len(subs) > len(names)+1 {
		t.Errorf("%d submissions for %d names", len(subs), len(names))
	}
}

// soakSetup serves a fresh demo site and writes the trial workflow for it.
func soakSetup(t *testing.T) (s *site.Site, dir, wf, root string) {
	t.Helper()
	s = site.New()
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	dir = t.TempDir()
	wf = filepath.Join(dir, "soak.cog")
	if err := os.WriteFile(wf, []byte(strings.ReplaceAll(soakWorkflow, "BASE", srv.URL)), 0o644); err != nil {
		t.Fatal(err)
	}
	return s, dir, wf, filepath.Join(dir, ".cogflow")
}

// namesFrom makes n names with a prefix: a01, a02, ….
func namesFrom(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%02d", prefix, i+1)
	}
	return out
}

// interruptAfter starts a run of names and stops it with SIGINT once k of
// them were submitted.
func interruptAfter(t *testing.T, s *site.Site, bin, dir, wf, root string, names []string, k int) {
	t.Helper()
	r := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--input", "names="+strings.Join(names, ","))
	for !r.exited() {
		n := 0
		for _, sub := range s.State().Submissions {
			if strings.HasPrefix(sub.Name, names[0][:1]) {
				n++
			}
		}
		if n >= k {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	_ = r.cmd.Process.Signal(syscall.SIGINT)
	if code := r.wait(t); code != exitInterrupt {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupt, r.stderr.String())
	}
}

// onceEach fails unless every name was submitted exactly once.
func onceEach(t *testing.T, s *site.Site, names ...string) {
	t.Helper()
	count := map[string]int{}
	for _, sub := range s.State().Submissions {
		count[sub.Name]++
	}
	for _, n := range names {
		if count[n] != 1 {
			t.Errorf("%s submitted %d times", n, count[n])
		}
	}
}

// resumeConcurrency: two resumes of one run at once (one is refused), and
// two runs of different inputs resumed at once (each takes its own).
func resumeConcurrency(t *testing.T, bin string) {
	t.Run("same run", func(t *testing.T) {
		s, dir, wf, root := soakSetup(t)
		names := namesFrom("q", 10)
		interruptAfter(t, s, bin, dir, wf, root, names, 3)
		a := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--resume")
		b := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--resume")
		codes := []int{a.wait(t), b.wait(t)}
		loser := b
		if codes[0] != exitOK {
			loser = a
		}
		if codes[0]+codes[1] != exitUsage || codes[0]*codes[1] != 0 {
			t.Fatalf("exit codes %v, want one 0 and one 2\nfirst:\n%s\nsecond:\n%s", codes, a.stderr.String(), b.stderr.String())
		}
		if msg := loser.stderr.String(); !strings.Contains(msg, "is in use") && !strings.Contains(msg, "already resumed") {
			t.Errorf("the refused resume does not say why:\n%s", msg)
		}
		onceEach(t, s, names...)
	})
	t.Run("different inputs", func(t *testing.T) {
		s, dir, wf, root := soakSetup(t)
		an, bn := namesFrom("a", 8), namesFrom("b", 8)
		interruptAfter(t, s, bin, dir, wf, root, an, 2)
		interruptAfter(t, s, bin, dir, wf, root, bn, 2)
		runs, _ := journal.List(root)
		origin := map[string]string{} // run id → its names
		for _, r := range runs {
			run, err := journal.Load(root, r.ID)
			if err != nil {
				t.Fatal(err)
			}
			origin[r.ID] = run.Start.Inputs["names"]
		}
		amb := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--resume")
		if code := amb.wait(t); code != exitUsage || !strings.Contains(amb.stderr.String(), "different inputs") {
			t.Errorf("--resume between two runs of different inputs: exit %d, want 2 naming both\n%s", code, amb.stderr.String())
		}
		a := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--resume", "--input", "names="+strings.Join(an, ","))
		b := startCogflow(t, bin, dir, "run", wf, "--dir", root, "--resume", "--input", "names="+strings.Join(bn, ","))
		if ca, cb := a.wait(t), b.wait(t); ca != exitOK || cb != exitOK {
			t.Fatalf("exit %d and %d, want 0 and 0\n%s\n%s", ca, cb, a.stderr.String(), b.stderr.String())
		}
		runs, _ = journal.List(root)
		for _, r := range runs {
			if r.Resume == "" {
				continue
			}
			run, err := journal.Load(root, r.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := run.Start.Inputs["names"], origin[r.Resume]; got != want {
				t.Errorf("run %s resumed %s with names %q, but that run had %q", r.ID, r.Resume, got, want)
			}
		}
		onceEach(t, s, append(an, bn...)...)
	})
}
