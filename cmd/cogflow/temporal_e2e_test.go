//go:build unix

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/journal"
)

// The Temporal end-to-end test: a real Temporal dev server (the temporal
// CLI that tools/install-temporal.sh builds), two `cogflow worker`
// processes with real headless Chromium, a 40-row batch from `cogflow
// submit` against the demo site's entry forms, one worker killed with
// SIGKILL in the middle of a row.

// temporalVersion is the Temporal CLI the tests run; the Makefile builds
// it into the cache by this version.
const temporalVersion = "v1.5.1"

// temporalCLI finds the temporal binary: $COGFLOW_TEMPORAL, else the
// cache tools/install-temporal.sh fills. Under CI a missing one fails.
func temporalCLI(t *testing.T) string {
	t.Helper()
	path := os.Getenv("COGFLOW_TEMPORAL")
	if path == "" {
		cache, err := os.UserCacheDir()
		if err == nil {
			path = filepath.Join(cache, "cogflow", "temporal-"+temporalVersion, "temporal")
		}
	}
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the Temporal CLI is not at %q; make test builds it (tools/install-temporal.sh)", path)
		}
		t.Skipf("the Temporal CLI is not installed (tools/install-temporal.sh builds it): %v", err)
	}
	return path
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// proc is a process the test started; stop kills it and its children
// (a worker's Chromiums) and waits.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func (p *proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func startProc(t *testing.T, env []string, name string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(name, args...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p, p
	// A process group of its own, so that stopping it reaches the
	// Chromiums it started too.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.kill(syscall.SIGKILL) })
	return p
}

// kill signals the process's whole group and waits for the process, then
// kills the groups its children lead (Chromium runs in a group of its
// own) so that nothing outlives the test.
func (p *proc) kill(sig syscall.Signal) {
	children := descendants(p.cmd.Process.Pid) // interrupt_e2e_test.go
	defer func() {
		for _, c := range children {
			_ = syscall.Kill(-c, syscall.SIGKILL)
			_ = syscall.Kill(c, syscall.SIGKILL)
		}
	}()
	_ = syscall.Kill(-p.cmd.Process.Pid, sig)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
	// Its group's stragglers (a browser that outlived it).
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
}

const entryWorkflow = `task enter "Submit one entry" {
  driver browser
  input site: url = "http://127.0.0.1:8088"
  input n: text
  input code: text
  input pin: secret

  op1 = open(site + "/entries/" + n)
  op2 = type(textbox(name: "Code"), code)
  op3 = type(textbox(name: "PIN"), pin)
  op4 = click(button(name: "Submit"))
  op5 = wait("Entry " + n + " received")
}
`

// cluster is what a Temporal test runs against: a dev server, the demo
// site, the cogflow binary, a payload key and a shared journal folder.
type cluster struct {
	t                          *testing.T
	tcli, bin, addr, dir, root string
	base                       string
	site                       *site.Site
	env                        []string
	keyTag                     string
	server                     *proc
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	needChromium(t)
	c := &cluster{t: t, tcli: temporalCLI(t), dir: t.TempDir()}
	c.bin = cogflowBinary(t, c.dir) // before demo: it gives the test a HOME of its own, without the Go caches
	c.site, c.base = demo(t)
	port := freePort(t)
	c.addr = fmt.Sprintf("127.0.0.1:%d", port)
	c.server = startProc(t, nil, c.tcli, "server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", strconv.Itoa(port),
		"--db-filename", filepath.Join(c.dir, "temporal.db"), "--log-level", "error")
	t.Cleanup(func() { c.server.kill(syscall.SIGTERM) })
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	c.keyTag = hex.EncodeToString(key[:4])
	t.Setenv(temporalrun.KeyEnv, hex.EncodeToString(key))
	c.env = []string{temporalrun.KeyEnv + "=" + hex.EncodeToString(key)}
	c.root = filepath.Join(c.dir, "shared")
	waitForTemporal(t, c.addr, c.server)
	return c
}

// worker starts `cogflow worker` with one browser slot.
func (c *cluster) worker(name string) *proc {
	return startProc(c.t, c.env, c.bin, "worker", "--temporal", c.addr, "--task-queue", "e2e", "--browsers", "1",
		"--dir", c.root, "--name", name)
}

