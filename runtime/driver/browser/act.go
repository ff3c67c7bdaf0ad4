package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Do performs one action on the current tab, bounded by Action.Timeout (or
// Options.ActionTimeout, default 10 s), and waits until the page settles.
func (d *Driver) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	return onTab(ctx, d, a.Op, a.Timeout, func(ctx context.Context, t *tab) (driver.Result, error) { return d.act(ctx, t, a) })
}

// act is Do's work on tab t, with the driver locked and ctx bounded.
func (d *Driver) act(ctx context.Context, t *tab, a driver.Action) (driver.Result, error) {
	if a.Secret && (a.Op == action.Type || a.Op == action.Paste || a.Op == action.SetValue) {
		// Before acting: a screenshot after a failure covers it too.
		d.noteSecret(a.Text)
		if a.Target != nil {
			// Best effort: a field not found now is found by the action
			// itself, and its value by the text search at the screenshot.
			_, _ = runOn(ctx, t, a.Target, op{"op": "secretField"}, nil)
		}
	}
	plan, err := d.events.planDialogs(t.session, a.Dialog, a.Prompt)
	if err != nil {
		return driver.Result{}, err
	}
	res, err := d.do(ctx, t, a)
	if derr := d.events.endDialogs(ctx, t.session, plan, err); derr != nil {
		err = derr
	}
	return res, err
}

func (d *Driver) do(ctx context.Context, t *tab, a driver.Action) (driver.Result, error) {
	var r driver.Result
	var err error
	switch a.Op {
	case action.Click:
		// An option of a native <select> has no place on the page until
		// the list pops up, so choosing it is API-first: the select's value.
		if a.Target != nil && a.Target.Role == "option" {
			text := a.Target.Name
			if text == "" {
				text = a.Target.Text
			}
			r.Text, err = d.typeText(ctx, t, a.Target, text)
			break
		}
		if a.Button != "" && a.Button != "left" {
			err = d.pointerButton(ctx, t, a.Target, a.Button)
			break
		}
		err = d.pointer(ctx, t, a.Op, a.Target, 0)
	case action.DoubleClick, action.RightClick, action.Move:
		err = d.pointer(ctx, t, a.Op, a.Target, 0)
	case action.Drag:
		err = d.drag(ctx, t, a.Target, a.Target2)
	case action.Upload:
		err = d.upload(ctx, t, a.Target, a.Files)
	case action.MultiSelect:
		err = d.multiSelect(ctx, t, a.Targets)
	case action.Type:
		r.Text, err = d.typeText(ctx, t, a.Target, a.Text)
	case action.Clear:
		err = d.clear(ctx, t, a.Target)
	case action.Enter:
		r.Text, err = d.key(ctx, t, "Enter", a.Target)
	case action.Key:
		r.Text, err = d.key(ctx, t, a.Text, a.Target)
	case action.Save:
		r.Text, err = d.key(ctx, t, "Ctrl+S", a.Target)
	case action.Copy, action.Cut:
		r.Text, err = d.copyCut(ctx, t, string(a.Op), a.Target, a.Text)
		r.Secret = d.clipSecret
	case action.Paste:
		r.Text, err = d.paste(ctx, t, a.Target, a.Text)
	case action.SelectText:
		r.Text, err = d.selectText(ctx, t, a.Target, a.Text)
	case action.Scroll:
		if a.ScrollTo != nil {
			err = d.doReplay(ctx, t, a)
			break
		}
		err = d.scroll(ctx, t, a.Target, a.Text, a.Number)
	case action.Wait:
		err = d.wait(ctx, t, a)
	case action.SetViewport, action.WaitScript, action.WaitNavigation:
		err = d.doReplay(ctx, t, a)
	case action.SetValue:
		r.Text, err = a.Text, d.setValue(ctx, t, a.Target, a.Text, a.Secret)
	case action.SubmitForm:
		r.Window, err = d.submitForm(ctx, t, a.Target)
	case action.DownloadLink:
		r.Text, err = d.downloadLink(ctx, t, a.Target, a.Text)
	case action.ReadTable:
		r.Table, err = d.readTable(ctx, t, a.Target)
	default:
		return d.doWindow(ctx, t, a)
	}
	return r, err
}

// doWindow performs the actions on tabs and history.
func (d *Driver) doWindow(ctx context.Context, t *tab, a driver.Action) (driver.Result, error) {
	var r driver.Result
	var err error
	switch a.Op {
	case action.Open:
		if err = d.navigate(ctx, t, a.Text); err == nil {
			r.Window = d.window(ctx, t)
		}
	case action.NewTab:
		var nt *tab
		if nt, err = d.newTab(ctx, a.Text); err == nil {
			err = d.activate(ctx, nt)
			r.Window = d.window(ctx, nt)
		}
	case action.CloseTab:
		err = d.closeTab(ctx, t)
	case action.CloseWindow:
		err = d.closeWindow(ctx, a.Text)
	case action.SwitchWindow:
		r.Window, err = d.switchWindowWaiting(ctx, a.Text)
	case action.Back:
		err = d.back(ctx, t)
	default:
		err = fmt.Errorf("the browser driver does not perform %q", a.Op)
	}
	return r, err
}

