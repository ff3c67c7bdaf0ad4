// Package driver defines what cogflow needs of a GUI automation back end —
// observe the UI as a normalized tree, act on it, take screenshots — keeps
// the registry through which a task's `driver browser` line picks one, and
// holds what every driver shares: the Lifecycle of its calls (lock, closed
// check, time-out, error wrapping) and the covering of secrets in
// screenshots.
//
// Drivers (runtime/driver/browser, android, uia) implement Driver and import
// nothing of each other. The interpreter never sees a DOM node or a
// uiautomator node: only the normalized Element below.
package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cogflow/cogflow/lang/action"
)

// Rect is an element's bounds in CSS pixels (browser) or screen pixels.
type Rect struct {
	X, Y, W, H float64
}

// Center is the point a pointer action aims at.
func (r Rect) Center() (x, y float64) { return r.X + r.W/2, r.Y + r.H/2 }

// Element is one element of the normalized UI tree. Text fields are
// trimmed and whitespace-collapsed; empty means absent.
type Element struct {
	// Ref is the driver's handle for acting on the element. It is valid for
	// the observation that produced it; a driver may keep it valid longer
	// (the browser driver tags DOM nodes) but callers re-anchor by
	// attributes when a Ref no longer resolves.
	Ref string

	Role        string // ARIA-like role: button, link, textbox, checkbox, row, cell, listitem, …
	Name        string // accessible name: aria-label, label text, alt, title, or text for buttons/links
	Text        string // visible text content, capped by the driver
	ID          string // DOM id, Android resource-id, UIA AutomationId
	Class       string
	Value       string // current value of an editable element
	Placeholder string
	Label       string // text of the associated <label>
	Href        string
	Description string // context: surrounding labels, headers, aria-describedby
	Path        string // structural path from the root, e.g. "main/ul/li[2]/a"

	Bounds                                     Rect
	Visible, Enabled, Editable, Checked, Focus bool
	// Secret marks a field whose value is a secret: a password field. The
	// interpreter treats whatever is typed or pasted into it as a secret,
	// even when the workflow's input was not declared secret.
	Secret bool

	// Parent is the index of the parent in Tree.Elements, -1 for a root.
	Parent int
	// List is set when the element is an item of a list: the Deepest
	// Iterative Ancestor holding it and similar siblings.
	List *ListInfo
	// Cell is set for table cells and rows.
	Cell *CellInfo
}

// ListInfo places an element in a list of items with the same structure.
type ListInfo struct {
	Container string // Ref of the list element
	Index     int    // 0-based position among the items
	Size      int    // number of items
}

// CellInfo places an element in a table. Rows have Column -1.
type CellInfo struct {
	Table        string // Ref of the table element
	Row          int    // 0-based data row index (header rows are not counted)
	Column       int    // 0-based column index, -1 for a row
	ColumnHeader string // text of the column's header cell
	RowHeader    string // text of the row's header cell, if any
}

// Tree is one observation of the UI.
type Tree struct {
	URL, Title string
	Elements   []*Element
	// Taken is when the observation was made; the journal records it.
	Taken time.Time
}

// ByRef finds an element of the tree by its Ref.
func (t *Tree) ByRef(ref string) *Element {
	for _, e := range t.Elements {
		if e.Ref == ref {
			return e
		}
	}
	return nil
}

// Query narrows an observation to candidates for anchoring: a driver that
// implements Finder returns only elements matching at least one of the
// given attributes (or all interactive elements when none is given), so a
// step needs one round trip instead of a whole-page walk.
type Query struct {
	Role, Name, Text, ID, Class, Placeholder, Label, Href string
	// Within restricts the search to the subtree of this Ref.
	Within string
	// CSS, XPath and Frame are hard constraints (the css:, xpath: and
	// frame: attributes): a Finder returns exactly the elements that
	// satisfy all of them, whatever the other attributes say, and none when
	// nothing does. CSS pierces shadow roots (">>>" steps into one); XPath
	// is evaluated in the element's document; Frame is the child-frame
	// index path from the top document.
	CSS, XPath string
	Frame      []int
}

// Hard reports whether the query has a hard constraint.
func (q Query) Hard() bool { return q.CSS != "" || q.XPath != "" || q.Frame != nil }

// Action is one operation of the language, resolved to concrete arguments.
type Action struct {
	Op      action.Name // the language's action: click, type, key, open, …
	Target  *Element    // the element acted on, when the action takes one
	Target2 *Element    // drag's destination
	Targets []*Element  // multi_select
	Text    string      // typed/pasted text, key chord, URL, window title, app, direction
	Number  float64     // scroll amount, wait seconds, swipe distance
	// Dialog answers the native dialogs (alert, confirm, prompt,
	// beforeunload) the action opens: "accept" or "dismiss". Empty means
	// the action expects none: one that opens fails the action.
	Dialog string
	// Prompt is the text a prompt dialog the action opens is accepted with.
	Prompt string
	// Button is click's mouse button ("middle", "back", …); empty means
	// the primary one.
	Button string
	// Files are upload's files, as paths on the machine the driver runs on.
	Files []string
	// Timeout bounds the action; zero means the driver's default.
	Timeout time.Duration
	// ScrollTo, for scroll, is the position (CSS pixels, x then y) to
	// scroll the target or the page to, instead of a direction and amount.
	ScrollTo []float64
	// Secret says that Text holds a secret (a secret input or a text
	// derived from one): a driver never logs it and covers it in the
	// screenshots it takes while the page shows it.
	Secret bool
	// Data, Package and Extras are intent's data URI, package (or
	// "package/activity" component) and "key=value" string extras; Text
	// holds its action (android).
	Data, Package string
	Extras        []string
	// Columns and Where are content_query's projection and selection;
	// Text holds its URI (android).
	Columns []string
	Where   string
	// On is toggle's wanted state (toggle(target, on: true)); nil flips
	// the state, whatever it is.
	On *bool
	// Path is menu_path's item names, from the menu bar's item to the one
	// invoked; Text is then the title of its within: window, if given.
	Path []string
}

