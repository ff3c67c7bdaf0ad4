package browser

import (
	"context"
	"fmt"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Record navigates the current tab to url and records what a person does
// there, and in every tab opened from then on, until ctx ends, the stop
// chord is pressed or the last recorded tab (or the browser) closes. It
// always returns the trace recorded so far, valid, with the error that
// ended the recording early, if any (ctx's end and the stop chord are not
// errors). Events come from a script installed in every document and
// frame of each recorded tab that reports through an exposed binding;
// each targeted event carries a snapshot of the page walked the way
// Observe walks it, so targets have the attributes the runtime anchors
// against. Tabs opening, closing and the person moving between them
// become tab_open, tab_close and tab_switch events.
func (d *Driver) Record(ctx context.Context, url string, opts RecordOptions) (*trace.Trace, error) {
	tr := trace.New(trace.DriverBrowser)
	tr.Source = "cogflow record"
	tr.Recorded = time.Now().UTC().Truncate(time.Second)
	c, err := parseStopChord(opts.StopChord)
	if err != nil {
		return tr, err
	}
	d.life.Lock()
	t, err := d.current()
	d.life.Unlock()
	if err != nil {
		return tr, fmt.Errorf("browser: record: %w", err)
	}
	r := &recorder{tr: tr, start: time.Now(), lastAct: -1, tabs: map[string]*recTab{}, warnf: opts.Warn, progress: opts.Progress}

	lctx, stop := context.WithCancel(context.Background())
	defer stop()
	msgs := d.b.Context(lctx).Event()
	setup, cancelSetup := context.WithTimeout(ctx, d.life.Timeout())
	defer cancelSetup()
	id, err := d.installRecorder(setup, t, c)
	if err != nil {
		return tr, err
	}
	r.tabs[t.session] = &recTab{t: t, script: id}
	defer d.uninstallRecorders(r)
	// Tabs open before the recording are not the person's doing: only
	// targets created from now on are new tabs. The set grows with every
	// tab taken.
	existing := map[string]bool{}
	if ts, err := d.targets(setup); err == nil {
		for _, ti := range ts {
			existing[string(ti.TargetID)] = true
		}
	}
	// Discovery at the browser level: a page session's own does not hear
	// of targets created by other connections (a person's Ctrl+T).
	if _, err := d.b.Call(setup, "", "Target.setDiscoverTargets", map[string]any{"discover": true}); err != nil {
		return tr, fmt.Errorf("browser: record: %w", err)
	}

	navErr := make(chan error, 1)
	go func() {
		d.life.Lock()
		defer d.life.Unlock()
		nctx, cancel := context.WithTimeout(ctx, d.life.Timeout())
		defer cancel()
		navErr <- d.navigate(nctx, t, url)
	}()
	var result error
	for done := false; !done; {
		select {
		case <-ctx.Done():
			done = true
		case err := <-navErr:
			if err != nil {
				result, done = err, true
			}
		case m, ok := <-msgs:
			if !ok {
				done = true // the connection closed: the browser is gone
				break
			}
			done = d.recordMessage(ctx, r, m, c, existing)
		}
	}
	if ctx.Err() != nil {
		d.drainRecording(r, msgs)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := tr.Validate(); err != nil && result == nil {
		result = fmt.Errorf("browser: record: the trace is invalid: %w", err)
	}
	return tr, result
}

// drainQuiet and drainMax bound how long a recording stopped by its
// context (Ctrl-C in `cogflow record`) goes on taking the events the pages
// already sent: until none came for drainQuiet, at most drainMax.
const (
	drainQuiet = 150 * time.Millisecond
	drainMax   = 1 * time.Second
)

// drainRecording records the events already on their way when the
// recording was stopped: what the person did just before Ctrl-C (the
// opening page's navigate event, the last click) was lost otherwise. Only
// the pages' reports are taken; no new tab is followed any more.
func (d *Driver) drainRecording(r *recorder, msgs <-chan *rod.Message) {
	deadline := time.After(drainMax)
	for {
		select {
		case <-deadline:
			return
		case <-time.After(drainQuiet):
			return
		case m, ok := <-msgs:
			if !ok {
				return
			}
			if m.Method != "Runtime.bindingCalled" {
				continue
			}
			var ev proto.RuntimeBindingCalled
			r.mu.Lock()
			rt := r.tabs[string(m.SessionID)]
			r.mu.Unlock()
			if rt != nil && m.Load(&ev) && ev.Name == recordBinding {
				r.handle(rt, ev.Payload)
			}
		}
	}
}

// recordMessage handles one CDP event during a recording; it reports
// whether the recording is over.
func (d *Driver) recordMessage(ctx context.Context, r *recorder, m *rod.Message, c stopChord, existing map[string]bool) bool {
	switch m.Method {
	case "Runtime.bindingCalled":
		var ev proto.RuntimeBindingCalled
		r.mu.Lock()
		rt := r.tabs[string(m.SessionID)]
		r.mu.Unlock()
		if rt == nil || !m.Load(&ev) || ev.Name != recordBinding {
			return false
		}
		msg, ok := parseRecMsg(ev.Payload)
		if !ok {
			return false
		}
		// The form's listeners are looked up now, while its document is
		// there (events queue meanwhile: the subscription buffers them).
		d.checkForm(ctx, rt, int(ev.ExecutionContextID), msg)
		return r.handleMsg(rt, msg)
	case "Target.targetCreated":
		var ev proto.TargetTargetCreated
		if !m.Load(&ev) || ev.TargetInfo.Type != proto.TargetTargetInfoTypePage || existing[string(ev.TargetInfo.TargetID)] ||
			(d.b.BrowserContextID != "" && ev.TargetInfo.BrowserContextID != d.b.BrowserContextID) {
			return false
		}
		// Discovery may be on for several sessions (ours, the driver's):
		// each target is taken once.
		// New tabs are attached off the event loop: attaching waits for
		// CDP replies, and the loop must go on draining events meanwhile.
		existing[string(ev.TargetInfo.TargetID)] = true
		go d.recordNewTab(ctx, r, ev.TargetInfo, c)
	case "Target.targetDestroyed":
		var ev proto.TargetTargetDestroyed
		if m.Load(&ev) {
			return r.closed(r.sessionOf(string(ev.TargetID)))
		}
	case "Target.detachedFromTarget":
		var ev proto.TargetDetachedFromTarget
		if m.Load(&ev) {
			return r.closed(string(ev.SessionID))
		}
	case "Inspector.detached":
		return r.closed(string(m.SessionID))
	case "Page.javascriptDialogOpening", "Page.javascriptDialogClosed":
		r.dialogMessage(m)
	}
	return false
}

// sessionOf finds the session of a recorded tab by its target id.
func (r *recorder) sessionOf(targetID string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for s, rt := range r.tabs {
		if rt.t.id == targetID {
			return s
		}
	}
	return ""
}

// recordNewTab attaches to a tab opened during the recording, records its
// opening and starts recording in it. The tab is known to the recorder
// before its script can report, so the tab_open comes first. A tab that
// cannot be attached (it closed at once) is left out.
func (d *Driver) recordNewTab(ctx context.Context, r *recorder, info *proto.TargetTargetInfo, c stopChord) {
	actx, cancel := context.WithTimeout(ctx, d.life.Timeout())
	defer cancel()
	d.life.Lock()
	t, err := d.attach(actx, string(info.TargetID))
	d.life.Unlock()
	if err != nil {
		return
	}
	rt := &recTab{t: t, url: info.URL}
	r.mu.Lock()
	r.tabs[t.session] = rt
	r.mu.Unlock()
	r.opened(rt, info.OpenerID != "")
	id, err := d.installRecorder(actx, t, c)
	if err != nil {
		r.closed(t.session)
		return
	}
	r.mu.Lock()
	rt.script = id
	r.mu.Unlock()
}

// installRecorder exposes the binding to a tab and installs the recorder
// script in its current and future documents.
// It returns the script's identifier, for its removal.
func (d *Driver) installRecorder(ctx context.Context, t *tab, c stopChord) (string, error) {
	d.events.answerManually(t.session, true) // the person answers dialogs
	if err := t.call(ctx, "Runtime.enable", nil, nil); err != nil {
		return "", fmt.Errorf("browser: record: %w", err)
	}
	if err := t.call(ctx, "Runtime.addBinding", map[string]any{"name": recordBinding}, nil); err != nil {
		return "", fmt.Errorf("browser: record: %w", err)
	}
	var added struct {
		Identifier string `json:"identifier"`
	}
	if err := t.call(ctx, "Page.addScriptToEvaluateOnNewDocument",
		map[string]any{"source": recordScript(c), "runImmediately": true}, &added); err != nil {
		return "", fmt.Errorf("browser: record: %w", err)
	}
	return added.Identifier, nil
}

// uninstallRecorders leaves the tabs still open as they were.
func (d *Driver) uninstallRecorders(r *recorder) {
	cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r.mu.Lock()
	tabs := make([]*recTab, 0, len(r.tabs))
	for _, rt := range r.tabs {
		tabs = append(tabs, rt)
	}
	r.mu.Unlock()
	for _, rt := range tabs {
		_ = rt.t.call(cctx, "Page.removeScriptToEvaluateOnNewDocument", map[string]any{"identifier": rt.script}, nil)
		_ = rt.t.call(cctx, "Runtime.removeBinding", map[string]any{"name": recordBinding}, nil)
		d.events.answerManually(rt.t.session, false)
	}
}
