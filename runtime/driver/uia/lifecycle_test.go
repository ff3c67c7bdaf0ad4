package uia

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestTimeoutMessage checks the time-out message the three drivers share
// (runtime/driver.Lifecycle; uia's said less before), and that a closed
// driver refuses calls.
func TestTimeoutMessage(t *testing.T) {
	d, _ := testDriver(widgets(monsterRoot(t)))
	_, err := d.Do(context.Background(), driver.Action{Op: "wait", Number: 10, Timeout: 200 * time.Millisecond})
	if want := "uia: wait: timed out after 200ms: context deadline exceeded"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Observe(context.Background()); !errors.Is(err, driver.ErrClosed) || err.Error() != "uia: the driver is closed" {
		t.Errorf("Observe after Close: %v", err)
	}
}