// Window is a top-level window or browser tab.
type Window struct {
	ID, Title, URL string
}

// Result is what an action produced.
type Result struct {
	// Text is the text copied, cut, pasted, selected or typed.
	Text string
	// Window is the window or tab an action opened or switched to.
	Window *Window
	// Secret says Text came out of a field a secret was typed into: the
	// run treats it as a secret too.
	Secret bool
	// Table is what read_table read: the table's rows, the header rows
	// first, each a list of its cells' texts.
	Table [][]string
	// Rows are content_query's rows, one "column=value, …" text each.
	Rows []string
}

// Capabilities tell the interpreter and the compiler what a driver does
// natively and which API-first shortcuts it offers (AXIS): one API call in
// place of a chain of input events.
type Capabilities struct {
	// Actions are the language's actions this driver performs.
	Actions []action.Name
	// Shortcuts name API-first paths, e.g. "open:navigate" (no typing into
	// the address bar), "type:set-value", "launch:am-start".
	Shortcuts []string
}

// Supports reports whether the driver performs the action.
func (c Capabilities) Supports(op action.Name) bool {
	for _, a := range c.Actions {
		if a == op {
			return true
		}
	}
	return false
}

// Driver is a GUI automation back end.
type Driver interface {
	// Observe returns the current UI as a normalized tree.
	Observe(ctx context.Context) (*Tree, error)
	// Do performs one action and waits until the UI is stable again.
	Do(ctx context.Context, a Action) (Result, error)
	// Screenshot returns a PNG of the current screen or page.
	Screenshot(ctx context.Context) ([]byte, error)
	// Capabilities describes the driver.
	Capabilities() Capabilities
	// Close releases the driver (and a browser it launched).
	Close() error
}

// Finder is implemented by drivers that can search for candidates in
// place, cheaper than a full Observe.
type Finder interface {
	Find(ctx context.Context, q Query) ([]*Element, error)
}

// ScreenReader is implemented by drivers that can give the whole visible
// text of the screen in reading order, uncapped: what extract_information
// reads from. Elements carry capped texts only.
type ScreenReader interface {
	ScreenText(ctx context.Context) (string, error)
}

// Options configure a driver at start.
type Options struct {
	// Headed shows the browser or emulator window instead of running headless.
	Headed bool
	// Executable overrides the program the driver starts (Chromium).
	Executable string
	// RemoteURL attaches to a running browser or device server
	// (ws://… for the browser, host:port for adb) instead of starting one.
	RemoteURL string
	// Serial picks a device when several are attached (android).
	Serial string
	// ActionTimeout bounds each action; zero means the driver's default.
	ActionTimeout time.Duration
}

// Factory starts a driver.
type Factory func(ctx context.Context, opts Options) (Driver, error)

// ErrUnavailable is wrapped by errors of drivers that cannot run on this
// machine (the uia driver off Windows); the CLI maps it to its own exit
// code.
var ErrUnavailable = errors.New("driver unavailable")

// drivers are the drivers linked into the program.
var drivers = NewRegistry[Factory]("driver")

// Register makes a driver available by name. It panics on a duplicate,
// which is a programming error.
func Register(name string, f Factory) { drivers.Register(name, f) }

// Names lists the registered drivers.
func Names() []string { return drivers.Names() }

// Open starts the named driver.
func Open(ctx context.Context, name string, opts Options) (Driver, error) {
	f, ok := drivers.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%w: no driver %q in this build (drivers: %v)", ErrUnavailable, name, Names())
	}
	return f(ctx, opts)
}

// ErrGone is wrapped by errors of a driver whose browser or device went
// away while in use: the browser process exited, its DevTools connection
// closed, the Android device was unplugged. An action under way may or may
// not have taken effect; the CLI gives it its own exit code.
var ErrGone = errors.New("the browser or device went away")

// GoneError says what went away, and wraps ErrGone and the error that
// showed it.
type GoneError struct {
	What string // "the browser exited", "the device went away"
	Err  error
}

func (e *GoneError) Error() string {
	if e.Err == nil {
		return e.What
	}
	return e.What + " (" + e.Err.Error() + ")"
}

// Is makes errors.Is(err, ErrGone) true.
func (e *GoneError) Is(target error) bool { return target == ErrGone }

// Unwrap returns the error that showed the loss.
func (e *GoneError) Unwrap() error { return e.Err }
