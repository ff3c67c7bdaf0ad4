package android

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// TestLifecycle checks the time-out message the three drivers share and
// that a closed driver refuses calls (runtime/driver.Lifecycle).
func TestLifecycle(t *testing.T) {
	d := New(&fakeDevice{answer: func(string) ([]byte, error) { return nil, nil }}, driver.Options{})
	drivertest.CheckTimeout(t, d, "android")
	drivertest.CheckClose(t, d, "android")
}
