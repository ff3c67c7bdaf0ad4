package browser

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestTimeoutMessage checks the time-out message the three drivers share
// (runtime/driver.Lifecycle). The shared browser stays open: closing is
// the other drivers' test.
func TestTimeoutMessage(t *testing.T) {
	drivertest.CheckTimeout(t, sharedDriver(t), "browser")
}
