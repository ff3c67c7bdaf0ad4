//go:build unix

package browser

import "syscall"

// killGroup kills a process and the process group it leads.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
