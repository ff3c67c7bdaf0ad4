package browser

import (
	"context"
	"fmt"
	"time"
)

// settle waits, after an action, until the page is stable: no pending
// navigation, the document complete, no fetch/XHR in flight and an
// animation frame without DOM mutations (skipped when nothing changed since
// mark and no frame callback is pending). It is one evaluation, run after
// the batch pre (operations that finish the action in the page); a
// navigation that replaces the document makes it wait in the new one.
func (d *Driver) settle(ctx context.Context, t *tab, mark int, pre ...op) error {
	batch := append(pre, op{"op": "stable", "ms": remaining(ctx), "mark": mark})
	for {
		var res struct {
			OK  bool   `json:"ok"`
			Why string `json:"why"`
		}
		err := t.run(ctx, "", batch, &res)
		if err == nil {
			if !res.OK {
				return fmt.Errorf("browser: the page did not settle: %s", res.Why)
			}
			return nil
		}
		if !isGone(err) || ctx.Err() != nil {
			return err
		}
		// The document went away under the evaluation: wait in the new one.
		batch = []op{{"op": "stable", "ms": remaining(ctx), "mark": -1}}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}
