package journal

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Writer appends the events of one run to its journal. It is safe for
// concurrent use; each event is one line written with one write.
type Writer struct {
	mu     sync.Mutex
	id     string
	dir    string
	f      *os.File
	red    *redactor
	tally  tally
	closed bool
	err    error // first write error; the journal ends there
	// lock is the run's lock file, held (an OS lock) while the run lives,
	// so that no resume takes a run that is still going.
	lock *Lock
}

// Open creates <root>/runs/<id>/ and its journal, and writes run_started.
// When meta.Resume names an earlier run, that run's finished iterations are
// carried over as iteration_done events (with resumed_from set), so the
// new run's Completed covers them too and a chain of resumes works.
func Open(root string, meta RunMeta) (*Writer, error) {
	if root == "" {
		return nil, errors.New("journal: no root directory")
	}
	var carried []Iteration
	var fellBack []Fallback
	if meta.Resume != "" {
		prev, err := Load(root, meta.Resume)
		if err != nil {
			return nil, fmt.Errorf("journal: cannot resume: %w", err)
		}
		carried, fellBack = prev.completedIterations(), prev.Fallbacks
		if st := meta.Settled; st != nil && st.Policy == "skip" && len(st.Intent.Loop) > 0 {
			carried = append(carried, Iteration{Task: st.Intent.Task, Loop: st.Intent.Loop, Time: now()})
		}
	}
	runs := filepath.Join(root, "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	started := now()
	id, dir, err := makeRunDir(runs, started)
	if err != nil {
		return nil, err
	}
	// The lock comes before the journal: whoever can read the journal
	// finds the run locked while it lives.
	lock, err := TryLock(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, JournalFile), os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		lock.Release()
		return nil, fmt.Errorf("journal: %w", err)
	}
	w := &Writer{id: id, dir: dir, f: f, red: newRedactor(meta.Secrets), lock: lock}
	start := RunStarted{ID: id, Workflow: meta.Workflow, Task: meta.Task, Driver: meta.Driver,
		Inputs: meta.Inputs, Resume: meta.Resume, Row: meta.Row, Batch: meta.Batch, Started: started, WorkflowSHA256: meta.WorkflowSHA256}
	w.tally.start(start)
	fail := func(err error) (*Writer, error) {
		f.Close()
		lock.Release()
		return nil, err
	}
	if err := w.write(EventRunStarted, start); err != nil {
		return fail(err)
	}
	if st := meta.Settled; st != nil {
		if err := w.write(EventInDoubt, st); err != nil {
			return fail(err)
		}
	}
	for _, it := range carried {
		it.ResumedFrom = meta.Resume
		w.tally.iteration(it)
		if err := w.write(EventIterationDone, it); err != nil {
			return fail(err)
		}
	}
	for _, f := range fellBack {
		f.ResumedFrom = meta.Resume
		if err := w.write(EventFallback, f); err != nil {
			return fail(err)
		}
	}
	if err := w.sync(); err != nil {
		return fail(err)
	}
	return w, nil
}

// makeRunDir creates a fresh run directory; Mkdir fails on an existing
// one, so two runs in the same millisecond never share an id.
func makeRunDir(runs string, t time.Time) (id, dir string, err error) {
	return makeUniqueDir(runs, "", "run", t)
}

// makeUniqueDir creates parent/PREFIX<time stamp>-<4 hex digits>, trying
// other random digits while the name is taken.
func makeUniqueDir(parent, prefix, what string, t time.Time) (id, dir string, err error) {
	stamp := t.UTC().Format(idLayout)
	for range 1000 {
		var b [2]byte
		_, _ = rand.Read(b[:]) // never fails
		id = prefix + stamp + "-" + hex.EncodeToString(b[:])
		dir = filepath.Join(parent, id)
		err = os.Mkdir(dir, 0o755)
		if err == nil {
			return id, dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", fmt.Errorf("journal: %w", err)
		}
	}
	return "", "", fmt.Errorf("journal: no free %s id for %s", what, stamp)
}

// ID is the run's id.
func (w *Writer) ID() string { return w.id }

// Dir is the run's directory.
func (w *Writer) Dir() string { return w.dir }

// Step records one step. It assigns ev.Seq; an empty Outcome means OK and a
// zero Started means now minus ev.Duration.
func (w *Writer) Step(ev StepEvent) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if ev.Outcome == "" {
		ev.Outcome = OK
	}
	if ev.Started.IsZero() {
		ev.Started = now().Add(-time.Duration(ev.Duration))
	}
	ev.Seq = w.tally.steps + 1
	w.tally.step(ev)
	return w.write(EventStep, ev)
}

// Intent records that a step is about to act, and syncs before it
// returns: after a crash, an intent without its step event is a step in
// doubt. It assigns ev.Seq, the number the step's outcome will get. An
// error means the journal cannot promise anything any more: the caller
// must not act.
func (w *Writer) Intent(ev Intent) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if ev.Started.IsZero() {
		ev.Started = now()
	}
	ev.Seq = w.tally.steps + 1
	if err := w.write(EventIntent, ev); err != nil {
		return err
	}
	if err := w.sync(); err != nil {
		w.err = err
		return err
	}
	return nil
}

