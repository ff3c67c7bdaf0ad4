package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/input"
)

// env is what every episode shares: the built CLI, the fixture server,
// the one Chromium and the harness's own connection to it.
type env struct {
	bin        string // bin/cogflow
	srv        *server
	browserURL string
	b          *rod.Browser
	out        string // where traces, workflows and journals go
	seed       string // the demonstration's seed
	replaySeed string // the replay's seed (same as seed for same-seed replay)
	verbose    bool
}

// result is one task's row of the table.
type result struct {
	task           string
	demo, replay   *Reward // nil: the episode never ended
	demoErr        string  // why the scripted person failed
	sameInstance   bool    // the replay showed the demonstration's instruction
	step, message  string  // the replay's failing step and its error
	record, comp   time.Duration
	run            time.Duration
	compileFailed  bool
	silentlyWrong  bool // every step reported ok, the reward says wrong
	workflowSource string
}

// ok reports whether the replay solved the task.
func (r result) ok() bool { return r.replay != nil && r.replay.Raw > 0 }

// episode records the scripted demonstration of a task, compiles it with
// no model and replays it.
func (e *env) episode(ctx context.Context, task string, solve func(*person) error) result {
	res := result{task: task}
	dir := filepath.Join(e.out, task)
	_ = os.MkdirAll(dir, 0o755)
	trace := filepath.Join(dir, "demo.trace.json")

	t0 := time.Now()
	demoEp := task + "-demo-" + e.seed
	demoURL := e.srv.taskURL(task, e.seed, demoEp)
	secret, err := e.record(ctx, demoURL, trace, solve)
	if err != nil {
		res.demoErr = err.Error()
	}
	if rw, ok := e.srv.reward(demoEp, 0); ok {
		res.demo = &rw
	}
	res.record = time.Since(t0)
	if _, err := os.Stat(trace); err != nil {
		res.step, res.message = "record", firstLine(res.demoErr, "no trace written")
		return res
	}

	t1 := time.Now()
	cog := filepath.Join(dir, "demo.cog")
	out, err := e.cli(ctx, 2*time.Minute, "compile", trace, "--no-llm", "-o", cog, "--dir", filepath.Join(dir, "compile"))
	res.comp = time.Since(t1)
	if err != nil {
		res.compileFailed = true
		res.step, res.message = "compile", lastLine(out)
		return res
	}
	src, err := os.ReadFile(cog)
	if err != nil {
		res.step, res.message = "compile", err.Error()
		return res
	}
	res.workflowSource = string(src)

	// The replay opens the same page under its own episode id (and the
	// replay seed); the workflow is changed only there.
	replayEp := task + "-replay-" + e.replaySeed
	demoQ, replayQ := fmt.Sprintf("seed=%s&ep=%s", e.seed, demoEp), fmt.Sprintf("seed=%s&ep=%s", e.replaySeed, replayEp)
	if !strings.Contains(string(src), demoQ) {
		res.step, res.message = "harness", "the workflow does not open the demonstrated page URL ("+demoQ+")"
		return res
	}
	replayCog := filepath.Join(dir, "replay.cog")
	if err := os.WriteFile(replayCog, []byte(strings.ReplaceAll(string(src), demoQ, replayQ)), 0o644); err != nil {
		res.step, res.message = "harness", err.Error()
		return res
	}
	t2 := time.Now()
	runDir := filepath.Join(dir, "run")
	args := []string{"run", replayCog, "--yes", "--browser-url", e.browserURL, "--dir", runDir}
	for _, name := range secretInputs(string(src)) {
		// The person knows the password (the instruction shows it); a
		// secret input has no default in the workflow.
		args = append(args, "--input", name+"="+secret)
	}
	out, err = e.cli(ctx, 3*time.Minute, args...)
	res.run = time.Since(t2)
	grace := 3 * time.Second // the page's post may trail the run's end
	if err != nil {
		grace = 500 * time.Millisecond
	}
	if rw, ok := e.srv.reward(replayEp, grace); ok {
		res.replay = &rw
		res.sameInstance = res.demo != nil && rw.Query == res.demo.Query
	}
	step, msg := failedStep(runDir)
	res.step, res.message, res.silentlyWrong = verdict(step, msg, err, out, res.replay, e.seed == e.replaySeed)
	return res
}

