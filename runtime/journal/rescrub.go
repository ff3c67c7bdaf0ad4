package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Rescrub rewrites the journal with the secrets known now taken out of
// every event already written. The run calls it when it learns a secret
// after it may have journaled it: a plain text input typed into a password
// field is a secret from then on, but run_started already holds it. Only
// the lines that hold a secret change; the file is replaced through a
// synced temporary file and a rename, so a crash leaves the old journal
// or the new one, never half of each.
func (w *Writer) Rescrub() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	if w.red.set.Len() == 0 {
		return nil
	}
	path := filepath.Join(w.dir, JournalFile)
	old, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	lines := bytes.SplitAfter(old, []byte("\n"))
	changed := false
	for i, line := range lines {
		if len(bytes.TrimSpace(line)) == 0 || !w.red.Contains(string(line)) {
			continue
		}
		fixed, err := w.scrubLine(line)
		if err != nil {
			return err
		}
		lines[i], changed = fixed, true
	}
	if !changed {
		return nil
	}
	tmp := path + ".tmp"
	if err := writeSynced(tmp, bytes.Join(lines, nil)); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("journal: %w", err)
	}
	// The writer appends to the new file from now on.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		w.err = fmt.Errorf("journal: %w", err)
		return w.err
	}
	w.f.Close()
	w.f = f
	return nil
}

// scrubLine redacts the string values of one journal line (a JSON
// object), keeping the event's type and the closed vocabularies of
// outcomes and sources readable.
func (w *Writer) scrubLine(line []byte) ([]byte, error) {
	var ev map[string]any
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	if err := d.Decode(&ev); err != nil {
		return nil, fmt.Errorf("journal: rescrub: %w", err)
	}
	typ, _ := ev["type"].(string)
	delete(ev, "type")
	for k, v := range ev {
		ev[k] = w.scrubAny(v)
	}
	body, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("journal: rescrub: %w", err)
	}
	// The type first, as write puts it.
	t, _ := json.Marshal(typ)
	out := append([]byte(`{"type":`), t...)
	if len(body) > 2 {
		out = append(out, ',')
		out = append(out, body[1:]...)
	} else {
		out = append(out, '}')
	}
	return append(out, '\n'), nil
}

func (w *Writer) scrubAny(v any) any {
	switch v := v.(type) {
	case string:
		if outcomes[Outcome(v)] || sources[Source(v)] {
			return v
		}
		return w.red.String(v)
	case []any:
		for i := range v {
			v[i] = w.scrubAny(v[i])
		}
	case map[string]any:
		for k, x := range v {
			v[k] = w.scrubAny(x)
		}
	}
	return v
}

func writeSynced(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("journal: %w", err)
	}
	return nil
}