// rows writes an inputs file for entries from..to, each with its own PIN.
func (c *cluster) rows(from, to int) (path string, pins map[int]string) {
	pins = map[int]string{}
	var csv strings.Builder
	csv.WriteString("n,code,pin\n")
	for n := from; n <= to; n++ {
		pins[n] = fmt.Sprintf("pin-%s-%d", c.keyTag, n)
		fmt.Fprintf(&csv, "%d,C-%d,%s\n", n, n, pins[n])
	}
	path = filepath.Join(c.dir, fmt.Sprintf("rows-%d.csv", from))
	if err := os.WriteFile(path, []byte(csv.String()), 0o600); err != nil {
		c.t.Fatal(err)
	}
	return path, pins
}

func (c *cluster) workflow() string {
	return writeWorkflow(c.t, "enter.cog", strings.ReplaceAll(entryWorkflow, "http://127.0.0.1:8088", c.base))
}

// submit runs `cogflow submit` in process.
func (c *cluster) submit(ctx context.Context, cog, csv string, more ...string) result {
	args := append([]string{"submit", cog, "--inputs", csv, "--temporal", c.addr, "--task-queue", "e2e",
		"--heartbeat-timeout", "8s", "--dir", c.root}, more...)
	return runWith(ctx, "", args...)
}

// rowWorker waits for the worker that says it started the row.
func rowWorker(t *testing.T, workers map[string]*proc, row int) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for name, w := range workers {
			if strings.Contains(w.output(), fmt.Sprintf("row %d: started on %s", row, name)) {
				return name
			}
		}
	}
	t.Fatalf("no worker says it started row %d:\n%s\n%s", row, workers["w1"].output(), workers["w2"].output())
	return ""
}

func TestTemporalBatchWorkerKilled(t *testing.T) {
	c := newCluster(t)
	const rows, held = 40, 5
	csvPath, pins := c.rows(1, rows)
	cog := c.workflow()

	reached, release := c.site.HoldEntry(held)
	defer release()
	workers := map[string]*proc{"w1": c.worker("w1"), "w2": c.worker("w2")}
	started := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Second)
	defer cancel()
	done := make(chan result, 1)
	go func() { done <- c.submit(ctx, cog, csvPath, "--wait") }()

	// Kill the worker that is in the middle of the held row.
	select {
	case <-reached:
	case r := <-done:
		t.Fatalf("the batch ended before row %d was reached: %+v", held, r)
	case <-ctx.Done():
		t.Fatalf("row %d never started; workers:\n%s\n%s", held, workers["w1"].output(), workers["w2"].output())
	}
	victim := rowWorker(t, workers, held)
	survivor := map[string]string{"w1": "w2", "w2": "w1"}[victim]
	workers[victim].kill(syscall.SIGKILL)
	release()

	r := <-done
	elapsed := time.Since(started)
	if r.code != exitOK {
		t.Fatalf("submit --wait: exit %d\nstdout:\n%s\nstderr:\n%s\nsurvivor:\n%s", r.code, r.stdout, r.stderr, workers[survivor].output())
	}
	t.Logf("40 rows, worker %s killed in row %d: %s", victim, held, elapsed.Round(100*time.Millisecond))
	batchID := strings.TrimSpace(r.stdout[:strings.Index(r.stdout, "\n")])
	s, tcli, addr, root := c.site, c.tcli, c.addr, c.root

	checkEntriesOnce(t, s.Entries(), rows, pins)
	checkJournals(t, root, batchID, rows, held)
	if !strings.Contains(workers[survivor].output(), fmt.Sprintf("row %d: attempt 1 (run", held)) {
		t.Errorf("the survivor %s does not say it took row %d over:\n%s", survivor, held, workers[survivor].output())
	}
	checkHistoryHasNoSecret(t, tcli, addr, root, batchID, held, pins)
	for _, w := range workers {
		if out := w.output(); strings.Contains(out, pins[held]) {
			t.Errorf("a worker's log holds a secret:\n%s", out)
		}
	}

	// cogflow runs show BATCH: every row ok on the server and in its journal.
	show := runWith(context.Background(), "", "runs", "show", batchID, "--dir", root)
	if show.code != exitOK || strings.Count(show.stdout, " ok ") < rows {
		t.Errorf("runs show %s: exit %d, want %d rows ok\n%s%s", batchID, show.code, rows, show.stdout, show.stderr)
	}
}

func waitForTemporal(t *testing.T, addr string, server *proc) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cl, _, err := temporalrun.Dial(ctx, temporalrun.Conn{Address: addr, Quiet: true})
		cancel()
		if err == nil {
			cl.Close()
			return
		}
		select {
		case <-server.done:
			t.Fatalf("the temporal dev server exited:\n%s", server.output())
		default:
		}
	}
	t.Fatalf("the temporal dev server did not answer on %s:\n%s", addr, server.output())
}

