//go:build unix

package browser

import (
	"errors"
	"syscall"
)

// alive reports whether process pid still exists. The launcher reaps the
// browser when it exits, so a dead browser leaves no zombie behind.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
