package main

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/journal"
)

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in      string
		want    time.Time
		wantErr string
	}{
		{"90m", now.Add(-90 * time.Minute), ""},
		{"36h", now.Add(-36 * time.Hour), ""},
		{"7d", now.Add(-7 * 24 * time.Hour), ""},
		{"0d", now, ""},
		{"2026-11-20", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), ""},
		{"2026-11-20T08:30", time.Date(2026, 11, 20, 8, 30, 0, 0, time.UTC), ""},
		{"2026-11-20 08:30:05", time.Date(2026, 11, 20, 8, 30, 5, 0, time.UTC), ""},
		{"2026-11-20T08:30:00+02:00", time.Date(2026, 11, 20, 6, 30, 0, 0, time.UTC), ""},
		{"-5m", time.Time{}, "must not be negative"},
		{"-7d", time.Time{}, "must not be negative"},
		{"36500d", now.Add(-36500 * 24 * time.Hour), ""},
		{"200000d", time.Time{}, "too far back"}, // would overflow a duration
		{"99999999999999999999d", time.Time{}, "too far back"},
		{"yesterday", time.Time{}, "want a duration"},
		{"7days", time.Time{}, "want a duration"},
		{"2026-13-01", time.Time{}, "want a duration"},
	}
	for _, tt := range tests {
		got, err := parseSince(tt.in, now)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseSince(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestKeepRun(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	run := func(outcome journal.Outcome, started time.Time, wf string) journal.RunInfo {
		return journal.RunInfo{Summary: journal.Summary{Outcome: outcome, Started: started, Workflow: wf}}
	}
	unreadable := journal.RunInfo{Summary: journal.Summary{ID: "x"}, Problem: "line 3: bad JSON"}
	tests := []struct {
		name string
		f    runFilter
		r    journal.RunInfo
		want bool
	}{
		{"no filter keeps ok", runFilter{}, run(journal.OK, t0, "a.cog"), true},
		{"failed drops ok", runFilter{failed: true}, run(journal.OK, t0, "a.cog"), false},
		{"failed keeps failed", runFilter{failed: true}, run(journal.Failed, t0, "a.cog"), true},
		{"failed keeps interrupted", runFilter{failed: true}, run(journal.Interrupted, t0, "a.cog"), true},
		{"failed keeps killed", runFilter{failed: true}, run("", t0, "a.cog"), true},
		{"failed keeps bad workflow", runFilter{failed: true}, run(journal.BadWorkflow, t0, "a.cog"), true},
		{"failed keeps unreadable", runFilter{failed: true}, unreadable, true},
		{"since keeps later", runFilter{since: t0}, run(journal.OK, t0.Add(time.Second), "a.cog"), true},
		{"since keeps equal", runFilter{since: t0}, run(journal.OK, t0, "a.cog"), true},
		{"since drops earlier", runFilter{since: t0}, run(journal.OK, t0.Add(-time.Second), "a.cog"), false},
		{"since drops unreadable", runFilter{since: t0}, unreadable, false},
		{"workflow same", runFilter{workflow: "a.cog"}, run(journal.OK, t0, "a.cog"), true},
		{"workflow cleaned", runFilter{workflow: "./dir/../a.cog"}, run(journal.OK, t0, "a.cog"), true},
		{"workflow other", runFilter{workflow: "b.cog"}, run(journal.OK, t0, "a.cog"), false},
		{"all three", runFilter{failed: true, since: t0, workflow: "a.cog"}, run(journal.Failed, t0, "a.cog"), true},
		{"all three, one fails", runFilter{failed: true, since: t0, workflow: "b.cog"}, run(journal.Failed, t0, "a.cog"), false},
	}
	for _, tt := range tests {
		if got := tt.f.keepRun(tt.r); got != tt.want {
			t.Errorf("%s: keepRun = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestKeepBatch(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	b := &journal.Batch{Workflow: "a.cog", Started: t0}
	rows := func(states ...string) rowTally {
		var rr []journal.RowRun
		for i, s := range states {
			rr = append(rr, journal.RowRun{Row: i + 1, Status: s})
		}
		return tallyRows(rr)
	}
	ok, failed, doubt, pending := string(journal.OK), string(journal.Failed), journal.RowInDoubt, journal.RowPending
	tests := []struct {
		name string
		f    runFilter
		t    rowTally
		want bool
		line string
	}{
		{"all ok", runFilter{}, rows(ok, ok), true, "2 ok, 0 failed, 0 in doubt, 0 not run"},
		{"failed drops all ok", runFilter{failed: true}, rows(ok, ok), false, ""},
		{"failed drops not run only", runFilter{failed: true}, rows(ok, pending), false, "1 ok, 0 failed, 0 in doubt, 1 not run"},
		{"failed keeps a failed row", runFilter{failed: true}, rows(ok, failed, pending), true, "1 ok, 1 failed, 0 in doubt, 1 not run"},
		{"failed keeps in doubt", runFilter{failed: true}, rows(doubt), true, "0 ok, 0 failed, 1 in doubt, 0 not run"},
		{"failed keeps stopped", runFilter{failed: true}, rows(string(journal.Interrupted), journal.RowUnfinished), true, "0 ok, 0 failed, 0 in doubt, 0 not run, 2 stopped"},
		{"since drops earlier", runFilter{since: t0.Add(time.Minute)}, rows(ok), false, ""},
		{"workflow other", runFilter{workflow: "b.cog"}, rows(failed), false, ""},
		{"workflow same", runFilter{workflow: "a.cog"}, rows(failed), true, ""},
	}
	for _, tt := range tests {
		if got := tt.f.keepBatch(b, tt.t); got != tt.want {
			t.Errorf("%s: keepBatch = %v, want %v", tt.name, got, tt.want)
		}
		if tt.line != "" && tt.t.String() != tt.line {
			t.Errorf("%s: summary %q, want %q", tt.name, tt.t.String(), tt.line)
		}
	}
}

// TestRunsFilters lists real journals and a batch record through the
// command: the filters pick the lines, and the batch has its summary line.
func TestRunsFilters(t *testing.T) {
	root := t.TempDir()
	journaled := func(wf string, batch string, row int, err error) string {
		w, oerr := journal.Open(root, journal.RunMeta{Workflow: wf, Task: "t", Row: row, Batch: batch})
		if oerr != nil {
			t.Fatal(oerr)
		}
		if ferr := w.Finish("", err); ferr != nil {
			t.Fatal(ferr)
		}
		return w.ID()
	}
	okA := journaled("a.cog", "", -1, nil)
	failB := journaled("b.cog", "", -1, errors.New("step op2 failed"))
	b, err := journal.NewBatch(root, journal.Batch{Workflow: "a.cog", Task: "t", Rows: 3, Parallel: 2, Engine: journal.EngineLocal})
	if err != nil {
		t.Fatal(err)
	}
	row1 := journaled("a.cog", b.ID, 0, nil)
	row2 := journaled("a.cog", b.ID, 1, errors.New("step op3 failed"))
	tests := []struct {
		args         []string
		want, absent []string
	}{
		{nil, []string{okA, failB, row1, row2, b.ID + "  ", "3 rows: 1 ok, 1 failed, 0 in doubt, 1 not run", "local ×2"}, nil},
		{[]string{"--failed"}, []string{failB, row2, b.ID}, []string{okA, row1}},
		{[]string{"--workflow", "b.cog"}, []string{failB}, []string{okA, row1, b.ID}},
		{[]string{"--workflow", "./a.cog", "--failed"}, []string{row2, b.ID}, []string{okA, failB, row1}},
		{[]string{"--since", "1h"}, []string{okA, failB, b.ID}, nil},
		{[]string{"--since", "2099-01-01"}, []string{"no matching runs in"}, []string{okA, b.ID}},
	}
	for _, tt := range tests {
		r := runCLI(t, "", append([]string{"runs", "--dir", root}, tt.args...)...)
		if r.code != exitOK {
			t.Fatalf("runs %v: exit %d\n%s", tt.args, r.code, r.stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(r.stdout, w) {
				t.Errorf("runs %v lacks %q:\n%s", tt.args, w, r.stdout)
			}
		}
		for _, a := range tt.absent {
			if strings.Contains(r.stdout, a) {
				t.Errorf("runs %v shows %q:\n%s", tt.args, a, r.stdout)
			}
		}
	}
	if r := runCLI(t, "", "runs", "--dir", root, "--since", "soon"); r.code != exitUsage || !strings.Contains(r.stderr, "want a duration") {
		t.Errorf("bad --since: exit %d, %s", r.code, r.stderr)
	}
}
