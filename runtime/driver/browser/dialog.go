package browser

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"
)

// A native dialog (alert, confirm, prompt, beforeunload) blocks its page
// until it is answered. A step says how to answer the dialogs it opens
// (Action.Dialog, Action.Prompt); a dialog no step expects is dismissed so
// that the page goes on, and fails the step it opened in (or the next step
// on its tab), quoting its message. A tab being recorded is left to the
// person, who answers in the browser.

// dialogPlan is how the dialogs of one step on one tab are answered, and
// what opened.
type dialogPlan struct {
	answer     string // "accept", "dismiss", or "" when none is expected
	prompt     string
	opened     []string      // the dialogs answered as the step said
	unexpected []string      // the dialogs no step expected
	first      chan struct{} // closed when the first dialog opens
	once       sync.Once
}

// dialogs is the events' part for dialogs, by CDP session.
type dialogs struct {
	plans  map[string]*dialogPlan
	stray  map[string][]string // dialogs that opened between steps
	manual map[string]bool     // recorded tabs: the person answers
}

// describeDialog names a dialog for a message: its type and its text.
func describeDialog(typ proto.PageDialogType, message string) string {
	return fmt.Sprintf("%s dialog %q", typ, message)
}

// dialogOpened answers a dialog as its session's plan says.
func (e *events) dialogOpened(ctx context.Context, m *rod.Message) {
	var ev proto.PageJavascriptDialogOpening
	if !m.Load(&ev) {
		return
	}
	session := string(m.SessionID)
	what := describeDialog(ev.Type, ev.Message)
	e.mu.Lock()
	if e.dlg.manual[session] {
		e.mu.Unlock()
		return
	}
	p := e.dlg.plans[session]
	accept, text := false, ""
	switch {
	case p != nil && p.answer != "":
		accept = p.answer == "accept"
		text = p.prompt
		if text == "" {
			text = ev.DefaultPrompt
		}
		p.opened = append(p.opened, what)
		p.once.Do(func() { close(p.first) })
	case p != nil:
		p.unexpected = append(p.unexpected, what)
	default:
		if e.dlg.stray == nil {
			e.dlg.stray = map[string][]string{}
		}
		e.dlg.stray[session] = append(e.dlg.stray[session], what)
	}
	e.mu.Unlock()
	// Answered off the event loop: the command that opened the dialog is
	// still waiting for it to close.
	go func() {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		params := map[string]any{"accept": accept}
		if accept && ev.Type == proto.PageDialogTypePrompt {
			params["promptText"] = text
		}
		_, _ = e.b.Call(cctx, session, "Page.handleJavaScriptDialog", params)
	}()
}

// planDialogs starts the plan of a step on a session. It fails when a
// dialog opened on the session since the last step.
func (e *events) planDialogs(session, answer, prompt string) (*dialogPlan, error) {
	switch answer {
	case "", "accept", "dismiss":
	default:
		return nil, fmt.Errorf("dialog: %q is no answer (accept or dismiss)", answer)
	}
	p := &dialogPlan{answer: answer, prompt: prompt, first: make(chan struct{})}
	e.mu.Lock()
	defer e.mu.Unlock()
	if stray := e.dlg.stray[session]; len(stray) > 0 {
		delete(e.dlg.stray, session)
		return nil, fmt.Errorf("an unexpected %s opened after the last step and was dismissed; the step that opens it should say dialog: \"accept\" or \"dismiss\"", strings.Join(stray, ", then "))
	}
	if e.dlg.plans == nil {
		e.dlg.plans = map[string]*dialogPlan{}
	}
	e.dlg.plans[session] = p
	return p, nil
}

// endDialogs ends a step's plan. When the step expects a dialog and none
// opened yet, it waits for one while ctx lasts. It fails on a dialog no
// step expected, and on an expected one that never opened.
func (e *events) endDialogs(ctx context.Context, session string, p *dialogPlan, stepErr error) error {
	if p.answer != "" && stepErr == nil {
		select {
		case <-p.first:
		case <-ctx.Done():
		}
	}
	e.mu.Lock()
	if e.dlg.plans[session] == p {
		delete(e.dlg.plans, session)
	}
	unexpected, opened := p.unexpected, len(p.opened)
	e.mu.Unlock()
	if len(unexpected) > 0 {
		return fmt.Errorf("an unexpected %s opened and was dismissed; the step should say dialog: \"accept\" or \"dismiss\"", strings.Join(unexpected, ", then "))
	}
	if stepErr == nil && p.answer != "" && opened == 0 {
		return fmt.Errorf("the step expects a dialog (dialog: %q), but none opened", p.answer)
	}
	return nil
}

// answerManually leaves the dialogs of a session to the person (a
// recorded tab), or gives them back to the plans.
func (e *events) answerManually(session string, on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dlg.manual == nil {
		e.dlg.manual = map[string]bool{}
	}
	if on {
		e.dlg.manual[session] = true
	} else {
		delete(e.dlg.manual, session)
	}
}
