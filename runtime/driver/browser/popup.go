package browser

import (
	"context"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// switchWindowWaiting is switch_window: a tab opened by the step before
// (a popup from a click) may not exist yet, so when no tab matches it
// waits for the browser's target events — a target created, or one whose
// title or address changed — and looks again, until the step's time is up.
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
		werr := w.wait(ctx)
		d.events.drop(w)
		if werr != nil {
			return nil, err // the step's time is up: say which tabs there were
		}
	}
}
