package browser

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/cogflow/cogflow/runtime/trace"
)

// recForm is what record.js reports of the form a target submits with.
type recForm struct {
	// ID finds the form again in its document (record.js's formChain).
	ID       int      `json:"id"`
	Action   string   `json:"action"`
	Method   string   `json:"method"`
	Field    string   `json:"field"`
	Hidden   int      `json:"hidden"`
	Filled   []string `json:"filled"`
	Onsubmit bool     `json:"onsubmit"`
	Charset  string   `json:"charset"`
	// script is the Go side's finding on submit listeners: a
	// trace.FormScript* value, "" when not checked.
	script string
}

// info is the form's facts for the snapshot. A form whose submit
// listeners were not checked is FormScriptUnknown: only a check proves
// there is none.
func (f *recForm) info() *trace.FormInfo {
	fi := &trace.FormInfo{Action: f.Action, Method: f.Method, Field: f.Field, Hidden: f.Hidden, Script: f.script, Charset: f.Charset}
	if len(f.Filled) > 0 {
		fi.Filled = append([]string(nil), f.Filled...)
	}
	switch {
	case f.Onsubmit:
		fi.Script = trace.FormScriptOnsubmit
	case fi.Script == "":
		fi.Script = trace.FormScriptUnknown
	}
	return fi
}

// formCheckTimeout bounds the listener check of one form: the recording
// goes on without it (the form's script is then "unknown").
const formCheckTimeout = 2 * time.Second

// formObjectGroup holds the remote objects of one check, released after.
const formObjectGroup = "cogflow-record-form"

// remoteObject is the part of a CDP Runtime.RemoteObject the check reads.
type remoteObject struct {
	ObjectID string          `json:"objectId"`
	Value    json.RawMessage `json:"value"`
}

// formScript lists, through the DevTools protocol
// (DOMDebugger.getEventListeners), the submit listeners on the form id of
// execution context execCtx, its ancestors, the document and the window,
// passing over the recorder's own. It returns trace.FormScriptListener
// when a page script listens, FormScriptNone when none does, and
// FormScriptUnknown when it could not tell (the document is gone).
func (d *Driver) formScript(ctx context.Context, t *tab, execCtx int, id int) string {
	cctx, cancel := context.WithTimeout(ctx, formCheckTimeout)
	defer cancel()
	defer func() {
		_ = t.call(cctx, "Runtime.releaseObjectGroup", map[string]any{"objectGroup": formObjectGroup}, nil)
	}()
	var chain struct {
		Result    remoteObject    `json:"result"`
		Exception json.RawMessage `json:"exceptionDetails"`
	}
	err := t.call(cctx, "Runtime.evaluate", map[string]any{
		"expression": "globalThis.__cogflow_rec_form(" + strconv.Itoa(id) + ")", "contextId": execCtx,
		"objectGroup": formObjectGroup, "silent": true,
	}, &chain)
	if err != nil || chain.Exception != nil || chain.Result.ObjectID == "" {
		return trace.FormScriptUnknown
	}
	var props struct {
		Result []struct {
			Name  string        `json:"name"`
			Value *remoteObject `json:"value"`
		} `json:"result"`
	}
	if err := t.call(cctx, "Runtime.getProperties", map[string]any{"objectId": chain.Result.ObjectID, "ownProperties": true}, &props); err != nil {
		return trace.FormScriptUnknown
	}
	seen := 0
	for _, p := range props.Result {
		if _, err := strconv.Atoi(p.Name); err != nil || p.Value == nil || p.Value.ObjectID == "" {
			continue
		}
		seen++
		found, err := d.submitListener(cctx, t, p.Value.ObjectID)
		if err != nil {
			return trace.FormScriptUnknown
		}
		if found {
			return trace.FormScriptListener
		}
	}
	if seen < 3 { // the form, the document and the window at least
		return trace.FormScriptUnknown
	}
	return trace.FormScriptNone
}

// submitListener reports whether a page script listens for submit on the
// object (cogflow's own listeners, marked __cogflowOwn by record.js and
// stable.js, aside).
func (d *Driver) submitListener(ctx context.Context, t *tab, objectID string) (bool, error) {
	var ls struct {
		Listeners []struct {
			Type    string        `json:"type"`
			Handler *remoteObject `json:"handler"`
		} `json:"listeners"`
	}
	if err := t.call(ctx, "DOMDebugger.getEventListeners", map[string]any{"objectId": objectID}, &ls); err != nil {
		return false, err
	}
	for _, l := range ls.Listeners {
		if l.Type != "submit" {
			continue
		}
		if l.Handler == nil || l.Handler.ObjectID == "" {
			return true, nil // cannot tell it from ours: a listener
		}
		var own struct {
			Result remoteObject `json:"result"`
		}
		err := t.call(ctx, "Runtime.callFunctionOn", map[string]any{
			"objectId": l.Handler.ObjectID, "returnByValue": true, "silent": true,
			"functionDeclaration": "function() { return this.__cogflowOwn === true; }",
		}, &own)
		if err != nil {
			return false, err
		}
		if string(own.Result.Value) != "true" {
			return true, nil
		}
	}
	return false, nil
}

// checkForm fills in m's form's script from the page, before the message
// is recorded; a message without a form, or with an onsubmit handler
// (already a script), needs no check.
func (d *Driver) checkForm(ctx context.Context, rt *recTab, execCtx int, m *recMsg) {
	if m.Form == nil || m.Form.Onsubmit || m.Form.ID <= 0 {
		return
	}
	m.Form.script = d.formScript(ctx, rt.t, execCtx, m.Form.ID)
}
