// Package uia is the place of the Windows UI Automation driver. So far it
// holds only the part every platform needs: a registered driver that
// explains it cannot run here, so that a `driver uia` workflow fails with a
// clear message and the "driver unavailable" exit code instead of "unknown
// driver". The IUIAutomation implementation (*_windows.go) is yet to come.
package uia

import (
	"context"
	"fmt"
	"runtime"

	"github.com/cogflow/cogflow/runtime/driver"
)

func init() {
	driver.Register("uia", open)
}

// open fails: there is no Windows implementation yet, and off Windows
// there never will be.
func open(context.Context, driver.Options) (driver.Driver, error) {
	if runtime.GOOS == "windows" {
		return nil, fmt.Errorf("%w: the uia driver is not implemented yet", driver.ErrUnavailable)
	}
	return nil, fmt.Errorf("%w: the uia driver runs on Windows (this is %s)", driver.ErrUnavailable, runtime.GOOS)
}
