package journal

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"time"
)

// A batch is the rows of one inputs file run as one job: by `run --inputs`
// in this process (Engine "local", Parallel workers) or submitted to
// Temporal (Engine "temporal"). Its record is <root>/batches/<id>/batch.json,
// written once when the batch starts; each row is an ordinary run whose
// journal's first line names the batch (RunStarted.Batch), so a row's
// state is always read from its journals, never from a second copy that
// could disagree with them.

// BatchFile is the name of a batch's record inside its directory.
const BatchFile = "batch.json"

// Batch engines.
const (
	EngineLocal    = "local"
	EngineTemporal = "temporal"
)

// Batch is a batch's record.
type Batch struct {
	ID             string `json:"id"`
	Workflow       string `json:"workflow"` // path of the .cog file, as runs name it
	WorkflowSHA256 string `json:"workflow_sha256,omitempty"`
	Task           string `json:"task"`
	InputsFile     string `json:"inputs_file,omitempty"` // the CSV file the rows come from
	Rows           int    `json:"rows"`                  // data rows in the inputs file
	Parallel       int    `json:"parallel,omitempty"`    // workers (local), 0 when not known
	// Engine is EngineLocal or EngineTemporal.
	Engine  string    `json:"engine"`
	Started time.Time `json:"started"`
	// Temporal locates the batch on a Temporal server; nil for a local batch.
	Temporal *TemporalRef `json:"temporal,omitempty"`
}

// TemporalRef names where a Temporal batch lives.
type TemporalRef struct {
	Address    string `json:"address"` // HOST:PORT of the frontend
	Namespace  string `json:"namespace"`
	TaskQueue  string `json:"task_queue"`
	WorkflowID string `json:"workflow_id"`
}

// batchIDPattern is "batch-" and a run id's form: it sorts by start time,
// and it cannot be taken for a run id (or a run id for it).
var batchIDPattern = regexp.MustCompile(`^batch-[0-9]{8}T[0-9]{6}\.[0-9]{3}Z-[0-9a-f]{4}$`)

// ValidBatchID reports whether id has the form of a batch id. Only such
// ids are turned into paths, so an id can never leave <root>/batches.
func ValidBatchID(id string) bool { return batchIDPattern.MatchString(id) }

