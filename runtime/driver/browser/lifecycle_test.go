package browser

import (
	"context"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestTimeoutMessage checks the time-out message the three drivers share
// (runtime/driver.Lifecycle; android's and uia's tests say the same with
// their names).
func TestTimeoutMessage(t *testing.T) {
	d := sharedDriver(t)
	_, err := d.Do(context.Background(), driver.Action{Op: "wait", Number: 10, Timeout: 200 * time.Millisecond})
	if want := "browser: wait: timed out after 200ms: context deadline exceeded"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}
