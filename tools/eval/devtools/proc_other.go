//go:build !unix

package main

import (
	"os"
	"syscall"
)

// groupAttr is the default: no process groups here.
func groupAttr() *syscall.SysProcAttr { return nil }

// killGroup kills the process.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
