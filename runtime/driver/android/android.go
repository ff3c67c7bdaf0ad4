// Package android is cogflow's Android driver and recorder. It talks to a
// device through an ADB server's host protocol (a local `adb` server, a
// remote one, a device farm's), so a phone, an emulator and a farm device
// are driven the same way, and it needs nothing installed on the device.
//
// Observe runs `uiautomator dump` and normalizes the hierarchy: class names
// become the language's roles (Button → button, EditText → textbox,
// RecyclerView → list, …), content-desc and texts become names, labels and
// descriptions, nodes of low interaction and layout importance are pruned
// (AutoTask's two criteria), and the children of lists are list items.
// Refs ("n12": the 12th node of the dump in document order) are valid for
// one observation; actions aim at the bounds of the element they are given.
//
// Do acts with the device's own tools: `input tap|swipe|text|keyevent` for
// pointer and keys, and API-first `am start` for launch and open (an intent
// instead of tapping through the launcher). After an action it dumps until
// two consecutive hierarchies are the same (uiautomator already waits for
// the app to be idle), bounded by the action timeout.
//
// Record (record.go) turns a person's demonstration on the device into a
// trace: touches from `getevent -lt`, each mapped to the element under the
// finger in the dump taken before it; typed text from the focused field's
// change between dumps.
//
// Transport failures wrap ErrDeviceLost, so a run's journal says the
// device went away at that step; Open's failures wrap
// driver.ErrUnavailable and say what to do (start a server, pick a
// --serial, accept the debugging prompt).
//
// Known limits: `input text` types ASCII only; other text needs the
// ADBKeyBoard IME on the device (see docs/drivers/android.md). Dumps take
// 0.5–2 s on real devices and fail while a screen animates without end
// (a video, a spinner), which Observe reports after retrying. Before
// Android 13 an empty field's hint is indistinguishable from its text
// except by a heuristic (looksLikeHint). Everything here is tested against
// adbtest's simulated device and hand-written dumps, not yet on hardware.
package android

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Device is what the driver needs of a device: the services of an ADB
// server's device transport. The adb package's Device implements it; tests
// use fakes.
type Device interface {
	// Shell runs a command in the device's shell and returns its output
	// (stdout and stderr together, as `adb shell` gives them).
	Shell(ctx context.Context, cmd string) ([]byte, error)
	// Exec runs a command with binary-safe output (`adb exec-out`).
	Exec(ctx context.Context, cmd string) ([]byte, error)
	// ShellStream runs a command and streams its output until it ends or
	// the stream is closed.
	ShellStream(ctx context.Context, cmd string) (io.ReadCloser, error)
}

// DefaultActionTimeout bounds an action when neither the action nor the
// options say otherwise. Dumps are slow on real devices.
const DefaultActionTimeout = 20 * time.Second

// dumpPath is where uiautomator writes its dump: /data/local/tmp is
// writable by the shell user on every Android version, unlike /sdcard on
// some devices before the first unlock.
const dumpPath = "/data/local/tmp/cogflow-dump.xml"

// dumpCmd removes a previous dump first, so a failed dump cannot return
// the last screen.
const dumpCmd = "rm -f " + dumpPath + "; uiautomator dump " + dumpPath + " && cat " + dumpPath

// Driver drives one device. Its methods are safe for concurrent use but
// run one at a time.
type Driver struct {
	dev Device
	// close releases the connection the driver opened, if any.
	close func() error
	// life locks, bounds and wraps every call (runtime/driver.Lifecycle).
	life *driver.Lifecycle

	// last is the last dump and when it was taken: Observe reuses a dump
	// the wait after an action just took.
	last      *hierarchy
	lastTaken time.Time
	// secrets are the texts typed as secrets (Action.Secret): screenshots
	// cover every element that shows one.
	secrets []string
}

var (
	_ driver.Driver       = (*Driver)(nil)
	_ driver.ScreenReader = (*Driver)(nil)
)

// New drives the given device.
func New(dev Device, opts driver.Options) *Driver {
	return &Driver{dev: dev, life: driver.NewLifecycle("android", opts.ActionTimeout, DefaultActionTimeout, nil)}
}

// Capabilities lists the actions the driver performs and its API-first
// shortcuts.
func (d *Driver) Capabilities() driver.Capabilities {
	return driver.Capabilities{
		Actions: []action.Name{
			action.Click, action.DoubleClick, action.RightClick, action.Type, action.Enter, action.Key, action.Back, action.Scroll, action.Swipe,
			action.Launch, action.Open, action.Wait,
			action.Intent, action.ContentQuery,
		},
		Shortcuts: []string{
			"launch:am-start", // an intent instead of tapping through the launcher
			"open:view-intent",
			"back:keyevent",
			"right_click:long-press",
			"intent:am-start",       // view a URL, dial, compose, settings pages without taps
			"content_query:content", // a provider's rows instead of reading a list off the screen
		},
	}
}

// reuseWindow is how long a dump taken by an action's settle wait stands
// for the screen: the interpreter observes right after an action.
const reuseWindow = 750 * time.Millisecond

// Observe dumps the screen and normalizes it.
func (d *Driver) Observe(ctx context.Context) (*driver.Tree, error) {
	return driver.Call(ctx, d.life, "observe", 0, d.observe)
}

