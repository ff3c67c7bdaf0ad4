package android

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// errNonASCII is wrapped when text needs an input method the device lacks.
var errNonASCII = errors.New("`input text` types ASCII only: install and enable the ADBKeyBoard IME " +
	"(com.android.adbkeyboard/.AdbIME) to type other characters; see docs/drivers/android.md")

// typeStep is one shell command of typing a text.
type typeStep struct {
	cmd      string
	nonASCII bool // needs ADBKeyBoard
}

// typeCommands splits a text into the commands that type it. ASCII runs go
// to `input text`, which reads "%s" as a space: spaces become "%s", and a
// literal "%s" is split between two commands so it stays literal. Newlines
// and tabs are key events. Other characters go, base64-encoded (no
// quoting problems), to ADBKeyBoard's ADB_INPUT_B64 broadcast.
func typeCommands(text string) []typeStep {
	var steps []typeStep
	var run []rune
	ascii := true
	flush := func() {
		if len(run) == 0 {
			return
		}
		s := string(run)
		run = run[:0]
		if !ascii {
			steps = append(steps, typeStep{cmd: "am broadcast -a ADB_INPUT_B64 --es msg " +
				base64.StdEncoding.EncodeToString([]byte(s)), nonASCII: true})
			return
		}
		for _, chunk := range splitPercentS(s) {
			steps = append(steps, typeStep{cmd: "input text " + shellQuote(strings.ReplaceAll(chunk, " ", "%s"))})
		}
	}
	for _, r := range text {
		switch {
		case r == '\n' || r == '\t':
			flush()
			code := "KEYCODE_ENTER"
			if r == '\t' {
				code = "KEYCODE_TAB"
			}
			steps = append(steps, typeStep{cmd: "input keyevent " + code})
			continue
		case r == '\r':
			continue
		}
		isASCII := r >= 0x20 && r < 0x7f
		if isASCII != ascii {
			flush()
			ascii = isASCII
		}
		run = append(run, r)
	}
	flush()
	return steps
}

// splitPercentS cuts a text between '%' and 's' wherever they meet, so no
// chunk holds a "%s" that `input text` would turn into a space.
func splitPercentS(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "%s")
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
}

// shellQuote quotes an argument for the device's sh: single quotes, with
// each single quote closed, escaped and reopened.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("%+,-./:=@_", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// keyCodes map the language's key names (lowercased) to Android key codes.
var keyCodes = map[string]string{
	"enter": "ENTER", "tab": "TAB", "escape": "ESCAPE", "backspace": "DEL", "delete": "FORWARD_DEL",
	"insert": "INSERT", "space": "SPACE", "arrowup": "DPAD_UP", "arrowdown": "DPAD_DOWN",
	"arrowleft": "DPAD_LEFT", "arrowright": "DPAD_RIGHT", "home": "HOME", "end": "MOVE_END",
	"pageup": "PAGE_UP", "pagedown": "PAGE_DOWN", "back": "BACK", "menu": "MENU", "search": "SEARCH",
	"volumeup": "VOLUME_UP", "volumedown": "VOLUME_DOWN", "power": "POWER", "appswitch": "APP_SWITCH",
	"f1": "F1", "f2": "F2", "f3": "F3", "f4": "F4", "f5": "F5", "f6": "F6", "f7": "F7", "f8": "F8",
	"f9": "F9", "f10": "F10", "f11": "F11", "f12": "F12",
	// Android's own names, as recorded traces carry them.
	"del": "DEL", "forward_del": "FORWARD_DEL", "app_switch": "APP_SWITCH", "move_end": "MOVE_END",
	"move_home": "MOVE_HOME", "dpad_up": "DPAD_UP", "dpad_down": "DPAD_DOWN", "dpad_left": "DPAD_LEFT",
	"dpad_right": "DPAD_RIGHT", "dpad_center": "DPAD_CENTER",
}

// modifierCodes are the key codes of the modifiers (lang/action knows the
// words that name them).
var modifierCodes = map[action.Modifier]string{action.Ctrl: "CTRL_LEFT", action.Alt: "ALT_LEFT", action.Shift: "SHIFT_LEFT", action.Meta: "META_LEFT"}

// keyCode is the KEYCODE_ name of one key: a named key or one letter or
// digit.
func keyCode(k string) (string, bool) {
	if c, ok := keyCodes[strings.ToLower(k)]; ok {
		return "KEYCODE_" + c, true
	}
	if r := []rune(k); len(r) == 1 && (r[0] >= 'a' && r[0] <= 'z' || r[0] >= 'A' && r[0] <= 'Z' || r[0] >= '0' && r[0] <= '9') {
		return "KEYCODE_" + strings.ToUpper(k), true
	}
	return "", false
}

// keyCommand is the shell command pressing a key or chord: `input
// keyevent` for one key, `input text` for a character without a key code,
// `input keycombination` (Android 13 and later) for a chord.
func keyCommand(name string) (string, error) {
	mods, last, err := driver.SplitChord(name)
	if err != nil {
		return "", err
	}
	if len(mods) == 0 {
		if c, ok := keyCode(last); ok {
			return "input keyevent " + c, nil
		}
		if r := []rune(last); len(r) == 1 && r[0] >= 0x20 && r[0] < 0x7f {
			return typeCommands(last)[0].cmd, nil
		}
		return "", fmt.Errorf("no Android key code for %q", name)
	}
	codes := make([]string, 0, len(mods)+1)
	for _, m := range mods {
		c, ok := modifierCodes[action.ModifierOf(m)]
		if !ok {
			return "", fmt.Errorf("unknown modifier %q in key %q", m, name)
		}
		codes = append(codes, "KEYCODE_"+c)
	}
	c, ok := keyCode(last)
	if !ok {
		return "", fmt.Errorf("no Android key code for %q in %q", last, name)
	}
	return "input keycombination " + strings.Join(append(codes, c), " "), nil
}

