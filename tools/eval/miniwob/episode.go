package main

import (
	"bytes"
	"context"
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

	"github.com/cogflow/cogflow/runtime/config"
)

// env is what every episode shares: the built CLI, the fixture server,
// the one Chromium and the harness's own connection to it.
type env struct {
	bin        string // the cogflow built for this measurement
	srv        *server
	browserURL string
	b          *rod.Browser
	out        string   // where traces, workflows and journals go
	cliEnv     []string // the environment of every cogflow process: no model configured
	verbose    bool
	demos      string // -demos: how many demonstrations a task gets, or "auto"
}

// demonstration is one task's recorded demonstration.
type demonstration struct {
	task, seed string
	dir        string  // the task's folder under env.out
	ep         string  // the demonstration's episode id
	trace      string  // the trace file; absent when the recording failed
	reward     *Reward // nil: the episode never ended
	err        string  // why the scripted person failed
	secret     string  // a password the person typed
	variant    string  // the kind of instance the person met (person.variant)
	took       time.Duration
}

// solved reports whether the person solved the demonstrated instance.
func (d *demonstration) solved() bool { return d.reward != nil && d.reward.Raw > 0 }

// query is the page's query string that names the demonstration's
// instance; a run on another seed replaces it in the workflow.
func (d *demonstration) query() string { return fmt.Sprintf("seed=%s&ep=%s", d.seed, d.ep) }

// demonstrate records the scripted person solving the task's instance of
// seed.
func (e *env) demonstrate(ctx context.Context, task, seed string, solve func(*person) error) *demonstration {
	return e.demonstrateTo(ctx, task, seed, "demo.trace.json", solve)
}

// demonstrateTo is demonstrate writing the trace to file (a path in the
// task's folder).
func (e *env) demonstrateTo(ctx context.Context, task, seed, file string, solve func(*person) error) *demonstration {
	d := &demonstration{task: task, seed: seed, dir: filepath.Join(e.out, task), ep: task + "-demo-" + seed}
	d.trace = filepath.Join(d.dir, file)
	_ = os.MkdirAll(filepath.Dir(d.trace), 0o755)
	t0 := time.Now()
	h, err := e.record(ctx, e.srv.taskURL(task, seed, d.ep), d.trace, solve)
	if err != nil {
		d.err = err.Error()
	}
	d.secret, d.variant = h.secret, h.variant
	if rw, ok := e.srv.reward(d.ep, 0); ok {
		d.reward = &rw
	}
	d.took = time.Since(t0)
	return d
}

// workflow is a compiled demonstration.
type workflow struct {
	path, src string
	took      time.Duration
	err       string // why it could not be compiled or used
}

// compile compiles the demonstration's trace into name (a .cog file in
// its folder) with `cogflow compile --no-llm` and the given flags.
func (e *env) compile(ctx context.Context, d *demonstration, name string, flags ...string) workflow {
	w := workflow{path: filepath.Join(d.dir, name)}
	if _, err := os.Stat(d.trace); err != nil {
		w.err = "record: " + firstLine(d.err, "no trace written")
		return w
	}
	args := append([]string{"compile", d.trace, "--no-llm", "-o", w.path, "--dir", filepath.Join(d.dir, "compile")}, flags...)
	// The run on another seed changes the workflow only at the page URL.
	return e.compileInto(ctx, w, args, d.query(), "the workflow does not open the demonstrated page URL")
}

// compileInto runs `cogflow compile` with args, which write w.path, and
// reads the workflow back. query is the demonstrated page URL the
// workflow must open; problem says what it is when the workflow does not.
func (e *env) compileInto(ctx context.Context, w workflow, args []string, query, problem string) workflow {
	t0 := time.Now()
	_ = os.Remove(w.path) // a file of an earlier run in the same -out
	out, err := e.cli(ctx, 2*time.Minute, args...)
	w.took = time.Since(t0)
	if err != nil {
		w.err = "compile: " + lastLine(out)
		return w
	}
	src, err := os.ReadFile(w.path)
	if err != nil {
		w.err = "compile: " + err.Error()
		return w
	}
	w.src = string(src)
	if !strings.Contains(w.src, query) {
		w.err = "harness: " + problem + " (" + query + ")"
	}
	return w
}

// record runs `cogflow record` on the shared browser while the scripted
// person solves the task on the recorded tab, then ends the recording
// with its stop chord (the documented way: Ctrl+Shift+X on the page).
func (e *env) record(ctx context.Context, url, trace string, solve func(*person) error) (h *person, _ error) {
	h = &person{}
	rctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := e.command(rctx, "record", "--url", url, "--browser-url", e.browserURL, "-o", trace)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return h, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()

	page, err := e.findPage(url, done)
	var personErr error
	if err != nil {
		personErr = err
	} else {
		h = &person{p: page, pause: 150 * time.Millisecond}
		personErr = e.act(h, solve)
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
		return h, fmt.Errorf("demonstration: %w", personErr)
	}
	if err != nil {
		return h, fmt.Errorf("cogflow record: %v: %s", err, lastLine(out.String()))
	}
	return h, nil
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

// command is a cogflow process that a cancelled context (the harness's
// Ctrl-C, a time limit) interrupts as Ctrl-C does, so that it closes its
// browser context and writes its journal; it is killed 10 s later.
func (e *env) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, e.bin, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 10 * time.Second
	cmd.Dir, cmd.Env = e.out, e.cliEnv
	return cmd
}

// cli runs the cogflow binary and returns its combined output.
func (e *env) cli(ctx context.Context, limit time.Duration, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	out, err := e.command(cctx, args...).CombinedOutput()
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

// noModelEnv is the harness's environment without any model setting, and
// with a user config folder of its own (empty): the workflows compiled
// with --no-llm run with no model configured, so a dependency step fails
// rather than asking a model the measurement does not count.
func noModelEnv(configHome string) []string {
	drop := map[string]bool{config.EnvAPIKey: true, config.EnvBaseURL: true, config.EnvTextModel: true,
		config.EnvElementModel: true, "XDG_CONFIG_HOME": true}
	var env []string
	for _, kv := range os.Environ() {
		if !drop[strings.SplitN(kv, "=", 2)[0]] {
			env = append(env, kv)
		}
	}
	return append(env, "XDG_CONFIG_HOME="+configHome)
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
