//go:build !unix

package browser

import "os"

// killGroup kills the process.
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