// IterationDone records that the iteration at the end of loop (outermost
// first) finished as a whole, and syncs, so --resume can skip it.
func (w *Writer) IterationDone(task string, loop []LoopPos) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if len(loop) == 0 {
		return errors.New("journal: iteration_done without a loop position")
	}
	it := Iteration{Task: task, Loop: loop, Time: now()}
	w.tally.iteration(it)
	if err := w.write(EventIterationDone, it); err != nil {
		return err
	}
	return w.sync()
}

// Interrupted records where the run was when it was stopped, and syncs.
// Finish(Interrupted, …) should follow.
func (w *Writer) Interrupted(at Position) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if err := w.write(EventInterrupted, Interruption{Position: at, Time: now()}); err != nil {
		return err
	}
	return w.sync()
}

// Screenshot stores png beside the journal and returns its file name, for
// StepEvent.Screenshot: step-0007-op3.png, where 0007 is the number the
// next step event will get and op3 is the step name reduced to [A-Za-z0-9_-]
// (left out if it holds a secret). Names never come from values; a second
// screenshot for the same step gets -2, -3, ….
func (w *Writer) Screenshot(step string, png []byte) (string, error) {
	w.mu.Lock()
	if err := w.usable(); err != nil {
		w.mu.Unlock()
		return "", err
	}
	base := fmt.Sprintf("step-%04d", w.tally.steps+1)
	if label := fileLabel(step); label != "" && !w.red.Contains(label) && !w.red.Contains(step) {
		base += "-" + label
	}
	var name string
	var f *os.File
	for i := 1; ; i++ {
		name = base + ".png"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.png", base, i)
		}
		var err error
		f, err = os.OpenFile(filepath.Join(w.dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			w.mu.Unlock()
			return "", fmt.Errorf("journal: %w", err)
		}
	}
	w.mu.Unlock() // the name is taken; write the bytes without holding up other events
	_, err := f.Write(png)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("journal: screenshot: %w", err)
	}
	return name, nil
}

// fileLabel keeps the characters of a step name that are safe in a file
// name, at most 40 of them.
func fileLabel(s string) string {
	var b strings.Builder
	for _, c := range s {
		if b.Len() == 40 {
			break
		}
		if c == '_' || c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// Finish writes run_finished, syncs and closes the journal, and writes
// summary.json. An empty outcome means OK if err is nil, Failed otherwise.
// After Finish every method returns ErrClosed.
func (w *Writer) Finish(outcome Outcome, err error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return ErrClosed
	}
	w.closed = true
	if outcome == "" {
		outcome = OK
		if err != nil {
			outcome = Failed
		}
	}
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	end := now()
	fin := RunFinished{Outcome: outcome, Error: msg, Finished: end, Duration: Duration(end.Sub(w.tally.sum.Started))}
	w.tally.finish(fin)
	var errs []error
	if w.err == nil {
		errs = append(errs, w.write(EventRunFinished, fin), w.sync())
	} else {
		errs = append(errs, w.err)
	}
	if cerr := w.f.Close(); cerr != nil {
		errs = append(errs, fmt.Errorf("journal: %w", cerr))
	}
	errs = append(errs, w.writeSummary(w.tally.summary()))
	w.lock.Release()
	return errors.Join(errs...)
}

func (w *Writer) usable() error {
	if w.closed {
		return ErrClosed
	}
	return w.err
}

// write appends one event as one line: {"type":…, fields of v…}. The
// caller holds w.mu.
func (w *Writer) write(typ string, v any) error {
	body, err := encode(redactValue(w.red, v))
	if err != nil {
		return fmt.Errorf("journal: %s: %w", typ, err)
	}
	line := make([]byte, 0, len(body)+len(typ)+12)
	line = append(line, `{"type":"`...)
	line = append(line, typ...)
	line = append(line, '"')
	if len(body) > 2 { // body is a JSON object; splice its fields in
		line = append(line, ',')
		line = append(line, body[1:]...)
	} else {
		line = append(line, '}')
	}
	line = append(line, '\n')
	if _, err := w.f.Write(line); err != nil {
		w.err = fmt.Errorf("journal: %w", err)
		return w.err
	}
	return nil
}

func (w *Writer) sync() error {
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}

// writeSummary writes summary.json through a temporary file and a rename,
// so a reader sees the old state or the whole new file.
func (w *Writer) writeSummary(s Summary) error {
	b, err := encodeIndent(redactValue(w.red, s))
	if err != nil {
		return fmt.Errorf("journal: summary: %w", err)
	}
	tmp := filepath.Join(w.dir, "."+SummaryFile+".tmp")
	if err := writeFileSync(tmp, b); err != nil {
		return fmt.Errorf("journal: summary: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(w.dir, SummaryFile)); err != nil {
		return fmt.Errorf("journal: summary: %w", err)
	}
	if d, err := os.Open(w.dir); err == nil { // make the directory entries durable too
		_ = d.Sync()
		d.Close()
	}
	return nil
}

func writeFileSync(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// encode is json.Marshal without HTML escaping (URLs and page text stay
// readable) and without the trailing newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func encodeIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
