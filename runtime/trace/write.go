package trace

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Marshal encodes a valid trace in the canonical form: two-space
// indentation, fields in the order of the Go types (the order
// docs/trace-format.md lists them), map keys sorted, empty optional
// fields left out, characters like < and & unescaped, a final newline. An
// invalid trace is not encoded: the error is Validate's.
func Marshal(t *Trace) ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, err
	}
	c := *t
	if c.Events == nil {
		c.Events = []Event{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&c); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Write writes a valid trace in the canonical form (see Marshal).
func Write(w io.Writer, t *Trace) error {
	data, err := Marshal(t)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// Save writes a valid trace to path through a temporary file in the same
// folder, renamed into place: a reader never sees half a trace, and an
// existing file is kept when writing fails.
func Save(path string, t *Trace) error {
	data, err := Marshal(t)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
