package android

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Do performs one action, bounded by Action.Timeout (or
// Options.ActionTimeout, default 20 s), and waits until the screen
// settles.
func (d *Driver) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	return driver.Call(ctx, d.life, a.Op, a.Timeout, func(ctx context.Context) (driver.Result, error) { return d.act(ctx, a) })
}

// act performs the action and waits for the screen to settle, under Do's
// lock and time-out; a typed text is then read back from the field.
func (d *Driver) act(ctx context.Context, a driver.Action) (driver.Result, error) {
	if a.Op == action.ContentQuery {
		// A query reads a provider; the screen stays as it was, and so
		// does the last dump.
		rows, err := d.contentQuery(ctx, a)
		return driver.Result{Rows: rows}, err
	}
	d.last = nil // the screen is about to change
	if a.Secret && (a.Op == action.Type || a.Op == action.Paste) && a.Text != "" && !slices.Contains(d.secrets, a.Text) {
		d.secrets = append(d.secrets, a.Text) // screenshots cover it (Screenshot)
	}
	res, err := d.do(ctx, a)
	if err == nil && a.Op != action.Wait {
		err = d.settle(ctx)
	}
	if err == nil && a.Op == action.Type {
		err = d.checkTyped(a.Target, a.Text)
	}
	return res, err
}

func (d *Driver) do(ctx context.Context, a driver.Action) (driver.Result, error) {
	var r driver.Result
	var err error
	switch a.Op {
	case action.Click:
		err = d.tap(ctx, a.Target, 1)
	case action.DoubleClick:
		err = d.tap(ctx, a.Target, 2)
	case action.RightClick:
		err = d.longPress(ctx, a.Target)
	case action.Type:
		r.Text, err = d.typeText(ctx, a.Target, a.Text)
	case action.Enter:
		if a.Target != nil && !a.Target.Focus {
			if err = d.tap(ctx, a.Target, 1); err != nil {
				break
			}
		}
		err = d.key(ctx, "Enter")
	case action.Key:
		if a.Target != nil && !a.Target.Focus {
			if err = d.tap(ctx, a.Target, 1); err != nil {
				break
			}
		}
		err = d.key(ctx, a.Text)
	case action.Back:
		err = d.key(ctx, "Back")
	case action.Scroll:
		err = d.scroll(ctx, a.Target, a.Text, a.Number)
	case action.Swipe:
		err = d.swipe(ctx, a.Target, a.Text, a.Number)
	case action.Launch:
		r.Window, err = d.launch(ctx, a.Text)
	case action.Open:
		r.Window, err = d.openURL(ctx, a.Text)
	case action.Wait:
		err = d.wait(ctx, a)
	case action.Intent:
		r.Window, err = d.intent(ctx, a)
	default:
		err = fmt.Errorf("the android driver does not perform %q (it performs %s)", a.Op,
			action.Join(d.Capabilities().Actions, ", "))
	}
	return r, err
}

// shell runs a command whose output is a message only when it fails:
// `input` and `am` print errors but often exit 0.
func (d *Driver) shell(ctx context.Context, cmd string) error {
	out, err := d.dev.Shell(ctx, cmd)
	if err != nil {
		return deviceError(ctx, err)
	}
	if msg := failure(out); msg != "" {
		return fmt.Errorf("%s: %s", strings.Fields(cmd)[0], msg)
	}
	return nil
}

// failure finds an error in a command's output.
func failure(out []byte) string {
	lines := strings.Split(string(out), "\n")
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if strings.HasSuffix(line, ":") && i+1 < len(lines) {
			line += " " + strings.TrimSpace(lines[i+1]) // "Exception occurred while executing 'text':" says why next
		}
		switch {
		case strings.HasPrefix(line, "Error"), strings.HasPrefix(line, "Exception"),
			strings.Contains(line, "Exception:"), strings.HasPrefix(line, "/system/bin/sh:"),
			strings.Contains(line, "monkey aborted"), strings.HasSuffix(line, "not found"),
			strings.HasPrefix(line, "Usage:"):
			return clip(line, 300)
		}
	}
	return ""
}

func center(e *driver.Element) (int, int, error) {
	if e == nil {
		return 0, 0, errors.New("needs a target element")
	}
	if e.Bounds.W <= 0 || e.Bounds.H <= 0 {
		return 0, 0, fmt.Errorf("the element %s has no area on the screen", describe(e))
	}
	x, y := e.Bounds.Center()
	return int(x), int(y), nil
}

func describe(e *driver.Element) string {
	s := e.Role
	if s == "" {
		s = "element"
	}
	if n := first(e.Name, e.Text, e.ID); n != "" {
		s += fmt.Sprintf(" %q", clip(n, 40))
	}
	return s
}

// tap taps the element's center, twice for a double click (two `input
// tap`s in one shell, close enough for the system's double-tap timeout).
func (d *Driver) tap(ctx context.Context, e *driver.Element, n int) error {
	x, y, err := center(e)
	if err != nil {
		return err
	}
	cmd := fmt.Sprintf("input tap %d %d", x, y)
	if n == 2 {
		cmd += "; " + cmd
	}
	return d.shell(ctx, cmd)
}

