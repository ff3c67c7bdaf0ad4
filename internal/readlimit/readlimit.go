// Package readlimit reads whole files and streams up to a size limit, so
// that a huge file (or one that never ends, such as /dev/zero) is refused
// with an error naming it and the limit instead of exhausting memory.
package readlimit

import (
	"fmt"
	"io"
	"os"
)

// File reads the file at path whole, refusing more than limit
// bytes. kind says what the file is for in the error ("a workflow").
func File(path, kind string, limit int64) ([]byte, error) {
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
	return Reader(f, path, kind, limit)
}

// Reader reads r to its end, refusing more than limit bytes; name is
// what the error calls the stream (a path, "standard input").
func Reader(r io.Reader, name, kind string, limit int64) ([]byte, error) {
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

// MaxWorkflowSize is the limit for a .cog file: far above any real one.
const MaxWorkflowSize = 8 << 20
