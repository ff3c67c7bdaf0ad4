// Package temporalrun runs a batch of workflow rows on Temporal: the batch
// and row workflows, the activity that runs one row in one browser on one
// worker, the heartbeats that carry the row's journal progress to the
// server, the rule that decides on another worker whether a row whose
// worker died may run again, and the payload codec that keeps secrets out
// of Temporal's event history.
//
// It sits beside cmd/cogflow rather than under runtime/ because it drives
// whole runs through package cogflow (Workflow.Run, the resume's
// settlement), which runtime/ packages must not import; it is internal
// because only the cogflow command uses it.
package temporalrun

import (
	"fmt"
	"time"
)

// Names registered with Temporal. They are part of the wire contract
// between submitters and workers: a rename strands running batches.
const (
	BatchWorkflowName = "cogflow.batch"
	RowWorkflowName   = "cogflow.row"
	RunRowActivity    = "cogflow.run-row"
	// QueryRows is the batch workflow's query: the rows' states.
	QueryRows = "rows"
	// DefaultTaskQueue is the task queue when none is given.
	DefaultTaskQueue = "cogflow"
)

// Row statuses in RowResult.Status besides the journal's outcomes (ok,
// failed, interrupted, bad_workflow).
const (
	StatusPending  = "pending"   // its row workflow has not finished
	StatusInDoubt  = "in_doubt"  // its worker died after a step with an effect beyond the browser started; not run again
	StatusSkipped  = "skipped"   // in doubt, and the policy said skip: counted as done, not run again
	StatusCanceled = "cancelled" // cogflow cancel stopped it between steps
)

// Batch is what cogflow submit hands to the batch workflow. It carries the
// .cog text and every row, so a deploy of a new file mid-batch changes
// nothing for it.
type Batch struct {
	ID       string // the batch record's id (journal.NewBatch), named by every row's journal
	Workflow string // the .cog file's path as submitted: the journals name it
	Source   []byte // the .cog text
	Task     string
	Rows     []map[string]string
	Settings Settings
}

// Settings are a batch's run settings, the same for every row.
type Settings struct {
	// InDoubt is --in-doubt: skip, redo, ask or "" (the step's own
	// in_doubt:, else ask: a worker has nobody to ask, so the row is
	// reported in doubt).
	InDoubt     string
	Yes         bool // confirm steps are confirmed (a worker has nobody to ask)
	Screenshots bool
	// RowTimeout bounds one row (the activity's start-to-close time-out);
	// HeartbeatTimeout is how long a worker may be silent before its row
	// goes to another worker.
	RowTimeout       time.Duration
	HeartbeatTimeout time.Duration
	// Attempts bounds how often a row is started (workers dying, browsers
	// crashing); 0: 5.
	Attempts int
}

// Row is one row's input: the batch's text and settings and its values.
type Row struct {
	Batch    string
	Workflow string
	Source   []byte
	Task     string
	Row      int // 1 for the first data row
	Inputs   map[string]string
	Settings Settings
}

// RowResult is how a row ended, as its row workflow returns it and the
// batch workflow's query reports it. Failure is redacted.
type RowResult struct {
	Row     int    `json:"row"`
	Status  string `json:"status"`
	RunID   string `json:"run_id,omitempty"` // the journal of the run that ended it
	Failure string `json:"failure,omitempty"`
	Worker  string `json:"worker,omitempty"`
	Attempt int    `json:"attempt,omitempty"`
}

// RowWorkflowID is the id of a row's workflow: the batch's id, a slash and
// the row, so `temporal workflow list` groups them.
func RowWorkflowID(batchWorkflowID string, row int) string {
	return fmt.Sprintf("%s/row-%d", batchWorkflowID, row)
}

func (s Settings) withDefaults() Settings {
	if s.RowTimeout <= 0 {
		s.RowTimeout = time.Hour
	}
	if s.HeartbeatTimeout <= 0 {
		s.HeartbeatTimeout = 30 * time.Second
	}
	if s.Attempts <= 0 {
		s.Attempts = 5
	}
	return s
}