// longPress holds a finger on the element's center: Android's context
// action, what a recorded long press compiles to (right_click).
func (d *Driver) longPress(ctx context.Context, e *driver.Element) error {
	x, y, err := center(e)
	if err != nil {
		return err
	}
	return d.shell(ctx, fmt.Sprintf("input swipe %d %d %d %d 800", x, y, x, y))
}

// typeText focuses the field, clears what it holds and types the text.
func (d *Driver) typeText(ctx context.Context, e *driver.Element, text string) (string, error) {
	if e == nil {
		return "", errors.New("type needs a target element")
	}
	steps := typeCommands(text)
	for _, st := range steps {
		if st.nonASCII {
			// Before anything is typed: half a text is worse than none.
			if err := d.needIME(ctx); err != nil {
				return "", err
			}
			break
		}
	}
	if !e.Focus {
		if err := d.tap(ctx, e, 1); err != nil {
			return "", err
		}
	}
	if err := d.clear(ctx, e); err != nil {
		return "", err
	}
	for _, st := range steps {
		if err := d.shell(ctx, st.cmd); err != nil {
			return "", fmt.Errorf("typing into %s: %w", describe(e), err)
		}
	}
	return text, nil
}

// needIME checks that ADBKeyBoard is the input method before text only it
// can type is sent: without it the broadcast is silently lost.
func (d *Driver) needIME(ctx context.Context) error {
	out, err := d.dev.Shell(ctx, "settings get secure default_input_method")
	if err != nil {
		return deviceError(ctx, err)
	}
	if !strings.Contains(strings.ToLower(string(out)), "adbkeyboard") {
		return errNonASCII
	}
	return nil
}

// clear empties a field: the cursor to the end of its line, then deletes
// and forward deletes, one each per character it holds, which empties it
// wherever the cursor stands (in a multi-line field MOVE_END only reaches
// the end of a line). The observed value has its whitespace collapsed, so
// a few more are sent than it shows. Key events work on every version and
// with every keyboard; select-all needs Android 13's keycombination.
func (d *Driver) clear(ctx context.Context, e *driver.Element) error {
	n := len([]rune(e.Value))
	if n == 0 {
		return nil
	}
	n += 2 + n/8
	codes := []string{"KEYCODE_MOVE_END"}
	for _, code := range []string{"KEYCODE_DEL", "KEYCODE_FORWARD_DEL"} {
		for i := 0; i < n; i++ {
			codes = append(codes, code)
		}
	}
	return d.shell(ctx, "input keyevent "+strings.Join(codes, " "))
}

// key presses a key or chord by its language name.
func (d *Driver) key(ctx context.Context, name string) error {
	cmd, err := keyCommand(name)
	if err != nil {
		return err
	}
	return d.shell(ctx, cmd)
}

// wait sleeps Number seconds, or until the text is on the screen.
func (d *Driver) wait(ctx context.Context, a driver.Action) error {
	if a.Text == "" {
		return sleep(ctx, time.Duration(a.Number*float64(time.Second)))
	}
	want := collapse(strings.ToLower(a.Text))
	for {
		h, _, err := d.dump(ctx)
		if err != nil && !expired(ctx) {
			return err
		}
		if err != nil {
			return fmt.Errorf("%q did not appear on the screen", a.Text)
		}
		if strings.Contains(strings.ToLower(collapse(screenText(h))), want) {
			return nil
		}
		if err := sleep(ctx, 250*time.Millisecond); err != nil {
			return fmt.Errorf("%q did not appear on the screen", a.Text)
		}
	}
}

// checkTyped compares a field after typing with the text typed: `input
// text` can drop characters on a busy device, and a field can refuse some
// (a length limit). Only letters and digits count, in order and ignoring
// case, so fields that format what they get (phone numbers, amounts) pass.
// A field that is gone or hides its text (a password) is not checked.
func (d *Driver) checkTyped(target *driver.Element, text string) error {
	if d.last == nil || target == nil {
		return nil
	}
	tree := normalize(d.last, d.lastTaken)
	j := sameField(tree, target)
	if j < 0 {
		return nil
	}
	r := rawOf(flatten(d.last), tree.Elements[j])
	if r == nil || r.n.Password {
		return nil
	}
	if !subsequence(alnum(text), alnum(r.n.Text)) {
		return fmt.Errorf("typed %q into %s, but it shows %q", text, describe(target), clip(r.n.Text, 80))
	}
	return nil
}

// alnum keeps the letters and digits of s, lowercased.
func alnum(s string) []rune {
	var out []rune
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			out = append(out, r)
		}
	}
	return out
}

// subsequence reports whether every rune of want appears in have, in order.
func subsequence(want, have []rune) bool {
	i := 0
	for _, r := range have {
		if i < len(want) && r == want[i] {
			i++
		}
	}
	return i == len(want)
}
