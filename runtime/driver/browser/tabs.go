package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/driver"
)

// Start launches Chromium (or attaches to Options.RemoteURL) and opens a
// blank tab. When attached, the driver works in a browser context of its
// own, which Close disposes of, leaving the browser running.
func Start(ctx context.Context, opts driver.Options) (_ *Driver, err error) {
	d := &Driver{opts: opts, tabs: map[string]*tab{}}
	d.life = driver.NewLifecycle("browser", opts.ActionTimeout, DefaultActionTimeout, d.gone)
	connCtx, cancel := context.WithCancel(context.Background())
	d.conn = cancel
	defer func() {
		if err != nil {
			_ = d.Close()
		}
	}()
	var u string
	if opts.RemoteURL != "" {
		if u, err = remoteURL(ctx, opts.RemoteURL); err != nil {
			return nil, err
		}
	} else {
		if d.proc, err = launch(ctx, opts); err != nil {
			return nil, err
		}
		u = d.proc.url
	}
	b := rod.New().Context(connCtx).ControlURL(u).NoDefaultDevice()
	if err = connect(ctx, b); err != nil {
		return nil, fmt.Errorf("browser: connecting to %s: %w", u, err)
	}
	d.b = b
	if opts.RemoteURL != "" {
		inc, err := b.Incognito()
		if err != nil {
			return nil, fmt.Errorf("browser: new browser context: %w", err)
		}
		d.b = inc
		d.dispose = inc.Close
	}
	d.events = watch(connCtx, b)
	if _, err = d.newTab(ctx, ""); err != nil {
		return nil, err
	}
	return d, nil
}

