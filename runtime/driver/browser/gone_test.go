//go:build unix

package browser

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestBrowserExited: when the launched browser dies (kill -9), the next
// action and observation fail with "the browser exited", which is
// driver.ErrGone, and not with the protocol's EOF.
func TestBrowserExited(t *testing.T) {
	needChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	d, err := Start(ctx, driver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s := newSite(t)
	open(t, d, s.page("/p", `<button>Go</button>`))
	if err := syscall.Kill(d.proc.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		call func() error
	}{
		{"do", func() error { _, err := d.Do(ctx, driver.Action{Op: "key", Text: "Enter"}); return err }},
		{"observe", func() error { _, err := d.Observe(ctx); return err }},
	}
	for _, tc := range tests {
		err := tc.call()
		if !errors.Is(err, driver.ErrGone) || !strings.Contains(err.Error(), "the browser exited") {
			t.Errorf("%s after the browser died: %v", tc.name, err)
		}
	}
}
