//go:build !unix

package lsp

import (
	"os"
	"os/exec"
)

// setProcessGroup: without process groups the run is stopped alone.
func setProcessGroup(*exec.Cmd) {}

// interruptGroup: there is no Ctrl-C to send to another process here; the
// run is killed after the grace periods.
func interruptGroup(int) {}

// killTree kills the run.
func killTree(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

// descendants are not known here.
func descendants(int) []int { return nil }
