// Command devtools replays the Chrome DevTools Recorder corpus
// (../shared/fixtures/devtools-recorder, or $COGFLOW_FIXTURES/devtools-recorder)
// through cogflow's real command-line path — import, compile --no-llm,
// run --browser-url — in one shared headless Chromium, then checks on the
// page the effect each recording's test name describes, and prints a table.
//
// It is run by `make eval-replay-devtools`, never by `make test`: the corpus
// is third-party material that is not part of the project.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "", "a cogflow binary to use instead of building ./cmd/cogflow")
	only := flag.String("only", "", "replay only recordings whose file name contains this")
	chrome := flag.String("chrome", "/usr/bin/chromium", "the Chromium executable")
	perRun := flag.Duration("timeout", 90*time.Second, "the time one recording may take")
	keep := flag.Bool("keep", false, "keep the work folder (traces, workflows, logs)")
	flag.Parse()
	if err := run(*bin, *only, *chrome, *perRun, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "eval-replay-devtools:", err)
		os.Exit(1)
	}
}

func fixtures() (string, error) {
	dir := filepath.Join("..", "shared", "fixtures", "devtools-recorder")
	if f := os.Getenv("COGFLOW_FIXTURES"); f != "" {
		dir = filepath.Join(f, "devtools-recorder")
	}
	if _, err := os.Stat(filepath.Join(dir, "recordings")); err != nil {
		return "", fmt.Errorf("no DevTools Recorder fixtures at %s (set COGFLOW_FIXTURES): %w", dir, err)
	}
	return filepath.Abs(dir)
}

func run(bin, only, chrome string, perRun time.Duration, keep bool) error {
	fix, err := fixtures()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "cogflow-eval-devtools-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("work folder:", work)
	} else {
		defer os.RemoveAll(work)
	}
	if bin == "" {
		bin = filepath.Join(work, "cogflow")
		b := exec.Command("go", "build", "-o", bin, "./cmd/cogflow")
		b.Stdout, b.Stderr = os.Stdout, os.Stderr
		if err := b.Run(); err != nil {
			return fmt.Errorf("building cogflow: %w", err)
		}
	} else if bin, err = filepath.Abs(bin); err != nil {
		return err
	}

	srv, err := serve(filepath.Join(fix, "pages"))
	if err != nil {
		return err
	}
	defer srv.close()

	br, err := startChromium(chrome, work)
	if err != nil {
		return err
	}
	defer br.stop()

	recs, err := filepath.Glob(filepath.Join(fix, "recordings", "*.json"))
	if err != nil {
		return err
	}
	sort.Strings(recs)
	var rows []row
	start := time.Now()
	for _, r := range recs {
		name := strings.TrimSuffix(filepath.Base(r), ".json")
		if only != "" && !strings.Contains(name, only) {
			continue
		}
		rows = append(rows, replay(bin, r, name, work, srv, br.ws, perRun))
	}
	printTable(os.Stdout, rows, time.Since(start))
	return nil
}

// row is one recording's line of the table.
type row struct {
	name    string
	end     bool   // the run reached the end
	effect  string // "y", "n" or "—" (reaching the end is the check)
	step    string // the failing step and its message
	elapsed time.Duration
	ok      bool // the outcome is the expected one
}

var stepRE = regexp.MustCompile(`(?m)^.*(error|failed|fail).*$`)

