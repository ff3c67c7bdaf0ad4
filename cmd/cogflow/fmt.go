package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/cogflow/cogflow/internal/readlimit"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/lang/syntax"
)

func runFmt(c *cli, args []string) int {
	fs := c.newFlags("fmt")
	write := fs.Bool("w", false, "write the result back to each file instead of printing it")
	list := fs.Bool("l", false, "list the files whose layout differs from the canonical one (exit 1 when any)")
	showDiff := fs.Bool("d", false, "print a unified diff of the changes instead of the result (exit 1 when any)")
	files, code, ok := c.parseArgs(fs, args)
	if !ok {
		return code
	}
	if len(files) == 0 {
		fmt.Fprintln(c.stderr, "cogflow fmt: no files given (use - for standard input)")
		return exitUsage
	}
	if *write && slices.Contains(files, "-") {
		fmt.Fprintln(c.stderr, "cogflow fmt: -w cannot write back to standard input")
		return exitUsage
	}
	status := exitOK
	for _, path := range files {
		src, err := c.readSource(path)
		if err != nil {
			status = max(status, c.readError("fmt", err))
			continue
		}
		name := path
		if path == "-" {
			name = "<stdin>"
		}
		f, diags := syntax.Parse(name, src)
		if f == nil {
			diags.Render(c.stderr, func(string) []byte { return src })
			status = max(status, exitBadInput)
			continue
		}
		out := printer.Format(f)
		changed := !bytes.Equal(src, out)
		switch {
		case *list || *showDiff:
			if changed {
				if *list {
					fmt.Fprintln(c.stdout, path)
				}
				if *showDiff {
					c.stdout.Write(unifiedDiff(path, src, out))
				}
				status = max(status, exitBadInput)
			}
			if *write && changed {
				if err := writeFileAtomic(path, out); err != nil {
					status = max(status, c.readError("fmt", err))
				}
			}
		case *write:
			if changed {
				if err := writeFileAtomic(path, out); err != nil {
					status = max(status, c.readError("fmt", err))
				}
			}
		default:
			c.stdout.Write(out)
		}
	}
	return status
}

func (c *cli) readSource(path string) ([]byte, error) {
	if path == "-" {
		return readlimit.Reader(c.stdin, "standard input", "a workflow", maxWorkflowSize)
	}
	return readlimit.File(path, "a workflow", maxWorkflowSize)
}

// writeFileAtomic replaces a file through a temporary file in the same
// folder and a rename, so that an interrupted fmt -w never leaves a half
// written workflow. The file's permissions are kept.
func writeFileAtomic(path string, data []byte) error {
	// Write through a symbolic link to its target, as editors do, rather
	// than replacing the link with a file.
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
