package browser

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

var (
	//go:embed stable.js
	stableJS string
	//go:embed walker.js
	walkerJS string
	//go:embed page.js
	pageJS string
	//go:embed api.js
	apiJS string
)

// script is what the driver installs in every document of its tabs, before
// the page's own scripts: one closure that defines window.__cogflow_v1.
var script = "(() => {\n'use strict';\n" + stableJS + walkerJS + pageJS + apiJS + selectorJS + "\n})();"

// op is one in-page operation of a batch; run performs a batch in one
// round trip.
type op map[string]any

// tab is one page target the driver has attached to.
type tab struct {
	d       *Driver
	p       *rod.Page
	id      string
	session string
	frames  map[string]string // cross-origin frame realm -> its window's object id
}

// call sends one CDP command to the tab's session.
func (t *tab) call(ctx context.Context, method string, params any, out any) error {
	if params == nil {
		params = struct{}{}
	}
	raw, err := t.p.Call(ctx, t.session, method, params)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// pageError is an error the in-page script reported.
type pageError struct {
	Err     string `json:"err"`
	Covered bool   `json:"covered"`
	Timeout bool   `json:"timeout"`
}

func (e *pageError) Error() string { return e.Err }

var errMissing = errors.New("browser: the driver's script is not in the page")

type evalResult struct {
	Result struct {
		Type        string          `json:"type"`
		Value       json.RawMessage `json:"value"`
		ObjectID    string          `json:"objectId"`
		Description string          `json:"description"`
	} `json:"result"`
	ExceptionDetails *struct {
		Text      string `json:"text"`
		Exception *struct {
			Description string `json:"description"`
		} `json:"exception"`
	} `json:"exceptionDetails"`
}

func (r *evalResult) err() error {
	if r.ExceptionDetails == nil {
		return nil
	}
	if r.ExceptionDetails.Exception != nil && r.ExceptionDetails.Exception.Description != "" {
		return fmt.Errorf("browser: in the page: %s", firstLine(r.ExceptionDetails.Exception.Description))
	}
	return fmt.Errorf("browser: in the page: %s", r.ExceptionDetails.Text)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// run performs a batch of in-page operations in a realm ("" is the top
// document with its same-origin frames; otherwise the path of refs of
// cross-origin iframes) and decodes the last result into out. It installs
// the script first when the document lacks it.
func (t *tab) run(ctx context.Context, realm string, batch []op, out any) error {
	for attempt := 0; ; attempt++ {
		raw, err := t.runOnce(ctx, realm, batch)
		if errors.Is(err, errMissing) && attempt == 0 {
			if err := t.inject(ctx, realm); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if strings.HasPrefix(raw, `{"err":`) {
			pe := &pageError{}
			if err := json.Unmarshal([]byte(raw), pe); err != nil {
				return err
			}
			return pe
		}
		if out == nil {
			return nil
		}
		return json.Unmarshal([]byte(raw), out)
	}
}

const missingMark = "\x01"

func (t *tab) runOnce(ctx context.Context, realm string, batch []op) (string, error) {
	b, err := json.Marshal(batch)
	if err != nil {
		return "", err
	}
	var res evalResult
	if realm == "" {
		err = t.call(ctx, "Runtime.evaluate", map[string]any{
			"expression":    "window.__cogflow_v1 ? window.__cogflow_v1.run(" + string(b) + ") : '\\u0001'",
			"returnByValue": true,
			"awaitPromise":  true,
		}, &res)
	} else {
		var win string
		if win, err = t.frameWindow(ctx, realm); err != nil {
			return "", err
		}
		err = t.callIn(ctx, t.sessionOf(realm), "Runtime.callFunctionOn", map[string]any{
			"objectId":            win,
			"functionDeclaration": "function(b) { return this.__cogflow_v1 ? this.__cogflow_v1.run(b) : '\\u0001'; }",
			"arguments":           []any{map[string]any{"value": batch}},
			"returnByValue":       true,
			"awaitPromise":        true,
		}, &res)
		if err != nil && isGone(err) {
			t.forget(realm)
		}
	}
	if err != nil {
		return "", err
	}
	if err := res.err(); err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(res.Result.Value, &s); err != nil {
		return "", fmt.Errorf("browser: unexpected answer from the page: %.80s", res.Result.Value)
	}
	if s == missingMark {
		return "", errMissing
	}
	return s, nil
}

// inject installs the script in the current document of a realm.
func (t *tab) inject(ctx context.Context, realm string) error {
	var res evalResult
	var err error
	if realm == "" {
		err = t.call(ctx, "Runtime.evaluate", map[string]any{"expression": script}, &res)
	} else {
		var win string
		if win, err = t.frameWindow(ctx, realm); err != nil {
			return err
		}
		err = t.callIn(ctx, t.sessionOf(realm), "Runtime.callFunctionOn", map[string]any{
			"objectId":            win,
			"functionDeclaration": "function() {" + script + "}",
		}, &res)
	}
	if err != nil {
		return err
	}
	return res.err()
}

// isGone tells whether an error means the document (or frame) an
// evaluation ran in went away, typically because the page navigated.
func isGone(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	for _, m := range []string{"context was destroyed", "Cannot find context", "Cannot find default execution context",
		"navigated or closed", "Could not find object", "No frame", "Execution context"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// splitRef separates a cross-origin element's ref into its realm and its
// ref inside that realm: "e4-ab12/e9-cd34" is e9-cd34 in the iframe e4-ab12.
func splitRef(ref string) (realm, inner string) {
	if i := strings.LastIndexByte(ref, '/'); i >= 0 {
		return ref[:i], ref[i+1:]
	}
	return "", ref
}

// frameWindow returns the object id of the window of a cross-origin iframe
// realm: the iframe element, its content document, that document's window.
func (t *tab) frameWindow(ctx context.Context, realm string) (string, error) {
	if w, ok := t.frames[realm]; ok {
		return w, nil
	}
	parent, ref := splitRef(realm)
	var el evalResult
	var err error
	if parent == "" {
		err = t.call(ctx, "Runtime.evaluate", map[string]any{
			"expression": "window.__cogflow_v1 && window.__cogflow_v1.node(" + jsString(ref) + ")",
		}, &el)
	} else {
		var pw string
		if pw, err = t.frameWindow(ctx, parent); err != nil {
			return "", err
		}
		err = t.callIn(ctx, t.sessionOf(parent), "Runtime.callFunctionOn", map[string]any{
			"objectId":            pw,
			"functionDeclaration": "function(r) { return this.__cogflow_v1 && this.__cogflow_v1.node(r); }",
			"arguments":           []any{map[string]any{"value": ref}},
		}, &el)
	}
	if err != nil {
		return "", err
	}
	if el.Result.ObjectID == "" {
		return "", fmt.Errorf("browser: the frame %s is no longer on the page", realm)
	}
	var desc struct {
		Node proto.DOMNode `json:"node"`
	}
	ps := t.sessionOf(parent)
	if err := t.callIn(ctx, ps, "DOM.describeNode", map[string]any{"objectId": el.Result.ObjectID, "depth": 1, "pierce": true}, &desc); err != nil {
		return "", err
	}
	if desc.Node.ContentDocument == nil {
		// Site isolation: the frame's document lives in another process,
		// reached through a target session of its own.
		return t.outOfProcess(ctx, realm, string(desc.Node.FrameID))
	}
	var doc struct {
		Object proto.RuntimeRemoteObject `json:"object"`
	}
	if err := t.callIn(ctx, ps, "DOM.resolveNode", map[string]any{"backendNodeId": desc.Node.ContentDocument.BackendNodeID}, &doc); err != nil {
		return "", err
	}
	var win evalResult
	if err := t.callIn(ctx, ps, "Runtime.callFunctionOn", map[string]any{
		"objectId":            doc.Object.ObjectID,
		"functionDeclaration": "function() { return this.defaultView; }",
	}, &win); err != nil {
		return "", err
	}
	if win.Result.ObjectID == "" {
		return "", fmt.Errorf("browser: the frame %s has no window", realm)
	}
	t.frames[realm] = win.Result.ObjectID
	return win.Result.ObjectID, nil
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// remaining is the time left before ctx's deadline in milliseconds, less a
// margin so that the page answers before the call is abandoned.
func remaining(ctx context.Context) int64 {
	dl, ok := ctx.Deadline()
	if !ok {
		return int64(DefaultActionTimeout / time.Millisecond)
	}
	// The page must answer before the deadline cuts the call off, or
	// its reason (a request in flight, a navigation pending) is lost: a
	// margin of a fifth of what is left, at least 50 ms, for a busy
	// machine's slow round trip.
	left := time.Until(dl).Milliseconds()
	ms := left - max(50, left/5)
	if ms < 1 {
		ms = 1
	}
	return ms
}
