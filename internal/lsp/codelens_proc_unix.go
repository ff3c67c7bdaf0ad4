//go:build unix

package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// setProcessGroup puts the run in a process group of its own, so that
// stopping it reaches every process it started in that group.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// interruptGroup sends the run's group what Ctrl-C sends.
func interruptGroup(pid int) {
	_ = syscall.Kill(-pid, syscall.SIGINT)
}

// killTree kills the run's group and every process descended from the
// run, wherever their group: the browser runs in a group of its own, and
// would outlive a run killed before it could close it.
func killTree(pid int) {
	desc := descendants(pid)
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	for _, p := range desc {
		_ = syscall.Kill(-p, syscall.SIGKILL) // its group, if it leads one
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}

// descendants lists the processes below pid, from /proc (Linux); none
// where there is no /proc.
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces and parentheses.
		rest := string(stat)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) < 2 {
			continue
		}
		if ppid, err := strconv.Atoi(f[1]); err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}
