package uia

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestLifecycle checks the time-out message the three drivers share (uia's
// said less before runtime/driver.Lifecycle) and that a closed driver
// refuses calls.
func TestLifecycle(t *testing.T) {
	d, _ := testDriver(widgets(monsterRoot(t)))
	drivertest.CheckTimeout(t, d, "uia")
	drivertest.CheckClose(t, d, "uia")
}
