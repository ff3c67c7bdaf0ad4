package journal

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestNewBatchRefuses(t *testing.T) {
	tests := []struct {
		name string
		b    Batch
		err  string
	}{
		{name: "no engine", b: Batch{Task: "t", Rows: 2}, err: "engine"},
		{name: "unknown engine", b: Batch{Engine: "k8s", Rows: 2}, err: `engine "k8s"`},
		{name: "temporal without reference", b: Batch{Engine: EngineTemporal, Rows: 2}, err: "Temporal reference"},
		{name: "local with reference", b: Batch{Engine: EngineLocal, Rows: 2, Temporal: &TemporalRef{}}, err: "Temporal reference"},
		{name: "negative rows", b: Batch{Engine: EngineLocal, Rows: -1}, err: "-1 rows"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			_, err := NewBatch(root, tc.b)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("NewBatch: %v, want an error with %q", err, tc.err)
			}
			if _, serr := os.Stat(filepath.Join(root, "batches")); !errors.Is(serr, os.ErrNotExist) {
				t.Errorf("a refused batch left %s/batches behind", root)
			}
		})
	}
	if _, err := NewBatch("", Batch{Engine: EngineLocal}); err == nil {
		t.Error("NewBatch without a root: no error")
	}
}

func TestBatchRecords(t *testing.T) {
	root := t.TempDir()
	if bs, err := ListBatches(root); err != nil || len(bs) != 0 {
		t.Fatalf("ListBatches of an empty root: %v, %v", bs, err)
	}
	local := Batch{Workflow: "w.cog", WorkflowSHA256: "ab12", Task: "t", InputsFile: "rows.csv", Rows: 40, Parallel: 4,
		Engine: EngineLocal, Started: t0}
	remote := Batch{Workflow: "w.cog", Task: "t", InputsFile: "rows.csv", Rows: 3, Engine: EngineTemporal, Started: t0.Add(time.Minute),
		Temporal: &TemporalRef{Address: "127.0.0.1:7233", Namespace: "default", TaskQueue: "cogflow", WorkflowID: "wf-1"}}
	var made []*Batch
	for _, b := range []Batch{local, remote} {
		nb, err := NewBatch(root, b)
		must(t, err)
		if !ValidBatchID(nb.ID) || ValidID(nb.ID) {
			t.Fatalf("batch id %q: want a batch id that is not a run id", nb.ID)
		}
		b.ID = nb.ID
		if !reflect.DeepEqual(*nb, b) {
			t.Errorf("NewBatch returned %+v, want %+v", *nb, b)
		}
		got, err := LoadBatch(root, nb.ID)
		must(t, err)
		if !reflect.DeepEqual(got, nb) {
			t.Errorf("LoadBatch = %+v, want %+v", got, nb)
		}
		made = append(made, nb)
	}
	list, err := ListBatches(root)
	must(t, err)
	if len(list) != 2 || list[0].ID != made[1].ID || list[1].ID != made[0].ID {
		t.Errorf("ListBatches: want the newest first, got %v", list)
	}

	for _, tc := range []struct{ id, err string }{
		{"../runs", "not a batch id"},
		{"20261123T011530.123Z-1f0c", "not a batch id"}, // a run id
		{"batch-20261123T011530.123Z-0000", "no batch"},
	} {
		if _, err := LoadBatch(root, tc.id); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("LoadBatch(%q): %v, want %q", tc.id, err, tc.err)
		}
	}
	// A damaged record is an error naming it, for LoadBatch and ListBatches.
	must(t, os.WriteFile(filepath.Join(root, "batches", made[0].ID, BatchFile), []byte("{"), 0o644))
	if _, err := ListBatches(root); err == nil || !strings.Contains(err.Error(), made[0].ID) {
		t.Errorf("ListBatches with a damaged record: %v", err)
	}
}

func TestRowRuns(t *testing.T) {
	setClock(t, t0, time.Second)
	root := t.TempDir()
	b, err := NewBatch(root, Batch{Workflow: "examples/t.cog", Task: "t", Rows: 6, Parallel: 2, Engine: EngineLocal})
	must(t, err)
	other, err := NewBatch(root, Batch{Workflow: "examples/t.cog", Task: "t", Rows: 6, Engine: EngineLocal})
	must(t, err)
	row := func(batch string, r int) RunMeta {
		m := meta("t")
		m.Batch, m.Row = batch, r-1
		return m
	}
	// row 1: ok
	w := mustOpen(t, root, row(b.ID, 1))
	must(t, w.Step(StepEvent{Task: "t", Step: "op1", Op: "click"}))
	must(t, w.Finish("", nil))
	ok1 := w.ID()
	// row 2: failed
	w = mustOpen(t, root, row(b.ID, 2))
	must(t, w.Finish("", errors.New("step op2 failed: no button Send")))
	failed2 := w.ID()
	// row 3: interrupted, then resumed to the end: the resume is its state
	w = mustOpen(t, root, row(b.ID, 3))
	must(t, w.Interrupted(Position{Task: "t", Step: "op2"}))
	must(t, w.Finish(Interrupted, errors.New("interrupted")))
	m := row(b.ID, 3)
	m.Resume = w.ID()
	w = mustOpen(t, root, m)
	must(t, w.Finish("", nil))
	resumed3 := w.ID()
	// row 4: killed while a click acted
	w = mustOpen(t, root, row(b.ID, 4))
	must(t, w.Intent(Intent{Task: "t", Step: "op1", Op: "click"}))
	w.f.Close()
	doubt4 := w.ID()
	// row 5: killed between steps
	w = mustOpen(t, root, row(b.ID, 5))
	must(t, w.Step(StepEvent{Task: "t", Step: "op1", Op: "click"}))
	w.f.Close()
	killed5 := w.ID()
	// row 6 has no run of this batch; runs of another batch, of no batch
	// and out of range do not count.
	for _, m := range []RunMeta{row(other.ID, 6), row("", 6), row(b.ID, 7), row(b.ID, 0)} {
		w = mustOpen(t, root, m)
		must(t, w.Finish("", nil))
	}

	got, err := b.RowRuns(root)
	must(t, err)
	want := []RowRun{
		{Row: 1, RunID: ok1, Status: "ok"},
		{Row: 2, RunID: failed2, Status: "failed", Failure: "step op2 failed: no button Send"},
		{Row: 3, RunID: resumed3, Status: "ok"},
		{Row: 4, RunID: doubt4, Status: RowInDoubt},
		{Row: 5, RunID: killed5, Status: RowUnfinished},
		{Row: 6, Status: RowPending},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RowRuns:\n got %+v\nwant %+v", got, want)
	}
	var done []int
	for _, r := range got {
		if r.Done() {
			done = append(done, r.Row)
		}
	}
	if !reflect.DeepEqual(done, []int{1, 3}) {
		t.Errorf("done rows %v, want [1 3]", done)
	}
}
