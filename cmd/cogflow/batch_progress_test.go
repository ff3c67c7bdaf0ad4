package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestBatchProgressPlain: to a file or a pipe the progress is plain lines,
// at most one every plainEvery and always one for the last row, with the
// rows done, the failing ones, the rate and the time left.
func TestBatchProgressPlain(t *testing.T) {
	var out bytes.Buffer
	clock := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	p := newBatchProgress(&out, "batch-X", 10, 2, 8)
	p.now = func() time.Time { return clock }
	p.start = clock
	steps := []struct {
		after time.Duration // since the previous row
		code  int
		line  string // the line printed, "" for none
	}{
		{after: 2 * time.Second, code: exitOK, line: "batch batch-X: 3/10 rows done, 0.50 rows/s, ETA 14s"},
		{after: 500 * time.Millisecond, code: exitStepFailed}, // within plainEvery: no line
		{after: 1500 * time.Millisecond, code: exitOK, line: "batch batch-X: 5/10 rows done, 1 failing, 0.75 rows/s, ETA 7s"},
		{after: 1 * time.Second, code: exitInterrupt}, // within plainEvery
		{after: 1 * time.Second, code: exitOK, line: "batch batch-X: 6/10 rows done, 1 failing, 1 interrupted, 0.83 rows/s, ETA 4s"},
		{after: 100 * time.Millisecond, code: exitOK},
		{after: 100 * time.Millisecond, code: exitOK},
		{after: 100 * time.Millisecond, code: exitOK, line: "batch batch-X: 9/10 rows done, 1 failing, 1 interrupted, 1.27 rows/s, ETA 0s"}, // the last row
	}
	for i, st := range steps {
		clock = clock.Add(st.after)
		out.Reset()
		p.rowDone(st.code)
		got := strings.TrimSuffix(out.String(), "\n")
		if got != st.line {
			t.Errorf("row %d: printed %q, want %q", i+1, got, st.line)
		}
	}
	out.Reset()
	p.finish() // nothing more for a plain output
	if out.Len() != 0 {
		t.Errorf("finish printed %q", out.String())
	}
}

// TestBatchProgressLive: on a terminal the line is redrawn in place, and
// a worker's output clears it first and redraws it after.
func TestBatchProgressLive(t *testing.T) {
	var out bytes.Buffer
	p := newBatchProgress(&out, "batch-Y", 4, 0, 4)
	p.live = true
	p.rowDone(exitOK)
	if got := out.String(); !strings.HasPrefix(got, "\r\x1b[Kbatch batch-Y: 1/4 rows done") || strings.Contains(got, "\n") {
		t.Errorf("live line %q", got)
	}
	out.Reset()
	if _, err := p.writer(&out).Write([]byte("row 2: ok: 5 steps\n")); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.HasPrefix(got, "\r\x1b[Krow 2: ok: 5 steps\n\r\x1b[Kbatch batch-Y: 1/4") {
		t.Errorf("a worker's line around the live one: %q", got)
	}
	out.Reset()
	p.finish()
	if got := out.String(); !strings.HasSuffix(got, "\n") {
		t.Errorf("finish leaves %q", got)
	}
}
