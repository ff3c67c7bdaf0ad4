//go:build unix

package lsp

import (
	"context"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A run that exits while a process it started still holds its output (a
// browser's helper left behind) is over: the server answers, rather than
// waiting for that process to end.
func TestRunSubprocessOutputHeldByAnOrphan(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	pids := make(chan int, 1)
	runStarted = func(pid int) { pids <- pid }
	defer func() { runStarted = nil }()
	start := time.Now()
	type result struct {
		out  []byte
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		out, _, code, err := runSubprocess(context.Background(), sh, t.TempDir(), []string{"-c", "sleep 30 & echo started; exit 3"})
		done <- result{out, code, err}
	}()
	pid := <-pids
	defer syscall.Kill(-pid, syscall.SIGKILL) // the orphan sleep, in the run's group
	select {
	case r := <-done:
		if r.err != nil || r.code != 3 || !strings.Contains(string(r.out), "started") {
			t.Errorf("code %d, err %v, output %q", r.code, r.err, r.out)
		}
		t.Logf("returned in %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(15 * time.Second):
		t.Fatal("runSubprocess waits for a process the run left behind")
	}
}
