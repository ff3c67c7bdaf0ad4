// Package browser is cogflow's browser driver: it runs the system Chromium
// (or attaches to a running one) through go-rod and the Chrome DevTools
// Protocol, observes pages as driver.Element trees with one injected DOM
// walk per frame, and acts with real CDP input events — or, where the
// language allows it, with one API call (API-first): navigating instead of
// typing an address, setting a <select>'s value instead of clicking through
// its popup.
//
// It registers itself as "browser" with driver.Register; Start opens one
// directly. Observe walks the page (one evaluation per frame), Find returns
// only candidates for a step (one evaluation), Do acts and then waits until
// the page is stable, event-driven: no pending navigation, the document
// complete, no fetch/XHR in flight, one animation frame without DOM
// mutations. Refs look like "e17-k3f9" (node 17 of the document whose
// script instance is k3f9) and stay valid while the node lives; an element
// of a cross-origin frame is "<iframe ref>/<ref>". A target whose node is
// gone is found again by id, path or a unique role and name.
//
// It never downloads a browser: without a Chromium on the machine it fails
// (wrapping driver.ErrUnavailable) and names `apt-get install chromium` and
// COGFLOW_CHROME.
//
// Known limits: cross-origin iframes are walked and acted on only when they
// run in the page's process (the launched browser disables strict site
// isolation; a remote browser with it on hides them); closed shadow roots
// are walked only when created after the driver's script was installed;
// the clipboard is the driver's own buffer; stability waits for requests
// younger than 5 s, short timers and frame-by-frame mutations for at most a
// second; timers longer than 100 ms (debounces) are not waited for;
// scrolling inside a cross-origin frame and OS-level drag and drop (files)
// are not supported; the walker's script is visible to the page as
// window.__cogflow_v1 and wraps fetch, XHR, setTimeout and
// requestAnimationFrame.
package browser

import (
	"context"
	"errors"
	"time"

	"github.com/go-rod/rod"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

func init() {
	driver.Register("browser", func(ctx context.Context, opts driver.Options) (driver.Driver, error) {
		return Start(ctx, opts)
	})
}

// DefaultActionTimeout bounds an action when neither the action nor the
// options say otherwise.
const DefaultActionTimeout = 10 * time.Second

// Driver drives one browser: the tabs it opened (or that pages opened) and
// the current one that actions go to. Its methods are safe for concurrent
// use but run one at a time.
type Driver struct {
	opts driver.Options
	// life locks, bounds and wraps every call (runtime/driver.Lifecycle).
	life *driver.Lifecycle

	b       *rod.Browser
	conn    context.CancelFunc // closes the CDP connection
	proc    *process           // the browser this driver launched, nil when attached
	dispose func() error       // what Close does to a browser it attached to

	cur       *tab
	tabs      map[string]*tab
	clipboard string
	secrets   []string // texts typed as secrets: screenshots cover them (mask.go)
	events    *events

	// clipSecret says the clipboard was copied out of a field a secret
	// was typed into.
	clipSecret bool
}

var (
	_ driver.Driver = (*Driver)(nil)
	_ driver.Finder = (*Driver)(nil)
)

// Capabilities lists the actions the driver performs and its API-first
// shortcuts.
func (d *Driver) Capabilities() driver.Capabilities {
	return driver.Capabilities{
		Actions: []action.Name{
			action.Click, action.DoubleClick, action.RightClick, action.Move, action.Drag, action.Upload, action.Clear, action.Type, action.Enter, action.Key,
			action.Copy, action.Cut, action.Paste, action.SelectText, action.MultiSelect, action.Scroll, action.Save,
			action.Open, action.NewTab, action.CloseTab, action.CloseWindow, action.SwitchWindow, action.Wait, action.Back,
			action.SetViewport, action.WaitScript, action.WaitNavigation,
			action.SetValue, action.SubmitForm, action.DownloadLink, action.ReadTable,
		},
		Shortcuts: []string{
			"open:navigate",             // Page.navigate instead of typing an address
			"type:set-value",            // <select>, date, color, range… get their value set
			"click:select-option",       // an <option> of a closed <select> is chosen, not clicked
			"multi_select:set-selected", // options of a <select multiple> are toggled
			"new_tab:create-target",     // Target.createTarget instead of Ctrl+T
			"switch_window:activate-target",
			"close_tab:close-target",
			"back:history-entry",         // Page.navigateToHistoryEntry
			"select_text:range",          // a DOM Range instead of a pointer drag
			"set_value:value-setter",     // the field's value setter, then input and change
			"submit_form:request-submit", // form.requestSubmit instead of a click on the button
			"download_link:fetch",        // the link's target fetched in the page, written by the driver
			"read_table:table-model",     // the table's rows and cells, spans filled in
		},
	}
}

// onTab runs fn on d's current tab as the call op (driver.Call): the
// driver locked, ctx bounded by timeout (the default when zero), the error
// wrapped and a browser that went away told as driver.ErrGone.
func onTab[T any, O ~string](ctx context.Context, d *Driver, op O, timeout time.Duration, fn func(ctx context.Context, t *tab) (T, error)) (T, error) {
	return driver.Call(ctx, d.life, op, timeout, func(ctx context.Context) (T, error) {
		t, err := d.current()
		if err != nil {
			var zero T
			return zero, err
		}
		return fn(ctx, t)
	})
}

// Screenshot returns a PNG of the current tab's viewport, with every
// field and text holding a secret the driver typed covered (mask.go).
func (d *Driver) Screenshot(ctx context.Context) ([]byte, error) {
	return onTab(ctx, d, "screenshot", 0, func(ctx context.Context, t *tab) ([]byte, error) {
		return d.masked(ctx, t, func() ([]byte, error) {
			var res struct {
				Data []byte `json:"data"`
			}
			err := t.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res)
			return res.Data, err
		})
	})
}

// ScreenText implements driver.ScreenReader: the rendered text of the
// current tab's page (innerText, so hidden text is left out).
func (d *Driver) ScreenText(ctx context.Context) (string, error) {
	return onTab(ctx, d, "screen text", 0, func(ctx context.Context, t *tab) (string, error) {
		var res struct {
			Result struct {
				Value string `json:"value"`
			} `json:"result"`
		}
		err := t.call(ctx, "Runtime.evaluate", map[string]any{
			"expression":    "document.body ? document.body.innerText : ''",
			"returnByValue": true,
		}, &res)
		return res.Result.Value, err
	})
}

// current is the tab actions go to. The caller holds the driver's lock.
func (d *Driver) current() (*tab, error) {
	if d.life.Closed() {
		return nil, driver.ErrClosed
	}
	if d.cur == nil {
		return nil, errors.New("no tab is open")
	}
	return d.cur, nil
}

// Close closes the tabs the driver opened in a browser it attached to, or
// the browser it launched: the process and its children end and the
// temporary profile is removed.
func (d *Driver) Close() error {
	return d.life.Close(func() error {
		// What was typed or copied lives only in this process: forget it.
		d.clipboard, d.clipSecret, d.secrets = "", false, nil
		var err error
		if d.proc != nil {
			err = d.proc.stop(d.b)
		} else if d.dispose != nil {
			err = d.dispose()
		}
		if d.conn != nil {
			d.conn()
		}
		return err
	})
}
