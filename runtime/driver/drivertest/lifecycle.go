package drivertest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// CheckTimeout checks that driver name reports an action its time-out
// ended as every driver does (runtime/driver.Lifecycle): a wait of ten
// seconds bounded to 200 ms fails with "NAME: wait: timed out after 200ms:
// context deadline exceeded".
func CheckTimeout(t testing.TB, d driver.Driver, name string) {
	t.Helper()
	_, err := d.Do(context.Background(), driver.Action{Op: "wait", Number: 10, Timeout: 200 * time.Millisecond})
	if want := name + ": wait: timed out after 200ms: context deadline exceeded"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

// CheckClose closes driver name and checks that it then refuses calls
// with driver.ErrClosed, saying "NAME: the driver is closed".
func CheckClose(t testing.TB, d driver.Driver, name string) {
	t.Helper()
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if _, err := d.Observe(context.Background()); !errors.Is(err, driver.ErrClosed) || err.Error() != name+": the driver is closed" {
		t.Errorf("Observe after Close: %v", err)
	}
}
