//go:build unix

package main

import "syscall"

// groupAttr starts a process leading a group of its own, so that
// killGroup ends its children (Chromium's renderers) too.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills a process and the group it leads.
func killGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
