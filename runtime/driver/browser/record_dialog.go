package browser

import (
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/cogflow/cogflow/runtime/trace"
)

// openDialog is a dialog a recorded tab shows, waiting for the person.
type openDialog struct {
	typ, message string
	at           time.Time
	cause        string // the click, submit or Enter that opened it
}

// dialogMessage records a native dialog of a recorded tab once the person
// has answered it: a dialog event with the answer, caused by the action
// just before it opened.
func (r *recorder) dialogMessage(m *rod.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rt := r.tabs[string(m.SessionID)]
	if rt == nil {
		return
	}
	if m.Method == "Page.javascriptDialogOpening" {
		var ev proto.PageJavascriptDialogOpening
		if !m.Load(&ev) {
			return
		}
		d := &openDialog{typ: string(ev.Type), message: ev.Message, at: time.Now()}
		if r.lastAct >= 0 && r.lastActTab == rt && time.Since(r.lastActTime) < 3*time.Second {
			d.cause = r.tr.Events[r.lastAct].ID
		}
		rt.dialog = d
		return
	}
	var ev proto.PageJavascriptDialogClosed
	d := rt.dialog
	rt.dialog = nil
	if d == nil || !m.Load(&ev) {
		return
	}
	e := trace.Event{Time: r.now(), Kind: trace.KindDialog, Cause: d.cause,
		Dialog: &trace.Dialog{Type: d.typ, Message: d.message, Accept: ev.Result}}
	if ev.Result && d.typ == trace.DialogPrompt {
		e.Dialog.Prompt = ev.UserInput
	}
	r.switchTo(rt, e.Time)
	r.add(e)
}