// replay runs one recording through import, compile and run.
func replay(bin, rec, name, work string, srv *server, ws string, perRun time.Duration) row {
	t0 := time.Now()
	r := row{name: name}
	dir := filepath.Join(work, name)
	_ = os.MkdirAll(dir, 0o755)
	data, err := os.ReadFile(rec)
	if err != nil {
		r.step = err.Error()
		return r
	}
	data = []byte(strings.ReplaceAll(string(data), "PORT", srv.port))
	recPath := filepath.Join(dir, "recording.json")
	if err := os.WriteFile(recPath, data, 0o644); err != nil {
		r.step = err.Error()
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), perRun)
	defer cancel()
	srv.reset()
	trace, cog := filepath.Join(dir, "t.trace.json"), filepath.Join(dir, "t.cog")
	out, err := cli(ctx, dir, bin, "import", recPath, "-o", trace)
	if err != nil {
		r.step, r.elapsed = "import: "+summary(out, err), time.Since(t0)
		return judge(r, name, srv)
	}
	out, err = cli(ctx, dir, bin, "compile", "--no-llm", "-o", cog, trace)
	if err != nil {
		r.step, r.elapsed = "compile: "+summary(out, err), time.Since(t0)
		return judge(r, name, srv)
	}
	out, err = cli(ctx, dir, bin, "run", "--browser-url", ws, "--yes", cog)
	_ = os.WriteFile(filepath.Join(dir, "run.log"), []byte(out), 0o644)
	r.elapsed = time.Since(t0)
	if err != nil {
		r.step = strings.ReplaceAll(summary(strings.ReplaceAll(out, dir+string(filepath.Separator), ""), err), dir, ".")
	} else {
		r.end = true
	}
	// Beacons sent as the run ended may still be in flight.
	time.Sleep(150 * time.Millisecond)
	return judge(r, name, srv)
}

// cli runs the cogflow binary in dir and returns its combined output.
func cli(ctx context.Context, dir, bin string, args ...string) (string, error) {
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = dir
	c.SysProcAttr = groupAttr()
	c.Cancel = func() error { killGroup(c.Process.Pid); return nil }
	out, err := c.CombinedOutput()
	if ctx.Err() != nil {
		return string(out), fmt.Errorf("timed out (hang)")
	}
	return string(out), err
}

// summary is the most telling line of a failed command's output.
func summary(out string, err error) string {
	lines := stepRE.FindAllString(out, -1)
	msg := err.Error()
	if len(lines) > 0 {
		msg = strings.TrimSpace(lines[len(lines)-1])
	} else if s := strings.TrimSpace(out); s != "" {
		ls := strings.Split(s, "\n")
		msg = strings.TrimSpace(ls[len(ls)-1])
	}
	if len(msg) > 160 {
		msg = msg[:157] + "…"
	}
	return msg
}

func printTable(w io.Writer, rows []row, total time.Duration) {
	fmt.Fprintf(w, "%-58s %-4s %-6s %-7s %s\n", "recording", "end", "effect", "time", "failing step + message")
	var ends, effects, oks int
	for _, r := range rows {
		end := "n"
		if r.end {
			end = "y"
			ends++
		}
		if r.effect == "y" {
			effects++
		}
		if r.ok {
			oks++
		}
		fmt.Fprintf(w, "%-58s %-4s %-6s %-7s %s\n", r.name, end, r.effect, r.elapsed.Round(100*time.Millisecond), r.step)
	}
	fmt.Fprintf(w, "\nreached the end: %d/%d; effect checked on the page: %d; expected outcome (end+effect, or the expected failure): %d/%d; time %s\n",
		ends, len(rows), effects, oks, len(rows), total.Round(time.Second))
}

// browser is the one shared Chromium.
type browser struct {
	cmd *exec.Cmd
	ws  string
}

func startChromium(exe, work string) (*browser, error) {
	prof := filepath.Join(work, "profile")
	c := exec.Command(exe, "--headless", "--no-sandbox", "--disable-background-networking",
		"--disable-component-update", "--no-first-run", "--remote-debugging-port=0",
		"--user-data-dir="+prof, "--host-rules=MAP oopifdomain 127.0.0.1", "--site-per-process", "about:blank")
	c.SysProcAttr = groupAttr()
	stderr, err := c.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", exe, err)
	}
	b := &browser{cmd: c}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if i := strings.Index(sc.Text(), "ws://"); i >= 0 {
				select {
				case found <- strings.TrimSpace(sc.Text()[i:]):
				default:
				}
			}
		}
	}()
	select {
	case b.ws = <-found:
		return b, nil
	case <-time.After(30 * time.Second):
		b.stop()
		return nil, errors.New("chromium did not print its DevTools address in 30 s")
	}
}

// stop ends the Chromium this harness started (its process group only).
func (b *browser) stop() {
	if b.cmd.Process != nil {
		killGroup(b.cmd.Process.Pid)
		_ = b.cmd.Wait()
	}
}
