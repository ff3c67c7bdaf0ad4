//go:build !windows

package uia

import (
	"context"
	"fmt"
	"runtime"

	"github.com/cogflow/cogflow/runtime/driver"
)

// open fails off Windows: UI Automation is a Windows API. The error wraps
// driver.ErrUnavailable, which the CLI turns into its "driver
// unavailable" exit code.
func open(context.Context, driver.Options) (driver.Driver, error) {
	return nil, fmt.Errorf("%w: the uia driver runs on Windows (this is %s)", driver.ErrUnavailable, runtime.GOOS)
}
