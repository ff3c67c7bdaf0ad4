package browser

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// gone turns an error of a browser that is no longer there into a
// *driver.GoneError: the browser this driver launched exited (it crashed,
// or was killed), or the DevTools connection to an attached one closed.
// Any other error is returned as it is. The interpreter journals the step
// then in flight as in doubt, and the CLI exits with its own code.
func (d *Driver) gone(err error) error {
	if err == nil || errors.Is(err, driver.ErrGone) || errors.Is(err, context.Canceled) {
		return err
	}
	if d.proc != nil {
		// The connection usually breaks a moment before the process is
		// reaped: give it a little time when the error looks like it.
		wait := time.Duration(0)
		if connectionLost(err) {
			wait = time.Second
		}
		if d.procExited(wait) {
			return &driver.GoneError{What: "the browser exited", Err: err}
		}
		return err
	}
	if connectionLost(err) {
		return &driver.GoneError{What: "the browser went away (its DevTools connection closed)", Err: err}
	}
	return err
}

// procExited reports whether the launched browser's process is gone,
// waiting up to wait for it to go.
func (d *Driver) procExited(wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for {
		if !alive(d.proc.pid) {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// connectionLost recognizes the errors of a closed DevTools WebSocket.
func connectionLost(err error) bool {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	msg := err.Error()
	for _, s := range []string{"use of closed network connection", "connection reset by peer", "broken pipe", "EOF"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