// area is the region a scroll or swipe works in: the target's bounds, or
// the screen's.
func (d *Driver) area(ctx context.Context, e *driver.Element) (rect, error) {
	if e != nil && e.Bounds.W > 0 && e.Bounds.H > 0 {
		b := e.Bounds
		return rect{int(b.X), int(b.Y), int(b.X + b.W), int(b.Y + b.H)}, nil
	}
	h := d.last
	if h == nil {
		var err error
		if h, _, err = d.dump(ctx); err != nil {
			return rect{}, err
		}
	}
	return h.Nodes[0].rect, nil
}

// swipeCmd moves a finger across a fraction of the area in a direction,
// centered, in 300 ms (slow enough not to fling).
func swipeCmd(a rect, dir string, frac float64) (string, error) {
	cx, cy := (a.L+a.R)/2, (a.T+a.B)/2
	dx := int(float64(a.R-a.L) * frac / 2)
	dy := int(float64(a.B-a.T) * frac / 2)
	var x1, y1, x2, y2 int
	switch dir {
	case "up":
		x1, y1, x2, y2 = cx, cy+dy, cx, cy-dy
	case "down":
		x1, y1, x2, y2 = cx, cy-dy, cx, cy+dy
	case "left":
		x1, y1, x2, y2 = cx+dx, cy, cx-dx, cy
	case "right":
		x1, y1, x2, y2 = cx-dx, cy, cx+dx, cy
	default:
		return "", fmt.Errorf("unknown direction %q; use up, down, left or right", dir)
	}
	return fmt.Sprintf("input swipe %d %d %d %d 300", x1, y1, x2, y2), nil
}

// swipe moves the finger in the direction by a fraction of the target's
// (or the screen's) size, default one half.
func (d *Driver) swipe(ctx context.Context, e *driver.Element, dir string, frac float64) error {
	if frac <= 0 {
		frac = 0.5
	}
	if frac > 0.9 {
		frac = 0.9 // starting on the screen's edge opens system panels
	}
	a, err := d.area(ctx, e)
	if err != nil {
		return err
	}
	cmd, err := swipeCmd(a, dir, frac)
	if err != nil {
		return err
	}
	return d.shell(ctx, cmd)
}

// opposite turns a scroll direction (where the content goes) into the
// finger's: scrolling down drags the content up.
var opposite = map[string]string{"down": "up", "up": "down", "left": "right", "right": "left"}

// scroll scrolls the target (or the screen) by amount screens, default 1;
// each screen is one swipe over 60% of the area, leaving an overlap that
// keeps the item at the edge in view.
func (d *Driver) scroll(ctx context.Context, e *driver.Element, dir string, amount float64) error {
	if dir == "" {
		dir = "down"
	}
	finger, ok := opposite[dir]
	if !ok {
		return fmt.Errorf("unknown direction %q; use up, down, left or right", dir)
	}
	if amount <= 0 {
		amount = 1
	}
	for left := amount; left > 0.01; left-- {
		frac := 0.6
		if left < 1 {
			frac *= left
		}
		if err := d.swipe(ctx, e, finger, frac); err != nil {
			return err
		}
	}
	return nil
}

// launch starts an app ("com.example.contacts") at its launcher activity,
// or an activity ("com.example.contacts/.EditActivity"), with an intent
// (API-first: no launcher, no icons). The app is stopped first, so a run
// starts where the demonstration started, not wherever the app was left;
// what the app saved stays.
func (d *Driver) launch(ctx context.Context, app string) (*driver.Window, error) {
	app = strings.TrimSpace(app)
	if app == "" {
		return nil, errors.New("launch needs an app package")
	}
	if strings.HasPrefix(app, ".") {
		// launch("pkg", activity: ".Main") reaches a driver as the activity
		// alone when the interpreter passes only the last text argument.
		return nil, fmt.Errorf("launch got the activity %q without its package; write launch(\"PACKAGE/%s\")", app, app)
	}
	pkg, _, component := strings.Cut(app, "/")
	var cmd string
	if component {
		cmd = "am start -W -S -n " + shellQuote(app)
	} else {
		cmd = "am force-stop " + shellQuote(pkg) + "; monkey -p " + shellQuote(pkg) +
			" -c android.intent.category.LAUNCHER 1"
	}
	if err := d.shell(ctx, cmd); err != nil {
		if strings.Contains(err.Error(), "not exported") {
			// The shell may start only activities other apps may start.
			return nil, fmt.Errorf("starting %s: the activity is private to its app; launch(%q) starts the app at its first screen: %w", app, pkg, err)
		}
		return nil, fmt.Errorf("starting %s: %w", app, err)
	}
	return &driver.Window{ID: pkg, URL: "android-app://" + pkg}, nil
}

// openURL opens a URL with a VIEW intent: the browser, or the app that
// handles the link. As for intent, the step fails unless an activity is
// confirmed in front (an app chooser is not).
func (d *Driver) openURL(ctx context.Context, url string) (*driver.Window, error) {
	return d.intent(ctx, driver.Action{Text: "android.intent.action.VIEW", Data: url})
}
