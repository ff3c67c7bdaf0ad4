package trace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
)

// Read decodes and validates a trace. The error is a *VersionError when
// the file is not version 1, an *Error (with the JSON path) when the JSON
// does not have the trace's structure — invalid JSON, an unknown or
// missing field, a value of the wrong type — and Errors, every problem
// found, when the structure is right but the content is not.
func Read(r io.Reader) (*Trace, error) {
	data, err := readLimited(r, MaxSize, "a trace")
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Size limits: far above any real file of the kind, far below what would
// exhaust memory. A longer input, or one that never ends (/dev/zero), is
// refused rather than read whole.
const (
	// MaxSize is the largest trace Read and Load accept.
	MaxSize = 128 << 20
	// MaxRecordingSize is the largest recording FromDevTools accepts.
	MaxRecordingSize = 16 << 20
)

// readLimited reads r to its end, refusing more than limit bytes; kind
// names what is read in the error.
func readLimited(r io.Reader, limit int64, kind string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", kind, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d MiB, the limit for %s", limit>>20, kind)
	}
	return data, nil
}

// Parse is Read for a trace already in memory.
func Parse(data []byte) (*Trace, error) {
	t := new(Trace)
	if err := decodeStrict(data, t); err != nil {
		// A file of another format or version fails on that, not on a
		// field it has and this version does not know.
		if herr := checkHead(data); herr != nil {
			return nil, herr
		}
		return nil, err
	}
	if t.Format != Format || t.Version != Version {
		if herr := checkHead(data); herr != nil {
			return nil, herr
		}
	}
	t.normalize()
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// Load reads the trace file at path; errors begin with the path.
func Load(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readLimited(f, MaxSize, "a trace")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	t, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// checkHead looks at the format marker and the version before anything
// else, so that a trace of another version fails on its version, not on a
// field this version does not know.
func checkHead(data []byte) error {
	var head map[string]json.RawMessage
	if err := json.Unmarshal(data, &head); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return jpath("$").errorf("a trace is a JSON object, not %s", article(te.Value))
		}
		return nil // invalid JSON: decodeStrict says where
	}
	if head == nil {
		return jpath("$").errorf("a trace is a JSON object, not null")
	}
	raw, ok := head["format"]
	if !ok {
		if _, ok := head["steps"]; ok {
			return jpath("$").errorf("not a cogflow trace: this looks like a Chrome DevTools Recorder recording; convert it with `cogflow import`")
		}
		return jpath("$.format").errorf("missing: not a cogflow trace (a trace begins with \"format\": %q, \"version\": %d)", Format, Version)
	}
	var f string
	if json.Unmarshal(raw, &f) != nil || f != Format {
		return jpath("$.format").errorf("not a cogflow trace: format is %s, want %q", bytes.TrimSpace(raw), Format)
	}
	raw, ok = head["version"]
	if !ok {
		return &VersionError{Missing: true}
	}
	raw = bytes.TrimSpace(raw)
	n, err := strconv.Atoi(string(raw))
	if err != nil {
		return &VersionError{Raw: string(raw)}
	}
	if n != Version {
		return &VersionError{Version: n}
	}
	return nil
}

func article(what string) string {
	switch what {
	case "array", "object":
		return "an " + what
	case "bool":
		return "a boolean"
	}
	return "a " + what
}

// normalize drops empty optional collections, so that a trace reads the
// same whether a writer left them out or wrote them empty.
func (t *Trace) normalize() {
	if len(t.Snapshots) == 0 {
		t.Snapshots = nil
	}
	if len(t.Screenshots) == 0 {
		t.Screenshots = nil
	}
	for id, s := range t.Snapshots {
		if len(s.Elements) == 0 && s.Elements != nil {
			s.Elements = nil
			t.Snapshots[id] = s
		}
	}
	for i := range t.Events {
		tg := t.Events[i].Target
		if tg == nil {
			continue
		}
		if len(tg.Selectors) == 0 {
			tg.Selectors = nil
		}
		if c := tg.Context; c != nil {
			if len(c.SiblingTexts) == 0 {
				c.SiblingTexts = nil
			}
			if c.List != nil && len(c.List.ItemTexts) == 0 {
				c.List.ItemTexts = nil
			}
		}
	}
}
