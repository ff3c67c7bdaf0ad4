//go:build unix

package main

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/internal/temporalrun"
	"github.com/cogflow/cogflow/runtime/journal"
)

// A worker killed while its Submit acts leaves the row in doubt: the other
// worker reports it, naming the step, and does not submit it again. Then
// `cogflow cancel` stops a second batch between steps.
func TestTemporalInDoubtAndCancel(t *testing.T) {
	c := newCluster(t)
	cog := c.workflow()
	workers := map[string]*proc{"w1": c.worker("w1"), "w2": c.worker("w2")}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Second)
	defer cancel()

	// In doubt: entry 3's post is held while its Submit acts.
	const held = 3
	csvA, _ := c.rows(1, 6)
	reached, release := c.site.HoldEntryPost(held)
	defer release()
	done := make(chan result, 1)
	go func() { done <- c.submit(ctx, cog, csvA, "--wait") }()
	select {
	case <-reached:
	case r := <-done:
		t.Fatalf("the batch ended before entry %d was posted: %+v", held, r)
	case <-ctx.Done():
		t.Fatal("entry 3 was never posted")
	}
	victim := rowWorker(t, workers, held)
	workers[victim].kill(syscall.SIGKILL)
	delete(workers, victim)
	release()
	r := <-done
	if r.code != exitStepFailed || !strings.Contains(r.stdout, fmt.Sprintf("row %d: in_doubt", held)) || !strings.Contains(r.stdout, "step op4 (line 11, click)") {
		t.Fatalf("submit --wait: exit %d, want 3 with row %d in doubt at op4\n%s%s", r.code, held, r.stdout, r.stderr)
	}
	posted := map[int]int{}
	for _, e := range c.site.Entries() {
		posted[e.N]++
	}
	for n := 1; n <= 6; n++ {
		// The held post may or may not have reached the site before its
		// browser died (that is what in doubt means); the row was not run
		// again, so it is there at most once.
		if posted[n] != 1 && !(n == held && posted[n] == 0) {
			t.Errorf("entry %d posted %d times, want once", n, posted[n])
		}
	}

	// Cancel: a batch of 30 is stopped after a few rows.
	csvB, _ := c.rows(101, 130)
	sub := c.submit(ctx, cog, csvB)
	if sub.code != exitOK {
		t.Fatalf("submit: exit %d\n%s", sub.code, sub.stderr)
	}
	batchID := strings.TrimSpace(sub.stdout)
	for deadline := time.Now().Add(60 * time.Second); countFrom(c.site, 101) < 2; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no rows of the second batch were posted")
		}
	}
	if r := runWith(ctx, "", "cancel", batchID, "--dir", c.root); r.code != exitOK {
		t.Fatalf("cancel: exit %d\n%s", r.code, r.stderr)
	}
	b := loadBatch(t, c.root, batchID)
	cl, _, err := temporalrun.Dial(ctx, temporalrun.Conn{Address: c.addr, Quiet: true})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if _, err := temporalrun.Wait(ctx, cl, b.Temporal.WorkflowID); err == nil || !strings.Contains(err.Error(), "cancel") {
		t.Fatalf("the cancelled batch ended with %v, want a cancellation", err)
	}
	rows, err := temporalrun.Rows(ctx, cl, b.Temporal.WorkflowID, b.Rows)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]int{}
	for _, row := range rows {
		states[row.Status]++
	}
	n := countFrom(c.site, 101)
	// A row whose Submit had started finishes; the others stop before it.
	if states["ok"] != n || states["running"] != 0 || states["ok"]+states[temporalrun.StatusCanceled]+states[temporalrun.StatusPending] != 30 || n >= 30 {
		t.Errorf("after cancel: %d entries posted, row states %v", n, states)
	}
	for _, e := range c.site.Entries() {
		posted[e.N]++
	}
	for k, v := range posted {
		if k > 100 && v > 1 {
			t.Errorf("entry %d posted %d times", k, v)
		}
	}
	t.Logf("cancel: %d of 30 rows ran, states %v", n, states)
}

func countFrom(s interface{ Entries() []site.Entry }, from int) int {
	n := 0
	for _, e := range s.Entries() {
		if e.N >= from {
			n++
		}
	}
	return n
}

func loadBatch(t *testing.T, root, id string) *journal.Batch {
	t.Helper()
	b, err := journal.LoadBatch(root, id)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
