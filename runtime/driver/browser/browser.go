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
	"fmt"
	"sync"
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
	opts    driver.Options
	timeout time.Duration

	b       *rod.Browser
	conn    context.CancelFunc // closes the CDP connection
	proc    *process           // the browser this driver launched, nil when attached
	dispose func() error       // what Close does to a browser it attached to

	mu        sync.Mutex
	cur       *tab
	tabs      map[string]*tab
	clipboard string
	secrets   []string // texts typed as secrets: screenshots cover them (mask.go)
	events    *events
	closed    bool

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
		},
		Shortcuts: []string{
			"open:navigate",             // Page.navigate instead of typing an address
			"type:set-value",            // <select>, date, color, range… get their value set
			"click:select-option",       // an <option> of a closed <select> is chosen, not clicked
			"multi_select:set-selected", // options of a <select multiple> are toggled
			"new_tab:create-target",     // Target.createTarget instead of Ctrl+T
			"switch_window:activate-target",
			"close_tab:close-target",
			"back:history-entry", // Page.navigateToHistoryEntry
			"select_text:range",  // a DOM Range instead of a pointer drag
		},
	}
}

// enter starts one call on the current tab: the driver locked and the
// context bounded by the action timeout until done.
func (d *Driver) enter(ctx context.Context) (_ context.Context, _ *tab, done func(), _ error) {
	d.mu.Lock()
	t, err := d.current()
	if err != nil {
		d.mu.Unlock()
		return ctx, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, d.timeout)
	return ctx, t, func() { cancel(); d.mu.Unlock() }, nil
}

// Screenshot returns a PNG of the current tab's viewport, with every
// field and text holding a secret the driver typed covered (mask.go).
func (d *Driver) Screenshot(ctx context.Context) ([]byte, error) {
	ctx, t, done, err := d.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	png, err := d.masked(ctx, t, func() ([]byte, error) {
		var res struct {
			Data []byte `json:"data"`
		}
		err := t.call(ctx, "Page.captureScreenshot", map[string]any{"format": "png"}, &res)
		return res.Data, err
	})
	if err != nil {
		return nil, fmt.Errorf("browser: screenshot: %w", err)
	}
	return png, nil
}

// ScreenText implements driver.ScreenReader: the rendered text of the
// current tab's page (innerText, so hidden text is left out).
func (d *Driver) ScreenText(ctx context.Context) (string, error) {
	ctx, t, done, err := d.enter(ctx)
	if err != nil {
		return "", err
	}
	defer done()
	var res struct {
		Result struct {
			Value string `json:"value"`
		} `json:"result"`
	}
	err = t.call(ctx, "Runtime.evaluate", map[string]any{
		"expression":    "document.body ? document.body.innerText : ''",
		"returnByValue": true,
	}, &res)
	if err != nil {
		return "", fmt.Errorf("browser: screen text: %w", err)
	}
	return res.Result.Value, nil
}

func (d *Driver) current() (*tab, error) {
	if d.closed {
		return nil, errors.New("browser: the driver is closed")
	}
	if d.cur == nil {
		return nil, errors.New("browser: no tab is open")
	}
	return d.cur, nil
}

// Close closes the tabs the driver opened in a browser it attached to, or
// the browser it launched: the process and its children end and the
// temporary profile is removed.
func (d *Driver) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil
	}
	d.closed = true
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
}