// NewBatch assigns b an ID (and a start time when b has none), writes its
// record <root>/batches/<id>/batch.json and returns it.
func NewBatch(root string, b Batch) (*Batch, error) {
	if root == "" {
		return nil, errors.New("journal: no root directory")
	}
	switch {
	case b.Engine != EngineLocal && b.Engine != EngineTemporal:
		return nil, fmt.Errorf("journal: batch engine %q: want %q or %q", b.Engine, EngineLocal, EngineTemporal)
	case (b.Engine == EngineTemporal) != (b.Temporal != nil):
		return nil, errors.New("journal: a batch has a Temporal reference exactly when its engine is temporal")
	case b.Rows < 0 || b.Parallel < 0:
		return nil, fmt.Errorf("journal: batch with %d rows and %d workers", b.Rows, b.Parallel)
	}
	if b.Started.IsZero() {
		b.Started = now()
	}
	dir := filepath.Join(root, "batches")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	id, bdir, err := makeBatchDir(dir, b.Started)
	if err != nil {
		return nil, err
	}
	b.ID = id
	data, err := encodeIndent(b)
	if err != nil {
		return nil, fmt.Errorf("journal: batch: %w", err)
	}
	// Through a temporary file and a rename: a reader sees no record or a
	// whole one.
	tmp := filepath.Join(bdir, "."+BatchFile+".tmp")
	if err := writeFileSync(tmp, data); err != nil {
		return nil, fmt.Errorf("journal: batch: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(bdir, BatchFile)); err != nil {
		return nil, fmt.Errorf("journal: batch: %w", err)
	}
	return &b, nil
}

// makeBatchDir creates a fresh batch directory (see makeRunDir).
func makeBatchDir(dir string, t time.Time) (id, path string, err error) {
	return makeUniqueDir(dir, "batch-", "batch", t)
}

// LoadBatch reads batch id's record under root.
func LoadBatch(root, id string) (*Batch, error) {
	if !ValidBatchID(id) {
		return nil, fmt.Errorf("journal: %q is not a batch id (batch-…)", id)
	}
	data, err := os.ReadFile(filepath.Join(root, "batches", id, BatchFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("journal: no batch %s in %s", id, root)
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var b Batch
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("journal: batch %s: %s: %w", id, BatchFile, err)
	}
	if b.ID != id {
		return nil, fmt.Errorf("journal: batch %s: %s names batch %q", id, BatchFile, b.ID)
	}
	return &b, nil
}

// ListBatches returns the batches under root, newest first. A root without
// batches is an empty list; a record that cannot be read is an error.
func ListBatches(root string) ([]*Batch, error) {
	entries, err := os.ReadDir(filepath.Join(root, "batches"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var out []*Batch
	for _, e := range entries {
		if !e.IsDir() || !ValidBatchID(e.Name()) {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, "batches", e.Name(), BatchFile)); errors.Is(err, fs.ErrNotExist) {
			continue // being created by NewBatch right now
		}
		b, err := LoadBatch(root, e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	slices.SortFunc(out, func(a, b *Batch) int {
		return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.ID, a.ID))
	})
	return out, nil
}

// Row states in RowRun.Status besides the run outcomes (ok, failed,
// interrupted, bad_workflow).
const (
	RowPending    = "pending"    // no run of the row yet
	RowUnfinished = "unfinished" // its latest run has no run_finished: still running, or killed
	RowInDoubt    = "in_doubt"   // unfinished, and the journal leaves a step in doubt (see (*Run).InDoubt)
)

// RowRun is the state of one row of a batch: its latest run.
type RowRun struct {
	Row     int    // 1 for the first data row of the inputs file, as `run` prints it
	RunID   string // the row's latest run; "" when Status is RowPending
	Status  string // a run Outcome, RowPending, RowUnfinished or RowInDoubt
	Failure string // the run's error (redacted as journaled), for failed rows
}

// Done reports whether the row needs no more work: its latest run ended
// ok. A resume of the batch runs every other row (a failed or interrupted
// one is resumed from its journal, so its finished steps are not repeated).
func (r RowRun) Done() bool { return r.Status == string(OK) }

// RowRuns returns the state of each of b's rows, first row first, from
// the journals under root whose first line names b.ID: for each row its
// latest run (a resume of a row is a later run of the same row).
func (b *Batch) RowRuns(root string) ([]RowRun, error) {
	runs, err := List(root) // newest first
	if err != nil {
		return nil, err
	}
	return b.RowRunsIn(root, runs), nil
}

// RowRunsIn is RowRuns over the runs List(root) returned, so that the
// rows of many batches are read from one listing of the runs rather than
// one listing per batch, which reads every run's summary again.
func (b *Batch) RowRunsIn(root string, runs []RunInfo) []RowRun {
	out := make([]RowRun, b.Rows)
	for i := range out {
		out[i] = RowRun{Row: i + 1, Status: RowPending}
	}
	for _, r := range runs {
		row := r.Row + 1 // journals count rows from 0
		if r.Problem != "" || r.Batch != b.ID || row < 1 || row > b.Rows || out[row-1].RunID != "" {
			continue
		}
		rr := RowRun{Row: row, RunID: r.ID, Status: string(r.Outcome)}
		switch {
		case r.Outcome == "":
			rr.Status = RowUnfinished
			if run, err := Load(root, r.ID); err == nil {
				if _, doubt := run.InDoubt(); doubt {
					rr.Status = RowInDoubt
				}
			}
		case r.Outcome != OK:
			rr.Failure = r.Error
		}
		out[row-1] = rr
	}
	return out
}
