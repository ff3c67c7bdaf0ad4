package browser

import (
	"context"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestCoverOnItsWayOut: a click whose target is covered by something that
// goes away a moment later (a date picker fading out) waits for it and
// clicks the target; a cover that stays still fails it
// (TestCoveredElementFails), and the wait is bounded.
func TestCoverOnItsWayOut(t *testing.T) {
	d := sharedDriver(t)
	s := newSite(t)
	open(t, d, s.page("/fading", `<button id=b onclick="window.hit = 1">Under</button>
<div id=picker style="position:fixed;inset:0;background:#eee">Tu We Th</div>
<script>setTimeout(() => document.getElementById('picker').remove(), 300)</script>`))
	start := time.Now()
	if _, err := d.Do(context.Background(), driver.Action{Op: "click", Target: target(t, d, "b")}); err != nil {
		t.Fatalf("click: %v", err)
	}
	if eval(t, d, "window.hit") != "1" {
		t.Error("the button was not clicked once its cover went")
	}
	if took := time.Since(start); took > coverWait+2*time.Second {
		t.Errorf("the click took %s", took)
	}
}