// typeText focuses the field, selects its content and replaces it with one
// Input.insertText (input events as typing fires them), reads the field
// back, then fires change. A <select> or a date/color/range input gets its
// value set (API-first), then the input and change events a picker fires.
func (d *Driver) typeText(ctx context.Context, t *tab, e *driver.Element, text string) (string, error) {
	if e == nil {
		return "", errors.New("type needs a target element")
	}
	realm, o := spec(e)
	target := op{"op": "type", "t": o, "text": text}
	var res struct {
		Insert bool `json:"insert"`
		Mark   int  `json:"mark"`
	}
	if err := t.run(ctx, realm, []op{target}, &res); err != nil {
		return "", err
	}
	if !res.Insert {
		return text, d.settleIn(ctx, t, realm, res.Mark)
	}
	if err := t.call(ctx, "Input.insertText", map[string]any{"text": text}, nil); err != nil {
		return "", err
	}
	// Read the field back before its change event: a value that did not
	// take (maxlength, a page that rewrites what is typed) fails the step.
	return text, d.settleIn(ctx, t, realm, res.Mark, op{"op": "readBack", "t": o, "text": text}, op{"op": "change", "t": o})
}

// clear empties a field as selecting its content and deleting it does
// (the page sees the input event of a deletion), reads it back empty, then
// fires change. A <select> or a date/color/range input gets the empty
// value set, which reads back and fires its own events.
func (d *Driver) clear(ctx context.Context, t *tab, e *driver.Element) error {
	if e == nil {
		return errors.New("clear needs a target element")
	}
	realm, o := spec(e)
	var res struct {
		Deleted bool `json:"deleted"`
		Mark    int  `json:"mark"`
	}
	if err := t.run(ctx, realm, []op{{"op": "type", "t": o, "text": ""}}, &res); err != nil {
		return err
	}
	if !res.Deleted {
		return d.settleIn(ctx, t, realm, res.Mark)
	}
	return d.settleIn(ctx, t, realm, res.Mark, op{"op": "readBack", "t": o, "text": ""}, op{"op": "change", "t": o})
}

// settleIn settles after an action in a realm: operations to finish it run
// there, the stability check in the top document.
func (d *Driver) settleIn(ctx context.Context, t *tab, realm string, mark int, pre ...op) error {
	if realm == "" {
		return d.settle(ctx, t, mark, pre...)
	}
	if len(pre) > 0 {
		if err := t.run(ctx, realm, pre, nil); err != nil {
			return err
		}
	}
	return d.settle(ctx, t, -1)
}

// key presses a chord, in the target when given (it gets the focus first).
// Ctrl+C, Ctrl+X and Ctrl+V go through copy, cut and paste, since the
// clipboard is the driver's.
func (d *Driver) key(ctx context.Context, t *tab, keys string, e *driver.Element) (string, error) {
	c, err := parseChord(keys)
	if err != nil {
		return "", err
	}
	if c.bits == modCtrl {
		switch strings.ToLower(c.key.key) {
		case "c":
			return d.copyCut(ctx, t, "copy", nil, "")
		case "x":
			return d.copyCut(ctx, t, "cut", nil, "")
		case "v":
			return d.paste(ctx, t, e, "")
		}
	}
	mark, realm := -1, ""
	if e != nil {
		var res textResult
		var err error
		if realm, err = runOn(ctx, t, e, op{"op": "focus"}, &res); err != nil {
			return "", err
		}
		mark = res.Mark
	}
	if err := t.press(ctx, c); err != nil {
		return "", err
	}
	return "", d.settleIn(ctx, t, realm, mark)
}

type textResult struct {
	Text   string `json:"text"`
	Insert bool   `json:"insert"`
	Mark   int    `json:"mark"`
	Secret bool   `json:"secret"` // copied out of a field a secret was typed into
}

// runOn runs one operation of page.js on the element (in its frame's
// realm) or, with no element, on the page, and returns the realm it ran in.
func runOn(ctx context.Context, t *tab, e *driver.Element, o op, out any) (realm string, err error) {
	if e != nil {
		var s op
		realm, s = spec(e)
		o["t"] = s
	}
	return realm, t.run(ctx, realm, []op{o}, out)
}

