package browser

import (
	"context"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// switchWindowWaiting is switch_window: a tab opened by the step before
// (a popup from a click) may not exist yet, so when no tab matches it
// waits for the browser's target events — a target created, or one whose
// title or address changed — and looks again, until the step's time is up.
// The title a tab reports may lag its document's: the target's address
// is matched too (switchWindow's rule), and the tabs are looked at again
// every 200 ms between events.
func (d *Driver) switchWindowWaiting(ctx context.Context, text string) (*driver.Window, error) {
	// Target events come only once discovery is on; it is idempotent.
	_, _ = d.b.Call(ctx, "", "Target.setDiscoverTargets", map[string]any{"discover": true})
	for {
		w := d.events.expect("", "Target.targetCreated", "Target.targetInfoChanged")
		win, err := d.switchWindow(ctx, text)
		if err == nil || !strings.Contains(err.Error(), "no tab's title contains") {
			d.events.drop(w)
			return win, err
		}
		// A title set by the new page's own document does not always
		// come as an event: look again at least every 200 ms.
		select {
		case <-w.ch:
		case <-time.After(200 * time.Millisecond):
		case <-ctx.Done():
			d.events.drop(w)
			return nil, err // the step's time is up: say which tabs there were
		}
		d.events.drop(w)
	}
}
