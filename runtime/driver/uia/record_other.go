//go:build !windows

package uia

import (
	"context"
	"fmt"
	"runtime"

	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Record records a demonstration on the Windows desktop; off Windows it
// fails with driver.ErrUnavailable.
func Record(context.Context, RecordOptions) (*trace.Trace, error) {
	return nil, fmt.Errorf("%w: the uia recorder runs on Windows (this is %s)", driver.ErrUnavailable, runtime.GOOS)
}
