package adbtest

import (
	"bytes"
	"fmt"
	"io"
	"path"
)

// proc is what a simulated command runs with.
type proc struct {
	dev    *device
	stdin  []byte
	stdout io.Writer
	stderr io.Writer
	// hangup closes when the client goes away or the server drops the
	// connection; commands that wait (sleep, getevent) stop then.
	hangup <-chan struct{}
}

// command is a simulated program: it gets argv (argv[0] is its name) and
// returns the exit status.
type command func(p *proc, args []string) int

// runShell runs a shell: or exec: command line on dev, writing to stdout
// and stderr (the same writer for the v1 shell, which merges them), and
// returns the exit status.
func runShell(dev *device, line string, stdout, stderr io.Writer, hangup <-chan struct{}) int {
	pipes, err := parseCommandLine(line)
	if err != nil {
		fmt.Fprintf(stderr, "/system/bin/sh: %v\n", err)
		return 2
	}
	status := 0
	for i, p := range pipes {
		if i > 0 {
			prev := pipes[i-1].op
			if prev == "&&" && status != 0 || prev == "||" && status == 0 {
				continue
			}
		}
		status = runPipeline(dev, p, stdout, stderr, hangup)
	}
	return status
}

// runPipeline runs the stages one after another, each reading the previous
// one's whole output; only the last writes straight to out, which is what
// lets `getevent -lt` stream.
func runPipeline(dev *device, pl *pipeline, out, stderr io.Writer, hangup <-chan struct{}) int {
	var input []byte
	status := 0
	for i, st := range pl.stages {
		p := &proc{dev: dev, stdin: input, stderr: stderr, hangup: hangup}
		if st.stdin != "" {
			b, ok := dev.readFile(st.stdin)
			if !ok {
				fmt.Fprintf(stderr, "/system/bin/sh: can't open '%s': No such file or directory\n", st.stdin)
				return 1
			}
			p.stdin = b
		}
		if st.errNull {
			p.stderr = io.Discard
		}
		var buf bytes.Buffer
		last := i == len(pl.stages)-1
		if last && st.stdout == "" {
			p.stdout = out
		} else {
			p.stdout = &buf
		}
		status = runCommand(p, st.args)
		if st.stdout != "" {
			dev.writeFile(st.stdout, buf.Bytes(), st.appendTo)
			buf.Reset()
		}
		input = buf.Bytes()
	}
	return status
}

// runCommand finds and runs the program args[0]; a path such as
// /system/bin/input runs the same program as input.
func runCommand(p *proc, args []string) int {
	name := path.Base(args[0])
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(p.stderr, "/system/bin/sh: %s: inaccessible or not found\n", args[0])
		return 127
	}
	return cmd(p, args)
}
