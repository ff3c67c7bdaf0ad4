package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

// runFilter is what `cogflow runs --failed --since --workflow` keeps.
type runFilter struct {
	failed   bool      // only runs (and batches) that did not end ok
	since    time.Time // only those started at or after; zero: all
	workflow string    // only those of this workflow file; "": all
}

// maxSinceDays is the most days --since takes (about 290 years would
// overflow a time.Duration).
const maxSinceDays = 100_000

// parseSince reads --since: a duration back from now (90m, 36h, 7d) or a
// date, 2026-11-25, 2026-11-25T10:00, 2026-11-25 10:00:05 or RFC 3339. A
// date without a zone is UTC, as `cogflow runs` prints times.
func parseSince(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	negative := fmt.Errorf("--since %s: a duration back from now must not be negative", s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		if n, err := strconv.ParseInt(days, 10, 64); err == nil || errors.Is(err, strconv.ErrRange) {
			switch {
			case strings.HasPrefix(days, "-"):
				return time.Time{}, negative
			case err != nil || n > maxSinceDays:
				// More days than a time.Duration holds would wrap around.
				return time.Time{}, fmt.Errorf("--since %s: too far back (at most %dd); give a date instead", s, maxSinceDays)
			}
			return now.Add(-time.Duration(n) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return time.Time{}, negative
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02 15:04:05"} {
		if t, err := time.ParseInLocation(layout, s, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("--since %q: want a duration (90m, 36h, 7d) or a date (2026-11-25, 2026-11-25T10:00, RFC 3339)", s)
}

// sameWorkflow reports whether a journaled workflow path names the file
// the person gave: the same path once cleaned, or the same absolute path
// from the current folder.
func sameWorkflow(journaled, given string) bool {
	if filepath.Clean(journaled) == filepath.Clean(given) {
		return true
	}
	a, err1 := filepath.Abs(journaled)
	b, err2 := filepath.Abs(given)
	return err1 == nil && err2 == nil && a == b
}

// keepRun applies the filter to one line of `cogflow runs`. A run that
// did not end ok is failed, interrupted, killed (or still running), had
// a bad workflow, or cannot be read.
func (f runFilter) keepRun(r journal.RunInfo) bool {
	if f.failed && r.Problem == "" && r.Outcome == journal.OK {
		return false
	}
	if !f.since.IsZero() && (r.Problem != "" || r.Started.Before(f.since)) {
		return false
	}
	if f.workflow != "" && (r.Problem != "" || !sameWorkflow(r.Workflow, f.workflow)) {
		return false
	}
	return true
}

// rowTally counts a batch's rows by state.
type rowTally struct{ ok, failed, inDoubt, notRun, stopped int }

func tallyRows(rows []journal.RowRun) rowTally {
	var t rowTally
	for _, r := range rows {
		switch r.Status {
		case string(journal.OK):
			t.ok++
		case string(journal.Failed), string(journal.BadWorkflow):
			t.failed++
		case journal.RowInDoubt:
			t.inDoubt++
		case journal.RowPending:
			t.notRun++
		default: // interrupted, unfinished (killed or still running)
			t.stopped++
		}
	}
	return t
}

func (t rowTally) String() string {
	s := fmt.Sprintf("%d ok, %d failed, %d in doubt, %d not run", t.ok, t.failed, t.inDoubt, t.notRun)
	if t.stopped > 0 {
		s += fmt.Sprintf(", %d stopped", t.stopped)
	}
	return s
}

// keepBatch applies the filter to a batch: --failed keeps a batch with a
// row that failed, is in doubt or stopped (a row not run yet is not a
// failure).
func (f runFilter) keepBatch(b *journal.Batch, t rowTally) bool {
	if f.failed && t.failed+t.inDoubt+t.stopped == 0 {
		return false
	}
	if !f.since.IsZero() && b.Started.Before(f.since) {
		return false
	}
	return f.workflow == "" || sameWorkflow(b.Workflow, f.workflow)
}

// batchSummary is one batch's line of `cogflow runs`.
type batchSummary struct {
	b     *journal.Batch
	tally rowTally
}

// renderBatches writes one summary line per batch.
func renderBatches(w io.Writer, batches []batchSummary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "BATCH\tSTARTED\tENGINE\tROWS\tTASK\tWORKFLOW")
	for _, s := range batches {
		engine := s.b.Engine
		if s.b.Parallel > 0 {
			engine += fmt.Sprintf(" ×%d", s.b.Parallel)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d rows: %s\t%s\t%s\n", s.b.ID, s.b.Started.UTC().Format("2006-01-02 15:04:05"),
			engine, s.b.Rows, s.tally, s.b.Task, s.b.Workflow)
	}
	return tw.Flush()
}
