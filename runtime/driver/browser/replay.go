package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// doReplay performs the actions a replayed recording needs beyond a
// person's input: set_viewport and wait_script.
func (d *Driver) doReplay(ctx context.Context, t *tab, a driver.Action) error {
	switch a.Op {
	case "set_viewport":
		w, h, ok := parseSize(a.Text)
		if !ok {
			return fmt.Errorf("the viewport %q is not WIDTHxHEIGHT", a.Text)
		}
		// The override stays for the tab's life, as a resized window would.
		return t.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
			"width": w, "height": h, "deviceScaleFactor": 0, "mobile": false,
		}, nil)
	case "wait_script":
		return waitScript(ctx, t, a.Text)
	}
	return fmt.Errorf("the browser driver does not perform %q", a.Op)
}

func parseSize(s string) (w, h int, ok bool) {
	ws, hs, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	wf, err1 := strconv.ParseFloat(ws, 64)
	hf, err2 := strconv.ParseFloat(hs, 64)
	if err1 != nil || err2 != nil || wf < 1 || hf < 1 {
		return 0, 0, false
	}
	return int(wf), int(hf), true
}

// waitScript evaluates a page expression until it is truthy or the step's
// time is up. It runs through CDP, not the page's eval, so a page's
// Content Security Policy does not stop it.
func waitScript(ctx context.Context, t *tab, expr string) error {
	var last error
	for {
		var res evalResult
		err := t.call(ctx, "Runtime.evaluate", map[string]any{
			"expression": "!!(" + expr + "\n)", "returnByValue": true, "awaitPromise": true,
		}, &res)
		if err == nil {
			err = res.err()
		}
		if err == nil {
			var ok bool
			if json.Unmarshal(res.Result.Value, &ok) == nil && ok {
				return nil
			}
			last = nil
		} else if !isGone(err) {
			return fmt.Errorf("the expression failed: %w", err)
		} else {
			last = err
		}
		select {
		case <-ctx.Done():
			if last != nil {
				return fmt.Errorf("timed out waiting until %s is true: %w", expr, last)
			}
			return fmt.Errorf("timed out waiting until %s is true", expr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
