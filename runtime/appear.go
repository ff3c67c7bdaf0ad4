package runtime

import (
	"context"
	"errors"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// appearGrace is how long a step looks again for its target when no
// element matches the description: a menu, a suggestion list or a dialog
// that the previous step made appear after a short timer (jQuery UI's
// autocomplete waits 300 ms) is not on the screen at the first look. A
// step whose target is there is not slowed down; a step whose target
// never appears fails with the same "no element matches" error, this much
// later. Ambiguity is not looked at again: the strict rule stands.
var appearGrace = time.Second

// anchorShown anchors a step's target like anchorElement, but when nothing
// matches a description it looks again every waitPoll, within appearGrace
// or the step's own timeout when that is shorter. What is chosen follows
// the same rules on the later screen: the wait changes when it is looked
// at, never how.
func (in *Interp) anchorShown(ctx context.Context, e *Elem, timeout time.Duration) (*driver.Element, error) {
	limit := appearGrace
	if timeout > 0 && timeout < limit {
		limit = timeout
	}
	deadline := time.Now().Add(limit)
	for {
		live, err := in.anchorElement(ctx, e)
		var anchorErr *AnchorError
		if err == nil || e.Desc == nil || !errors.As(err, &anchorErr) || anchorErr.Ambiguous || anchorErr.Empty || !time.Now().Before(deadline) {
			return live, err
		}
		select {
		case <-ctx.Done():
			return nil, ErrInterrupted
		case <-time.After(waitPoll):
		}
		in.tree = nil // observe the screen anew
	}
}
