//go:build !unix

package browser

import "syscall"

// groupAttr is the default: no process groups here.
func groupAttr() *syscall.SysProcAttr { return nil }
