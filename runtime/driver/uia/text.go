package uia

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// Text actions, windows and waiting.

// copyCut copies (or cuts) an element's content, or the given text,
// through the clipboard API: the element's value, else its text. Cutting
// clears an editable element's value through ValuePattern, else with
// select-all and Delete.
func (d *Driver) copyCut(ctx context.Context, op string, e *driver.Element, text string) (string, error) {
	if e == nil {
		if text == "" {
			// The selection of the focused control: the keyboard is the
			// only way to reach it.
			if err := d.auto.Keys(mustChord(map[string]string{"copy": "Ctrl+C", "cut": "Ctrl+X"}[op])); err != nil {
				return "", err
			}
			return d.auto.Clipboard()
		}
		return text, d.auto.SetClipboard(text)
	}
	n, err := d.node(ctx, e)
	if err != nil {
		return "", err
	}
	content := firstOf(clean(n.Value), e.Text, e.Name)
	if n.Password {
		return "", errors.New("the content of a password field cannot be copied")
	}
	if err := d.auto.SetClipboard(content); err != nil {
		return "", err
	}
	if op == "cut" {
		if _, _, err := d.typeText(ctx, e, ""); err != nil {
			return "", err
		}
	}
	return content, nil
}

// paste pastes the given text, or the clipboard, into an element with
// Ctrl+V, so the application handles the paste as its own (formats, undo).
func (d *Driver) paste(ctx context.Context, e *driver.Element, text string) (string, error) {
	n, err := d.node(ctx, e)
	if err != nil {
		return "", err
	}
	if text != "" {
		if err := d.auto.SetClipboard(text); err != nil {
			return "", err
		}
	} else if text, err = d.auto.Clipboard(); err != nil {
		return "", err
	}
	if err := d.focus(n); err != nil {
		return "", err
	}
	return text, d.auto.Keys(mustChord("Ctrl+V"))
}

// selectText selects an element's whole text (focus, Ctrl+A). Selecting a
// part of a text needs TextPattern ranges, which the driver does not
// drive yet: asking for a part that is not the whole is an error rather
// than a wrong selection.
func (d *Driver) selectText(ctx context.Context, e *driver.Element, text string) (string, error) {
	if e == nil {
		return "", errors.New("select_text on the uia driver needs an element (selecting text found on screen is not supported)")
	}
	n, err := d.node(ctx, e)
	if err != nil {
		return "", err
	}
	whole := firstOf(clean(n.Value), e.Text, e.Name)
	if text != "" && clean(text) != whole {
		return "", fmt.Errorf("selecting part of a text (%q) is not supported by the uia driver", text)
	}
	if err := d.focus(n); err != nil {
		return "", err
	}
	return whole, d.auto.Keys(mustChord("Ctrl+A"))
}

// scroll brings an element into view (ScrollItemPattern) when no
// direction is given, else turns the wheel over it or the window's
// center: amount is in wheel notches (default 3).
func (d *Driver) scroll(ctx context.Context, e *driver.Element, direction string, amount float64) error {
	var n *Node
	if e != nil {
		var err error
		if n, err = d.node(ctx, e); err != nil {
			return err
		}
		if direction == "" && n.Has(PatternScrollItem) {
			return d.auto.Pattern(n.Ref, OpScrollIntoView, "")
		}
	}
	notches := int(amount)
	if notches == 0 {
		notches = 3
	}
	switch strings.ToLower(direction) {
	case "", "down":
		notches = -notches
	case "up":
	default:
		return fmt.Errorf("the uia driver scrolls up or down, not %q", direction)
	}
	var x, y float64
	if n != nil {
		var err error
		if x, y, err = d.point(n); err != nil {
			return err
		}
	} else if d.last != nil && len(d.last.Elements) > 0 {
		x, y = d.last.Elements[0].Bounds.Center()
	}
	return d.auto.Wheel(x, y, notches)
}

// findWindow finds a top-level window by title: an exact match (ignoring
// case), else the only one whose title contains the text.
func (d *Driver) findWindow(title string) (driver.Window, error) {
	ws, err := d.auto.Windows()
	if err != nil {
		return driver.Window{}, err
	}
	want := strings.ToLower(clean(title))
	var partial []driver.Window
	for _, w := range ws {
		have := strings.ToLower(clean(w.Title))
		switch {
		case have == want:
			return w, nil
		case want != "" && strings.Contains(have, want):
			partial = append(partial, w)
		}
	}
	switch len(partial) {
	case 1:
		return partial[0], nil
	case 0:
		return driver.Window{}, fmt.Errorf("no window is titled %q", title)
	}
	titles := make([]string, len(partial))
	for i, w := range partial {
		titles[i] = fmt.Sprintf("%q", w.Title)
	}
	return driver.Window{}, fmt.Errorf("several windows match %q: %s", title, strings.Join(titles, ", "))
}

// closeWindow closes the window with the given title, or the current one.
func (d *Driver) closeWindow(title string) error {
	id := d.window
	if title != "" {
		w, err := d.findWindow(title)
		if err != nil {
			return err
		}
		id = w.ID
	}
	if id == "" {
		ws, err := d.auto.Windows()
		if err != nil {
			return err
		}
		if len(ws) == 0 {
			return errors.New("there is no window to close")
		}
		id = ws[0].ID
	}
	if err := d.auto.CloseWindow(id); err != nil {
		return err
	}
	if id == d.window {
		d.window = ""
	}
	return nil
}

// wait waits seconds, or until a text is shown in the current window.
func (d *Driver) wait(ctx context.Context, a driver.Action) error {
	if a.Text == "" {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(a.Number * float64(time.Second))):
			return nil
		}
	}
	for {
		t, err := d.observe(ctx)
		if err != nil {
			return err
		}
		for _, e := range t.Elements {
			if e.Visible && (contains(e.Name, a.Text) || contains(e.Text, a.Text) || contains(e.Value, a.Text)) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%q did not appear: %w", a.Text, ctx.Err())
		case <-time.After(d.settle):
		}
	}
}
