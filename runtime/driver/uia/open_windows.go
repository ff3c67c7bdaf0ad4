//go:build windows

package uia

import (
	"context"
	"fmt"

	"github.com/cogflow/cogflow/runtime/driver"
)

// open starts the driver: UI Automation on a COM thread of its own. It
// observes the foreground window until an action launches or switches to
// another.
func open(_ context.Context, opts driver.Options) (driver.Driver, error) {
	a, err := newWinAuto()
	if err != nil {
		// Without UI Automation (a Server Core, a broken COM
		// registration) the driver cannot run here at all.
		return nil, fmt.Errorf("%w: %v", driver.ErrUnavailable, err)
	}
	return newDriver(a, opts), nil
}