// observe is Observe's work, with the driver locked and ctx bounded.
func (d *Driver) observe(ctx context.Context) (*driver.Tree, error) {
	if d.last != nil && time.Since(d.lastTaken) < reuseWindow {
		return normalize(d.last, d.lastTaken), nil
	}
	h, _, err := d.dump(ctx)
	if err != nil {
		return nil, err
	}
	return normalize(h, d.lastTaken), nil
}

// dumpRetries is how often a dump that found no idle screen is retried.
const dumpRetries = 3

// dump takes one hierarchy, retrying uiautomator's transient failures,
// and once a connection that broke while the device is still there (a
// dump only reads, so asking again is safe; an action is not retried).
func (d *Driver) dump(ctx context.Context) (*hierarchy, []byte, error) {
	var last error
	reconnected := false
	for try := 0; try < dumpRetries; try++ {
		out, err := d.dev.Shell(ctx, dumpCmd)
		if err != nil && !reconnected && isConnectionReset(err) && !expired(ctx) {
			reconnected = true
			out, err = d.dev.Shell(ctx, dumpCmd)
		}
		if err != nil {
			return nil, nil, deviceError(ctx, err)
		}
		h, err := parseDump(out)
		if err == nil {
			d.last, d.lastTaken = h, time.Now()
			return h, xmlOf(out), nil
		}
		last = err
		if !errors.Is(err, ErrNoHierarchy) {
			return nil, nil, err
		}
		if e := sleep(ctx, 300*time.Millisecond); e != nil {
			return nil, nil, e
		}
	}
	return nil, nil, last
}

// xmlOf is the hierarchy part of a dump's output, for comparing dumps.
func xmlOf(out []byte) []byte {
	if i := bytes.Index(out, []byte("<hierarchy")); i >= 0 {
		out = out[i:]
	}
	if i := bytes.LastIndex(out, []byte("</hierarchy>")); i >= 0 {
		out = out[:i]
	}
	return out
}

// settleDumps bounds the dumps compared after an action: a screen that
// never stops changing (a clock with seconds, a progress text) must not
// take a whole action timeout of 1–2 s dumps; uiautomator has already
// waited for the app to be idle before each one.
const settleDumps = 4

// settle dumps until two consecutive dumps are the same, at most
// settleDumps times: the screen has stopped changing after an action.
func (d *Driver) settle(ctx context.Context) error {
	_, prev, err := d.dump(ctx)
	if err != nil {
		return err
	}
	for n := 1; n < settleDumps; n++ {
		_, cur, err := d.dump(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil // it kept changing; the action itself succeeded
			}
			return err
		}
		if bytes.Equal(cur, prev) {
			return nil
		}
		prev = cur
	}
	return nil
}

// Screenshot returns a PNG of the screen (`screencap -p`).
func (d *Driver) Screenshot(ctx context.Context) ([]byte, error) {
	return driver.Call(ctx, d.life, "screenshot", 0, d.screenshot)
}

// screenshot is Screenshot's work, with the driver locked and ctx bounded.
func (d *Driver) screenshot(ctx context.Context) ([]byte, error) {
	png, err := d.dev.Exec(ctx, "screencap -p")
	if err != nil {
		return nil, deviceError(ctx, err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		return nil, fmt.Errorf("screencap gave no PNG: %s", firstLine(png))
	}
	if len(d.secrets) == 0 {
		return png, nil
	}
	// A secret was typed: cover every element that shows it, found in a
	// dump taken right after the capture. Without a dump the screenshot
	// is refused, never given unmasked.
	h, _, err := d.dump(ctx)
	if err != nil {
		return nil, fmt.Errorf("a secret was typed and the screen could not be read to cover it, so no screenshot is taken: %w", err)
	}
	boxes := driver.SecretBoxes(normalize(h, d.lastTaken).Elements, d.secrets)
	if len(boxes) == 0 {
		return png, nil
	}
	covered, err := driver.CoverPNG(png, boxes, 0)
	if err != nil {
		return nil, fmt.Errorf("covering a secret: %w", err)
	}
	return covered, nil
}

// ScreenText implements driver.ScreenReader: every text on the screen in
// document order (which follows reading order in most layouts), one per
// line, uncapped.
func (d *Driver) ScreenText(ctx context.Context) (string, error) {
	return driver.Call(ctx, d.life, "screen text", 0, func(ctx context.Context) (string, error) {
		h, _, err := d.dump(ctx)
		if err != nil {
			return "", err
		}
		return screenText(h), nil
	})
}

func screenText(h *hierarchy) string {
	var lines []string
	for _, r := range flatten(h) {
		if r.hidden || r.n.Password {
			continue
		}
		s := r.text
		if s == "" && r.role != "textbox" {
			s = r.desc
		}
		if s != "" && (len(lines) == 0 || lines[len(lines)-1] != s) {
			lines = append(lines, s)
		}
	}
	return strings.Join(lines, "\n")
}

// Close releases the connection to the ADB server; the device is left as
// it is.
func (d *Driver) Close() error {
	return d.life.Close(func() error {
		d.secrets = nil
		if d.close != nil {
			return d.close()
		}
		return nil
	})
}

func sleep(ctx context.Context, t time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(t):
		return nil
	}
}
