package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestRecordCommand records the demo site headless and stops it as Ctrl-C
// would: the trace of what was recorded is written and valid.
func TestRecordCommand(t *testing.T) {
	needChromium(t)
	_, base := demo(t)
	out := filepath.Join(t.TempDir(), "demo.trace.json")
	// Stopped as Ctrl-C would, once the recorder says it records: a fixed
	// delay was too short on a loaded machine, where Chromium can take
	// seconds to start.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Stopped once the page reported in (the recorder shows each event
	// as it records it), not after a fixed delay: a loaded machine took
	// longer than two seconds to load the page.
	started := &watchWriter{want: " navigate " + base + "/wiki", seen: make(chan struct{})}
	go func() {
		select {
		case <-started.seen:
			cancel()
		case <-ctx.Done():
		}
	}()
	var out1 bytes.Buffer
	c := &cli{stdout: &out1, stderr: started, stdin: strings.NewReader(""), ctx: ctx}
	r := result{code: c.main([]string{"record", "--url", base + "/wiki", "--headless", "-o", out})}
	r.stdout, r.stderr = out1.String(), started.String()
	if r.code != exitOK || !strings.HasPrefix(r.stdout, "wrote "+out) {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	tr, err := trace.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Driver != "browser" || tr.Start.URL != base+"/wiki" {
		t.Errorf("trace start: %+v", tr.Start)
	}
	if r := runCLI(t, "", "record"); r.code != exitUsage || !strings.Contains(r.stderr, "--url is required") {
		t.Errorf("no url: exit %d, %s", r.code, r.stderr)
	}
}

// watchWriter collects what is written and closes seen once it contains
// want.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, err
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