// verdict says where a replay failed: the journal's failing step, else
// the run's own last words, else what the reward says about a run whose
// steps all reported ok.
// On another seed than the demonstration's, a wrong answer with every
// step ok is the workflow not generalizing, not a run lying.
func verdict(step, msg string, runErr error, out string, replay *Reward, sameSeed bool) (string, string, bool) {
	switch {
	case step != "":
		return step, msg, false
	case runErr != nil:
		return "run", lastLine(out), false
	case replay == nil:
		return "(end)", "every step ran but the episode did not end", false
	case replay.Raw <= 0 && !sameSeed:
		return "(all ok)", fmt.Sprintf("not generalized: every step reported ok, the task's checker gave %.2g (%s)", replay.Raw, replay.Reason), false
	case replay.Raw <= 0:
		// The run said ok and the task's own checker says it is wrong:
		// the case the project must never let happen.
		return "(all ok)", fmt.Sprintf("SILENTLY WRONG: every step reported ok, the task's checker gave %.2g (%s)", replay.Raw, replay.Reason), true
	}
	return "", "", false
}

// record runs `cogflow record` on the shared browser while the scripted
// person solves the task on the recorded tab, then ends the recording
// with its stop chord (the documented way: Ctrl+Shift+X on the page).
func (e *env) record(ctx context.Context, url, trace string, solve func(*person) error) (secret string, _ error) {
	rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(rctx, e.bin, "record", "--url", url, "--browser-url", e.browserURL, "-o", trace)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 10 * time.Second
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	page, err := e.findPage(url, done)
	var personErr error
	if err != nil {
		personErr = err
	} else {
		h := &person{p: page, pause: 150 * time.Millisecond}
		personErr = e.act(h, solve)
		secret = h.secret
		// The stop chord ends the recording; the recorder closes the tab.
		_ = page.KeyActions().Press(input.ControlLeft, input.ShiftLeft).Type(input.KeyX).Do()
	}
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGINT) // Ctrl-C also ends a recording, writing the trace
		err = <-done
	}
	if e.verbose {
		fmt.Fprintf(os.Stderr, "record %s:\n%s", url, out.String())
	}
	if personErr != nil {
		return secret, fmt.Errorf("demonstration: %w", personErr)
	}
	if err != nil {
		return secret, fmt.Errorf("cogflow record: %v: %s", err, lastLine(out.String()))
	}
	return secret, nil
}

// act waits for the START cover, clicks it and lets the person solve the
// instance.
func (e *env) act(h *person, solve func(*person) error) error {
	if _, err := h.find(css("#sync-task-cover")); err != nil {
		return err
	}
	h.wait(400 * time.Millisecond) // the recorder's script is installed in the new document
	if err := h.click(css("#sync-task-cover")); err != nil {
		return err
	}
	h.wait(200 * time.Millisecond)
	if err := solve(h); err != nil {
		return err
	}
	h.wait(300 * time.Millisecond)
	return nil
}

// findPage waits for the tab the recorder opened on url.
func (e *env) findPage(url string, exited chan error) (*rod.Page, error) {
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			exited <- err
			return nil, fmt.Errorf("cogflow record ended before the page opened: %v", err)
		default:
		}
		if pages, err := e.b.Pages(); err == nil {
			for _, p := range pages {
				if info, err := p.Info(); err == nil && info.URL == url {
					return p, nil
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, fmt.Errorf("the recorded page %s did not open", url)
}

// cli runs the cogflow binary and returns its combined output.
func (e *env) cli(ctx context.Context, limit time.Duration, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(cctx, e.bin, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if e.verbose {
		shown := append([]string{}, args...)
		for i := 1; i < len(shown); i++ {
			if shown[i-1] == "--input" { // secrets stay out of the log
				shown[i] = strings.SplitN(shown[i], "=", 2)[0] + "=***"
			}
		}
		fmt.Fprintf(os.Stderr, "cogflow %s:\n%s", strings.Join(shown, " "), out)
	}
	return string(out), err
}

// secretInputs are the names of the workflow's secret inputs.
func secretInputs(src string) []string {
	var names []string
	for _, m := range secretInput.FindAllStringSubmatch(src, -1) {
		names = append(names, m[1])
	}
	return names
}

var secretInput = regexp.MustCompile(`(?m)^\s*input\s+(\w+)\s*:\s*secret\b`)

// failedStep reads the run's journal: the first step that did not end
// ok, as "name (line N, op)" and its error.
func failedStep(runDir string) (string, string) {
	journals, _ := filepath.Glob(filepath.Join(runDir, "runs", "*", "journal.jsonl"))
	for _, j := range journals {
		f, err := os.Open(j)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var l struct {
				Type, Step, Op, Outcome, Error string
				Line                           int
			}
			if json.Unmarshal(sc.Bytes(), &l) != nil || l.Step == "" || l.Op == "" {
				continue
			}
			if l.Outcome != "" && l.Outcome != "ok" {
				f.Close()
				return fmt.Sprintf("%s:%d %s", l.Step, l.Line, l.Op), firstLine(l.Error, l.Outcome)
			}
		}
		f.Close()
	}
	return "", ""
}

func firstLine(s, def string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return def
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
