//go:build unix

package browser

import "syscall"

// groupAttr starts a process leading a group of its own, so that
// killGroup ends its children too.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }
