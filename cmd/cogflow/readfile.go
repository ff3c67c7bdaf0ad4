package main

import (
	"fmt"
	"io"
	"os"
)

// Size limits, one per kind of file the command line reads whole (traces
// and recordings have theirs in runtime/trace). Each is
// far above any real file of its kind and far below what would exhaust
// memory; a file past its limit (or one that never ends, such as
// /dev/zero) is refused with an error naming the file and the limit.
const (
	maxWorkflowSize  = 8 << 20  // a .cog file
	maxInputsCSVSize = 64 << 20 // run --inputs
	maxInputFileSize = 1 << 20  // run --input-file: one value
)

// readFileLimited reads the file at path whole, refusing more than limit
// bytes. kind says what the file is for in the error ("a workflow").
func readFileLimited(path, kind string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// A regular file too large is refused before reading it; anything
	// else (a device, a pipe) is read through the limit below.
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, tooLarge(path, kind, limit)
	}
	return readLimited(f, path, kind, limit)
}

// readLimited reads r to its end, refusing more than limit bytes; name is
// what the error calls the stream (a path, "standard input").
func readLimited(r io.Reader, name, kind string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, kind, limit)
	}
	return data, nil
}

func tooLarge(name, kind string, limit int64) error {
	return fmt.Errorf("%s: larger than %s, the limit for %s", name, byteSize(limit), kind)
}

// byteSize writes a limit the way people read it: 8 MiB, 512 KiB.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
