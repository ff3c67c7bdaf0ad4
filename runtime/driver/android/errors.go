package android

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// ErrDeviceLost is wrapped by errors of a device that stopped answering:
// the connection to the ADB server dropped, the server went away, or the
// device was unplugged, went offline or rebooted.
var ErrDeviceLost = errors.New("lost the device (unplugged, offline, or the adb connection dropped)")

// deviceError marks transport failures with ErrDeviceLost, so a run's
// journal says the device went away rather than that a step was wrong. A
// failure after ctx ended is ctx's: a connection cut short by a deadline
// is not a lost device.
func deviceError(ctx context.Context, err error) error {
	if err == nil || errors.Is(err, ErrDeviceLost) || errors.Is(err, context.Canceled) ||
		errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if expired(ctx) {
		return fmt.Errorf("%w (%v)", context.DeadlineExceeded, err)
	}
	msg := strings.ToLower(err.Error())
	lost := errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNREFUSED) ||
		isAdbLost(err)
	for _, s := range []string{"device offline", "not found", "no devices", "connection reset", "broken pipe",
		"connection refused", "device unauthorized", "closed network connection"} {
		lost = lost || strings.Contains(msg, s)
	}
	if lost {
		// Also driver.ErrGone: the run journals the step in flight as in
		// doubt and exits with its own code.
		return &driver.GoneError{What: "the device went away", Err: fmt.Errorf("%w: %v", ErrDeviceLost, err)}
	}
	return err
}

// expired reports whether ctx has ended or reached its deadline; a dial
// cut by the deadline can fail a moment before ctx.Err() says so.
func expired(ctx context.Context) bool {
	if ctx.Err() != nil {
		return true
	}
	dl, ok := ctx.Deadline()
	return ok && !time.Now().Before(dl)
}