func connect(ctx context.Context, b *rod.Browser) error {
	done := make(chan error, 1)
	go func() { done <- b.Connect() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// attach makes a tab of a page target: it enables page events (for dialogs
// and history) and installs the script in its documents.
func (d *Driver) attach(ctx context.Context, id string) (*tab, error) {
	if t := d.tabs[id]; t != nil {
		return t, nil
	}
	p, err := d.b.PageFromTarget(proto.TargetTargetID(id))
	if err != nil {
		return nil, err
	}
	t := &tab{d: d, p: p, id: id, session: string(p.SessionID), frames: map[string]string{}}
	if err := t.call(ctx, "Page.enable", nil, nil); err != nil {
		return nil, err
	}
	if err := t.call(ctx, "Page.addScriptToEvaluateOnNewDocument", map[string]any{"source": script, "runImmediately": true}, nil); err != nil {
		return nil, err
	}
	if err := t.inject(ctx, ""); err != nil {
		return nil, err
	}
	d.tabs[id] = t
	return t, nil
}

// newTab opens a tab, makes it current and navigates it when url is given.
func (d *Driver) newTab(ctx context.Context, url string) (*tab, error) {
	params := map[string]any{"url": "about:blank"}
	if d.b.BrowserContextID != "" {
		params["browserContextId"] = d.b.BrowserContextID
	}
	raw, err := d.b.Call(ctx, "", "Target.createTarget", params)
	if err != nil {
		return nil, fmt.Errorf("browser: new tab: %w", err)
	}
	var res struct {
		TargetID string `json:"targetId"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	t, err := d.attach(ctx, res.TargetID)
	if err != nil {
		return nil, fmt.Errorf("browser: new tab: %w", err)
	}
	d.cur = t
	if url != "" {
		if err := d.navigate(ctx, t, url); err != nil {
			return t, err
		}
	}
	return t, nil
}

// navigate is open's API-first path: Page.navigate, then the new document
// must load and settle.
func (d *Driver) navigate(ctx context.Context, t *tab, url string) error {
	var res struct {
		LoaderID  string `json:"loaderId"`
		ErrorText string `json:"errorText"`
	}
	w := d.events.expect(t.session, "Page.loadEventFired", "Page.navigatedWithinDocument")
	defer d.events.drop(w)
	if err := t.call(ctx, "Page.navigate", map[string]any{"url": url}, &res); err != nil {
		return fmt.Errorf("browser: open %s: %w", url, err)
	}
	if res.ErrorText != "" {
		return fmt.Errorf("browser: open %s: %s", url, res.ErrorText)
	}
	if err := w.wait(ctx); err != nil {
		return fmt.Errorf("browser: open %s: the page did not load: %w", url, err)
	}
	return d.settle(ctx, t, -1)
}

// targets lists the page targets of the driver's browser context.
func (d *Driver) targets(ctx context.Context) ([]proto.TargetTargetInfo, error) {
	raw, err := d.b.Call(ctx, "", "Target.getTargets", struct{}{})
	if err != nil {
		return nil, err
	}
	var res struct {
		TargetInfos []proto.TargetTargetInfo `json:"targetInfos"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, err
	}
	var out []proto.TargetTargetInfo
	for _, ti := range res.TargetInfos {
		if ti.Type != proto.TargetTargetInfoTypePage {
			continue
		}
		if d.b.BrowserContextID != "" && ti.BrowserContextID != d.b.BrowserContextID {
			continue
		}
		out = append(out, ti)
	}
	return out, nil
}

func (d *Driver) window(ctx context.Context, t *tab) *driver.Window {
	raw, err := d.b.Call(ctx, "", "Target.getTargetInfo", map[string]any{"targetId": t.id})
	w := &driver.Window{ID: t.id}
	if err != nil {
		return w
	}
	var res struct {
		TargetInfo proto.TargetTargetInfo `json:"targetInfo"`
	}
	if json.Unmarshal(raw, &res) == nil {
		w.Title, w.URL = res.TargetInfo.Title, res.TargetInfo.URL
	}
	return w
}

func (d *Driver) activate(ctx context.Context, t *tab) error {
	d.cur = t
	return t.call(ctx, "Page.bringToFront", nil, nil)
}

// switchWindow makes current the first tab whose title contains text
// (case-insensitively), else the first whose URL does.
func (d *Driver) switchWindow(ctx context.Context, text string) (*driver.Window, error) {
	ts, err := d.targets(ctx)
	if err != nil {
		return nil, err
	}
	want := strings.ToLower(text)
	pick := func(f func(proto.TargetTargetInfo) string) string {
		for _, ti := range ts {
			if strings.Contains(strings.ToLower(f(ti)), want) {
				return string(ti.TargetID)
			}
		}
		return ""
	}
	id := pick(func(ti proto.TargetTargetInfo) string { return ti.Title })
	if id == "" {
		id = pick(func(ti proto.TargetTargetInfo) string { return ti.URL })
	}
	if id == "" {
		titles := make([]string, 0, len(ts))
		for _, ti := range ts {
			titles = append(titles, fmt.Sprintf("%q", ti.Title))
		}
		return nil, fmt.Errorf("browser: no tab's title contains %q (tabs: %s)", text, strings.Join(titles, ", "))
	}
	t, err := d.attach(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := d.activate(ctx, t); err != nil {
		return nil, err
	}
	return d.window(ctx, t), nil
}

// closeTab closes a tab; when it was the current one, the most recently
// attached remaining tab becomes current (a blank one is opened when none
// remains).
func (d *Driver) closeTab(ctx context.Context, t *tab) error {
	if _, err := d.b.Call(ctx, "", "Target.closeTarget", map[string]any{"targetId": t.id}); err != nil {
		return fmt.Errorf("browser: close tab: %w", err)
	}
	delete(d.tabs, t.id)
	if d.cur != t {
		return nil
	}
	d.cur = nil
	ts, err := d.targets(ctx)
	if err != nil {
		return err
	}
	for i := len(ts) - 1; i >= 0; i-- {
		if string(ts[i].TargetID) == t.id {
			continue
		}
		nt, err := d.attach(ctx, string(ts[i].TargetID))
		if err != nil {
			return err
		}
		return d.activate(ctx, nt)
	}
	_, err = d.newTab(ctx, "")
	return err
}

// closeWindow closes the tab whose id is ref or whose title contains it
// (the current tab when ref is empty).
func (d *Driver) closeWindow(ctx context.Context, ref string) error {
	if ref == "" {
		return d.closeTab(ctx, d.cur)
	}
	ts, err := d.targets(ctx)
	if err != nil {
		return err
	}
	for _, ti := range ts {
		if string(ti.TargetID) == ref || strings.Contains(strings.ToLower(ti.Title), strings.ToLower(ref)) {
			t, err := d.attach(ctx, string(ti.TargetID))
			if err != nil {
				return err
			}
			return d.closeTab(ctx, t)
		}
	}
	return fmt.Errorf("browser: no window %q", ref)
}

// back goes one entry back in the tab's history.
func (d *Driver) back(ctx context.Context, t *tab) error {
	var h struct {
		CurrentIndex int `json:"currentIndex"`
		Entries      []struct {
			ID  int    `json:"id"`
			URL string `json:"url"`
		} `json:"entries"`
	}
	if err := t.call(ctx, "Page.getNavigationHistory", nil, &h); err != nil {
		return err
	}
	if h.CurrentIndex <= 0 || h.CurrentIndex >= len(h.Entries) {
		return errors.New("browser: back: there is no page to go back to")
	}
	w := d.events.expect(t.session, "Page.frameNavigated", "Page.navigatedWithinDocument")
	defer d.events.drop(w)
	if err := t.call(ctx, "Page.navigateToHistoryEntry", map[string]any{"entryId": h.Entries[h.CurrentIndex-1].ID}, nil); err != nil {
		return err
	}
	if err := w.wait(ctx); err != nil {
		return fmt.Errorf("browser: back: %w", err)
	}
	return d.settle(ctx, t, -1)
}

// events routes the browser's CDP events: it answers JavaScript dialogs
// as the step says (dialog.go) and wakes waiters for navigations.
type events struct {
	b       *rod.Browser
	mu      sync.Mutex
	waiters map[*waiter]bool
	dlg     dialogs
}

type waiter struct {
	session string
	methods []string
	ch      chan struct{}
	once    sync.Once
	drag    *proto.InputDragData // the data of an Input.dragIntercepted
}

func watch(ctx context.Context, b *rod.Browser) *events {
	e := &events{b: b, waiters: map[*waiter]bool{}}
	msgs := b.Context(ctx).Event()
	go func() {
		for m := range msgs {
			e.handle(ctx, m)
		}
	}()
	return e
}

func (e *events) handle(ctx context.Context, m *rod.Message) {
	if m.Method == "Page.javascriptDialogOpening" {
		e.dialogOpened(ctx, m)
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for w := range e.waiters {
		if w.session != string(m.SessionID) {
			continue
		}
		for _, meth := range w.methods {
			if meth != m.Method {
				continue
			}
			w.once.Do(func() {
				if meth == "Input.dragIntercepted" {
					var ev proto.InputDragIntercepted
					if m.Load(&ev) {
						w.drag = ev.Data
					}
				}
				close(w.ch)
			})
		}
	}
}

// expect registers interest in the next of some events of a session; call
// it before the command that causes them.
func (e *events) expect(session string, methods ...string) *waiter {
	w := &waiter{session: session, methods: methods, ch: make(chan struct{})}
	e.mu.Lock()
	e.waiters[w] = true
	e.mu.Unlock()
	return w
}

func (e *events) drop(w *waiter) {
	e.mu.Lock()
	delete(e.waiters, w)
	e.mu.Unlock()
}

func (w *waiter) wait(ctx context.Context) error {
	select {
	case <-w.ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// dragData returns the data of a drag the browser intercepted, waiting a
// moment for its event.
func (e *events) dragData(w *waiter) (*proto.InputDragData, bool) {
	select {
	case <-w.ch:
	case <-time.After(100 * time.Millisecond):
		return nil, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return w.drag, w.drag != nil
}
