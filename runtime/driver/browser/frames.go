package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Out-of-process iframes. With site isolation (--site-per-process, the
// default on desktop Chromium for cross-site frames) a cross-site frame's
// document is in another renderer: the page's session cannot evaluate in
// it. Its frame id is also the id of a target of type "iframe"; attaching
// to that target gives a session in which the frame's window is evaluated
// like any other realm. The realm keeps its name (the path of iframe refs),
// so element refs, hit tests and pointer offsets work as for any
// cross-origin frame.

// oopifSessions maps a tab's realms to the sessions of their out-of-process
// frames; a realm absent from it is evaluated in the tab's own session.
var oopifSessions sync.Map // *tab -> map[string]string

func (t *tab) sessions() map[string]string {
	m, _ := oopifSessions.LoadOrStore(t, map[string]string{})
	return m.(map[string]string)
}

// sessionOf is the session a realm is evaluated in: the session of the
// nearest out-of-process frame on its path, or the tab's.
func (t *tab) sessionOf(realm string) string {
	s := t.sessions()
	for r := realm; r != ""; r, _ = splitRef(r) {
		if sess, ok := s[r]; ok {
			return sess
		}
	}
	return t.session
}

// forget drops what is known of a realm whose document went away.
func (t *tab) forget(realm string) {
	delete(t.frames, realm)
	delete(t.sessions(), realm)
}

// callIn sends one CDP command to a given session of the tab's page.
func (t *tab) callIn(ctx context.Context, session, method string, params any, out any) error {
	if params == nil {
		params = struct{}{}
	}
	raw, err := t.p.Call(ctx, session, method, params)
	if err != nil {
		return err
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// outOfProcess attaches to the target of an out-of-process frame and
// returns its window's object id, remembering the session for the realm.
func (t *tab) outOfProcess(ctx context.Context, realm, frameID string) (string, error) {
	if frameID == "" {
		return "", fmt.Errorf("browser: the frame %s has no document the driver can reach", realm)
	}
	raw, err := t.d.b.Call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": frameID, "flatten": true})
	if err != nil {
		return "", fmt.Errorf("browser: the frame %s runs in another process and cannot be attached: %w", realm, err)
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(raw, &att); err != nil {
		return "", err
	}
	var win evalResult
	if err := t.callIn(ctx, att.SessionID, "Runtime.evaluate", map[string]any{"expression": "window"}, &win); err != nil {
		return "", err
	}
	if win.Result.ObjectID == "" {
		return "", fmt.Errorf("browser: the frame %s has no window", realm)
	}
	t.sessions()[realm] = att.SessionID
	t.frames[realm] = win.Result.ObjectID
	return win.Result.ObjectID, nil
}
