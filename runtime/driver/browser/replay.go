package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// doReplay performs the actions a replayed recording needs beyond a
// person's input: set_viewport and wait_script.
func (d *Driver) doReplay(ctx context.Context, t *tab, a driver.Action) error {
	switch a.Op {
	case action.SetViewport:
		w, h, ok := parseSize(a.Text)
		if !ok {
			return fmt.Errorf("the viewport %q is not WIDTHxHEIGHT", a.Text)
		}
		// The page learns of the new size later, at a frame of its own
		// choosing: innerWidth changes first and the resize event follows.
		// A listener added before the change resolves after the page's own
		// resize listeners (listeners run in the order they were added),
		// so the step ends once they ran and the next step, or the run's
		// end, cannot overtake them. Waiting for innerWidth and then a
		// frame or two still lost the event on a loaded machine. A page
		// already at that size gets no event and does not wait; the bound
		// covers a browser that never sends one.
		if err := waitScript(ctx, t, fmt.Sprintf(`(window.__cogflow_resized = innerWidth === %d && innerHeight === %d ? null :
			new Promise(r => addEventListener('resize', () => setTimeout(r), {once: true}))), true`, w, h)); err != nil {
			return err
		}
		// The override stays for the tab's life, as a resized window would.
		if err := t.call(ctx, "Emulation.setDeviceMetricsOverride", map[string]any{
			"width": w, "height": h, "deviceScaleFactor": 0, "mobile": false,
		}, nil); err != nil {
			return err
		}
		return waitScript(ctx, t, fmt.Sprintf(
			"innerWidth === %d && innerHeight === %d && Promise.race([window.__cogflow_resized, new Promise(r => setTimeout(r, 2000))]).then(() => true)", w, h))
	case action.WaitScript:
		return waitScript(ctx, t, a.Text)
	case action.WaitNavigation:
		return d.waitNavigation(ctx, t, a.Text)
	case action.Scroll:
		if len(a.ScrollTo) != 2 {
			return fmt.Errorf("a scroll position needs x and y")
		}
		realm, err := runOn(ctx, t, a.Target, op{"op": "scrollTo", "x": a.ScrollTo[0], "y": a.ScrollTo[1]}, nil)
		if err != nil {
			return err
		}
		// A scroll changes no DOM, so the mark would say "settled" at once;
		// its scroll event comes at the next frame. -1 waits for a frame,
		// so the page's scroll handlers run before the step ends.
		return d.settleIn(ctx, t, realm, -1)
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
// time is up. A promise is awaited and its value tested, as Puppeteer's
// waitForExpression does. It runs through CDP, not the page's eval, so a
// page's Content Security Policy does not stop it.
func waitScript(ctx context.Context, t *tab, expr string) error {
	var last error
	for {
		var res evalResult
		err := t.call(ctx, "Runtime.evaluate", map[string]any{
			"expression": "Promise.resolve((" + expr + "\n)).then(v => !!v)", "returnByValue": true, "awaitPromise": true,
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

// waitNavigation waits until the tab, one of its frames or one of its
// out-of-process frames has loaded url (its document complete).
func (d *Driver) waitNavigation(ctx context.Context, t *tab, url string) error {
	for {
		ok, err := d.loaded(ctx, t, url)
		if err != nil && !isGone(err) {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("timed out waiting for %s to load in the tab or one of its frames", url)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// loaded tells whether a document at url is complete in the tab: its own
// frames (Page.getFrameTree), then out-of-process frame targets.
func (d *Driver) loaded(ctx context.Context, t *tab, url string) (bool, error) {
	var tree struct {
		FrameTree frameNode `json:"frameTree"`
	}
	if err := t.call(ctx, "Page.getFrameTree", nil, &tree); err != nil {
		return false, err
	}
	if tree.FrameTree.has(url) {
		return complete(ctx, t, t.session, url)
	}
	raw, err := d.b.Call(ctx, "", "Target.getTargets", map[string]any{})
	if err != nil {
		return false, err
	}
	var ts struct {
		TargetInfos []struct {
			TargetID string `json:"targetId"`
			Type     string `json:"type"`
			URL      string `json:"url"`
		} `json:"targetInfos"`
	}
	if err := json.Unmarshal(raw, &ts); err != nil {
		return false, err
	}
	for _, ti := range ts.TargetInfos {
		if ti.Type != "iframe" || ti.URL != url {
			continue
		}
		raw, err := d.b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": ti.TargetID, "flatten": true})
		if err != nil {
			return false, err
		}
		var att struct {
			SessionID string `json:"sessionId"`
		}
		if err := json.Unmarshal(raw, &att); err != nil {
			return false, err
		}
		ok, err := complete(ctx, t, att.SessionID, url)
		_, _ = d.b.Call(ctx, "", "Target.detachFromTarget", map[string]any{"sessionId": att.SessionID})
		return ok, err
	}
	return false, nil
}

// frameNode is a node of Page.getFrameTree's answer.
type frameNode struct {
	Frame struct {
		URL string `json:"url"`
	} `json:"frame"`
	ChildFrames []frameNode `json:"childFrames"`
}

func (f frameNode) has(url string) bool {
	if f.Frame.URL == url {
		return true
	}
	for _, c := range f.ChildFrames {
		if c.has(url) {
			return true
		}
	}
	return false
}

// complete tells whether a session has a document at url that finished
// loading: the page itself, or a same-process frame of it.
func complete(ctx context.Context, t *tab, session, url string) (bool, error) {
	var res evalResult
	expr := `(() => { const want = ` + jsString(url) + `;
  const ok = (w) => { try { return w.location.href === want && w.document.readyState === 'complete'; } catch (e) { return false; } };
  const walk = (w) => { if (ok(w)) return true; for (let i = 0; i < w.frames.length; i++) { try { if (walk(w.frames[i])) return true; } catch (e) {} } return false; };
  return walk(window); })()`
	if err := t.callIn(ctx, session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return false, err
	}
	var ok bool
	_ = json.Unmarshal(res.Result.Value, &ok)
	return ok, nil
}