// copyCut fires the page's copy or cut event on the target (or the
// selection) and keeps the text in the driver's clipboard: the element's
// text or value, the selection, or what a page handler put in clipboardData.
// copy with a text and no element copies that text.
func (d *Driver) copyCut(ctx context.Context, t *tab, kind string, e *driver.Element, text string) (string, error) {
	if kind == "copy" && e == nil && text != "" {
		d.clipboard, d.clipSecret = text, false
		return text, nil
	}
	var res textResult
	realm, err := runOn(ctx, t, e, op{"op": kind}, &res)
	if err != nil {
		return "", err
	}
	d.clipboard, d.clipSecret = res.Text, res.Secret
	if res.Secret {
		d.noteSecret(res.Text) // pasted elsewhere, it is covered there too
	}
	return res.Text, d.settleIn(ctx, t, realm, res.Mark)
}

// paste fires the page's paste event on the target with the text (default:
// the clipboard) and, unless a handler took it, inserts it at the caret.
func (d *Driver) paste(ctx context.Context, t *tab, e *driver.Element, text string) (string, error) {
	if text == "" {
		text = d.clipboard
	}
	var res textResult
	realm, err := runOn(ctx, t, e, op{"op": "paste", "text": text}, &res)
	if err != nil {
		return "", err
	}
	if res.Insert && text != "" {
		if err := t.call(ctx, "Input.insertText", map[string]any{"text": text}, nil); err != nil {
			return "", err
		}
	}
	return text, d.settleIn(ctx, t, realm, res.Mark)
}

// selectText selects the element's text, or the given text (within the
// element when given) with a DOM Range.
func (d *Driver) selectText(ctx context.Context, t *tab, e *driver.Element, text string) (string, error) {
	var res textResult
	realm, err := runOn(ctx, t, e, op{"op": "select", "text": text}, &res)
	if err != nil {
		return "", err
	}
	return res.Text, d.settleIn(ctx, t, realm, res.Mark)
}

// multiSelect Ctrl-clicks each target; options of a <select multiple> are
// toggled instead (API-first: a native list box takes no synthetic clicks
// reliably).
func (d *Driver) multiSelect(ctx context.Context, t *tab, es []*driver.Element) error {
	for _, e := range es {
		realm, o := spec(e)
		var res struct {
			Option bool `json:"option"`
		}
		if err := t.run(ctx, realm, []op{{"op": "isOption", "t": o}}, &res); err != nil {
			return err
		}
		if res.Option {
			if err := t.run(ctx, realm, []op{{"op": "toggle", "t": o}}, nil); err != nil {
				return err
			}
			continue
		}
		if err := d.pointer(ctx, t, action.Click, e, modCtrl); err != nil {
			return err
		}
	}
	return d.settle(ctx, t, -1)
}

// scroll turns the wheel over the target (default: the page) by amount
// screens (default 1) in a direction (default down).
func (d *Driver) scroll(ctx context.Context, t *tab, e *driver.Element, dir string, amount float64) error {
	if amount == 0 {
		amount = 1
	}
	var s spot
	realm, err := runOn(ctx, t, e, op{"op": "scrollInfo"}, &s)
	if err != nil {
		return err
	}
	var dx, dy float64
	switch strings.ToLower(dir) {
	case "", "down":
		dy = amount * s.H
	case "up":
		dy = -amount * s.H
	case "right":
		dx = amount * s.W
	case "left":
		dx = -amount * s.W
	default:
		return fmt.Errorf("unknown direction %q (up, down, left or right)", dir)
	}
	if realm != "" {
		return errors.New("scrolling inside a cross-origin frame is not supported")
	}
	if err := t.call(ctx, "Input.dispatchMouseEvent", map[string]any{
		"type": "mouseWheel", "x": s.X, "y": s.Y, "deltaX": dx, "deltaY": dy,
	}, nil); err != nil {
		return err
	}
	return d.settle(ctx, t, s.Mark, op{"op": "scrolled", "ms": remaining(ctx)})
}

// wait waits a number of seconds, until the target element is on the page
// (found again by its attributes) or until the text is: an in-page promise
// woken by mutations, not a polling loop. It survives navigations.
func (d *Driver) wait(ctx context.Context, t *tab, a driver.Action) error {
	if a.Target == nil && a.Text == "" {
		if err := sleep(ctx, time.Duration(a.Number*float64(time.Second))); err != nil {
			return err
		}
		return d.settle(ctx, t, -1)
	}
	realm := ""
	o := op{"op": "wait", "text": a.Text}
	if a.Target != nil {
		var s op
		realm, s = spec(a.Target)
		delete(s, "p") // the path is where it was, not what it is
		o["q"] = s
	}
	for {
		o["ms"] = remaining(ctx)
		err := t.run(ctx, realm, []op{o}, nil)
		if err == nil {
			return d.settle(ctx, t, -1)
		}
		if !isGone(err) || ctx.Err() != nil {
			return err
		}
		if err := sleep(ctx, 2*time.Millisecond); err != nil {
			return err
		}
	}
}
