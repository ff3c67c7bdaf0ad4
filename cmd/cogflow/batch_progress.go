package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// batchProgress is a parallel batch's progress: rows done, failing, rows
// a second and the time left. On a terminal it is one line that redraws
// itself in place (and that other output clears and redraws around); to a
// file or a pipe it is a plain line at most every plainEvery, and one at
// the end.
type batchProgress struct {
	mu   sync.Mutex
	out  io.Writer
	live bool
	id   string
	now  func() time.Time

	total    int // rows of the batch
	before   int // rows a resumed batch had done already
	todo     int // rows this command runs
	ok       int // of them, ended ok
	failed   int // ended otherwise (a step failed, a lost browser, a refused resume)
	stopped  int // interrupted
	start    time.Time
	lastLine time.Time
	shown    bool // a live line is on the screen
}

// plainEvery spaces the plain progress lines.
const plainEvery = 2 * time.Second

func newBatchProgress(out io.Writer, id string, total, before, todo int) *batchProgress {
	p := &batchProgress{out: out, live: isTerminal(out), id: id, now: time.Now, total: total, before: before, todo: todo}
	p.start = p.now()
	return p
}

// isTerminal reports whether w is a terminal (a character device): the
// live line needs one. No dependency is needed for that.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// line is the progress as one line.
func (p *batchProgress) line() string {
	done := p.before + p.ok + p.failed
	var b strings.Builder
	fmt.Fprintf(&b, "batch %s: %d/%d rows done", p.id, done, p.total)
	if p.failed > 0 {
		fmt.Fprintf(&b, ", %d failing", p.failed)
	}
	if p.stopped > 0 {
		fmt.Fprintf(&b, ", %d interrupted", p.stopped)
	}
	elapsed := p.now().Sub(p.start)
	finished := p.ok + p.failed + p.stopped
	if finished == 0 || elapsed <= 0 {
		b.WriteString(", rate –, ETA –")
		return b.String()
	}
	rate := float64(finished) / elapsed.Seconds()
	left := time.Duration(float64(p.todo-finished) / rate * float64(time.Second))
	fmt.Fprintf(&b, ", %.2f rows/s, ETA %s", rate, left.Round(time.Second))
	return b.String()
}

// rowDone counts a finished row by its exit code and shows the progress.
func (p *batchProgress) rowDone(code int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch code {
	case exitOK:
		p.ok++
	case exitInterrupt:
		p.stopped++
	default:
		p.failed++
	}
	last := p.ok+p.failed+p.stopped == p.todo
	switch {
	case p.live:
		p.draw()
	case last || p.now().Sub(p.lastLine) >= plainEvery:
		p.lastLine = p.now()
		fmt.Fprintln(p.out, p.line())
	}
}

// tick redraws the live line (its rate and time left change with time).
func (p *batchProgress) tick() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		p.draw()
	}
}

// draw writes the live line over the one on the screen. The caller holds mu.
func (p *batchProgress) draw() {
	fmt.Fprintf(p.out, "\r\x1b[K%s", truncateLine(p.line(), 120))
	p.shown = true
}

// clear takes the live line off the screen. The caller holds mu.
func (p *batchProgress) clear() {
	if p.shown {
		fmt.Fprint(p.out, "\r\x1b[K")
		p.shown = false
	}
}

// finish leaves the last live line on the screen with its newline.
func (p *batchProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		p.draw()
		fmt.Fprintln(p.out)
		p.shown = false
	}
}

// writer is w for the workers: each write is whole (lines of different
// rows never mix), clears the live line first and redraws it after.
func (p *batchProgress) writer(w io.Writer) io.Writer { return progressWriter{p: p, w: w} }

type progressWriter struct {
	p *batchProgress
	w io.Writer
}

func (pw progressWriter) Write(b []byte) (int, error) {
	pw.p.mu.Lock()
	defer pw.p.mu.Unlock()
	shown := pw.p.shown
	pw.p.clear()
	n, err := pw.w.Write(b)
	if shown {
		pw.p.draw()
	}
	return n, err
}