// checkEntriesOnce: the site got every entry exactly once, with its code
// and PIN.
func checkEntriesOnce(t *testing.T, entries []site.Entry, rows int, pins map[int]string) {
	t.Helper()
	count := map[int]int{}
	for _, e := range entries {
		count[e.N]++
		sum := sha256.Sum256([]byte(pins[e.N]))
		if e.Code != fmt.Sprintf("C-%d", e.N) || e.PINSHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("entry %d was posted with code %q and a PIN that is not its own", e.N, e.Code)
		}
	}
	for n := 1; n <= rows; n++ {
		if count[n] != 1 {
			t.Errorf("entry %d was posted %d times, want exactly once", n, count[n])
		}
	}
	if len(entries) != rows {
		t.Errorf("%d entries posted, want %d", len(entries), rows)
	}
}

// checkJournals: each row's Submit was clicked once across all its runs;
// the held row's first run (killed) had started no such step and its
// second run resumes it.
func checkJournals(t *testing.T, root, batchID string, rows, held int) {
	t.Helper()
	infos, err := journal.List(root)
	if err != nil {
		t.Fatal(err)
	}
	clicks := map[int]int{}
	var heldRuns []*journal.Run
	for _, info := range infos {
		run, err := journal.Load(root, info.ID)
		if err != nil {
			t.Fatal(err)
		}
		if run.Start.Batch != batchID {
			continue
		}
		row := run.Start.Row + 1
		for _, s := range run.Steps {
			if s.Op == "click" && s.Outcome == journal.OK {
				clicks[row]++
			}
		}
		if row == held {
			heldRuns = append(heldRuns, run)
		}
	}
	for n := 1; n <= rows; n++ {
		if clicks[n] != 1 {
			t.Errorf("row %d: Submit clicked %d times in its journals, want once", n, clicks[n])
		}
	}
	if len(heldRuns) != 2 {
		t.Fatalf("row %d has %d runs, want 2 (the killed one and its resume)", held, len(heldRuns))
	}
	killed, resumed := heldRuns[1], heldRuns[0] // List is newest first
	if killed.Finish != nil || len(killed.Steps) != 0 {
		t.Errorf("row %d's first run should have been killed in its first step: finish %+v, %d steps", held, killed.Finish, len(killed.Steps))
	}
	for _, in := range killed.Intents {
		if in.Op == "click" {
			t.Errorf("the killed run had started the click %s", in.Step)
		}
	}
	if resumed.Start.Resume != killed.ID || resumed.Finish == nil || resumed.Finish.Outcome != journal.OK {
		t.Errorf("row %d's second run: resume %q (want %s), finish %+v", held, resumed.Start.Resume, killed.ID, resumed.Finish)
	}
}

// checkHistoryHasNoSecret reads the batch's and the held row's event
// histories with the temporal CLI: they are there (the row's shows its
// first attempt timed out), and no PIN is in them.
func checkHistoryHasNoSecret(t *testing.T, tcli, addr, root, batchID string, held int, pins map[int]string) {
	t.Helper()
	b, err := journal.LoadBatch(root, batchID)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{b.Temporal.WorkflowID, temporalrun.RowWorkflowID(b.Temporal.WorkflowID, held)} {
		out, err := exec.Command(tcli, "workflow", "show", "--address", addr, "--workflow-id", id, "--output", "json").CombinedOutput()
		if err != nil {
			t.Fatalf("temporal workflow show %s: %v\n%s", id, err, out)
		}
		h := string(out)
		if !strings.Contains(h, "WorkflowExecutionStarted") && !strings.Contains(h, "WORKFLOW_EXECUTION_STARTED") {
			t.Errorf("the history of %s has no start event:\n%.2000s", id, h)
		}
		for n, pin := range pins {
			if strings.Contains(h, pin) {
				t.Errorf("the history of %s holds row %d's PIN", id, n)
			}
		}
		if strings.Contains(h, "C-1") || strings.Contains(h, "entries/") {
			t.Errorf("the history of %s holds the rows or the workflow text in the clear", id)
		}
		// The activity's started event is written when an attempt ends:
		// the row's says it was the second attempt, after a heartbeat
		// time-out.
		if id != b.Temporal.WorkflowID && (!strings.Contains(h, `"attempt": 2`) || !strings.Contains(h, "TIMEOUT_TYPE_HEARTBEAT")) {
			t.Errorf("the history of row %d does not show a second attempt after a heartbeat time-out:\n%s", held, h)
		}
	}
}
