// Package uia is cogflow's Windows UI Automation driver and recorder. It
// observes a window's control view as normalized driver.Elements, acts
// API-first through UIA control patterns (Invoke, Toggle, SelectionItem,
// ExpandCollapse, Value, ScrollItem) before falling back to synthesized
// mouse and keyboard input, lists, switches, launches and closes
// top-level windows, and records demonstrations with low-level input
// hooks into the trace format the compiler reads.
//
// The package splits at one seam, the automation interface below. Above
// it everything is pure Go and runs on every platform: the Node tree of
// UIA properties, its normalization (roles for all 41 control types,
// pruning, lists by Deepest Iterative Ancestor, table cells and headers),
// the reader of axe-windows snapshots that tests use as real UIA trees,
// the choice of pattern or input for each action, key chords, and the
// recorder's event logic. Below it, in *_windows.go files, a thin layer
// calls IUIAutomation through go-ole vtables on one COM thread, SendInput
// and Win32 window functions. Off Windows the registered factory fails
// with driver.ErrUnavailable: "the uia driver runs on Windows".
//
// Refs are UIA RuntimeIds in hex ("2a.10632.750bd1"), valid while the
// element lives; the Windows layer keeps the elements of the last walk to
// act on them. See docs/drivers/uia.md for how to run it and its limits.
package uia

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

func init() {
	driver.Register("uia", open)
}

// DefaultActionTimeout bounds an action when neither the action nor the
// options say otherwise.
const DefaultActionTimeout = 10 * time.Second

// Limits bound a walk of the UI tree: a window of a big application (an
// IDE, a spreadsheet) has tens of thousands of elements, and a walk costs
// one cross-process call per element.
type Limits struct {
	// Depth is the deepest level walked below the root (root = 0).
	Depth int
	// Nodes is the most elements walked; the walk (depth first) stops
	// when it is reached, so a huge window's last parts are left out.
	Nodes int
}

// DefaultLimits are the limits of Observe.
var DefaultLimits = Limits{Depth: 40, Nodes: 5000}

// PatternOp is an action done through a control pattern.
type PatternOp int

// Pattern actions.
const (
	OpInvoke         PatternOp = iota // InvokePattern.Invoke
	OpToggle                          // TogglePattern.Toggle
	OpSelect                          // SelectionItemPattern.Select
	OpAddToSelection                  // SelectionItemPattern.AddToSelection
	OpExpand                          // ExpandCollapsePattern.Expand
	OpCollapse                        // ExpandCollapsePattern.Collapse
	OpSetValue                        // ValuePattern.SetValue
	OpScrollIntoView                  // ScrollItemPattern.ScrollIntoView
	OpFocus                           // IUIAutomationElement.SetFocus
)

var opNames = [...]string{"invoke", "toggle", "select", "add-to-selection", "expand", "collapse", "set-value", "scroll-into-view", "focus"}

// String names the action as logs and errors show it ("set-value").
func (o PatternOp) String() string {
	if o >= 0 && int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("PatternOp(%d)", int(o))
}

// automation is what the driver needs of Windows: UI Automation for the
// tree and the patterns, SendInput for the fallbacks, Win32 for windows
// and the clipboard. The Windows implementation is uia_windows.go; tests
// use a fake built from snapshot trees.
type automation interface {
	// Walk returns the control view of a window (its id as Windows lists
	// it; "" for the foreground window) within the limits.
	Walk(window string, lim Limits) (*Node, error)
	// FromPoint returns the element at a screen point, without children.
	FromPoint(x, y int) (*Node, error)
	// Focused returns the element with the keyboard focus, without
	// children.
	Focused() (*Node, error)
	// Popups walks the open popup menus that are top-level windows of
	// their own (Win32 menus, ControlType Menu under the desktop) within
	// the limits; their elements can be acted on until the next Walk.
	Popups(lim Limits) ([]*Node, error)
	// Pattern acts on an element of the last walk (or of Popups since)
	// through a pattern.
	Pattern(ref string, op PatternOp, text string) error
	// ClickablePoint is where a click on the element lands; ok is false
	// when UIA knows none (the driver then aims at the bounds' center).
	ClickablePoint(ref string) (x, y float64, ok bool, err error)
	// Click clicks count times with a button ("left", "right", "middle")
	// at a screen point.
	Click(x, y float64, button string, count int) error
	// MoveTo moves the pointer.
	MoveTo(x, y float64) error
	// Drag presses the left button at one point and releases it at another.
	Drag(x1, y1, x2, y2 float64) error
	// Wheel turns the wheel at a point by notches (negative: down).
	Wheel(x, y float64, notches int) error
	// Keys presses and releases a chord.
	Keys(c Chord) error
	// Type types text as Unicode keystrokes.
	Type(text string) error
	// Windows lists the visible top-level windows, foreground first.
	Windows() ([]driver.Window, error)
	// Activate brings a window to the foreground.
	Activate(id string) error
	// CloseWindow asks a window to close (WM_CLOSE).
	CloseWindow(id string) error
	// Launch starts an application by path (or command) or by
	// AppUserModelID and returns its first top-level window.
	Launch(ctx context.Context, app string) (driver.Window, error)
	// Clipboard and SetClipboard read and write the clipboard's text.
	Clipboard() (string, error)
	SetClipboard(text string) error
	// Screenshot returns a PNG of a window ("" for the whole screen).
	Screenshot(window string) ([]byte, error)
	// Close releases everything (COM objects, the COM thread).
	Close() error
}

// Driver drives Windows applications through UI Automation. Its methods
// are safe for concurrent use but run one at a time.
type Driver struct {
	auto   automation
	limits Limits
	// settle is the pause between the walks that decide whether the UI
	// is stable after an action.
	settle time.Duration

	// life locks, bounds and wraps every call (runtime/driver.Lifecycle).
	life   *driver.Lifecycle
	window string           // the current window's id; "" = foreground
	nodes  map[string]*Node // the last walk, by Ref
	last   *driver.Tree
}

var (
	_ driver.Driver       = (*Driver)(nil)
	_ driver.Finder       = (*Driver)(nil)
	_ driver.ScreenReader = (*Driver)(nil)
)

// newDriver wraps an automation.
func newDriver(a automation, opts driver.Options) *Driver {
	return &Driver{auto: a, life: driver.NewLifecycle("uia", opts.ActionTimeout, DefaultActionTimeout, nil),
		limits: DefaultLimits, settle: 100 * time.Millisecond}
}

// Capabilities lists the actions the driver performs and its API-first
// shortcuts.
func (d *Driver) Capabilities() driver.Capabilities {
	return driver.Capabilities{
		Actions: []action.Name{
			action.Click, action.DoubleClick, action.RightClick, action.Move, action.Drag, action.Type, action.Enter, action.Key,
			action.Copy, action.Cut, action.Paste, action.SelectText, action.MultiSelect, action.Scroll, action.Save,
			action.Open, action.OpenWindow, action.Launch, action.CloseWindow, action.SwitchWindow, action.Wait,
			action.SetValue, action.Invoke, action.Toggle, action.SelectItem, action.Expand, action.Collapse, action.MenuPath,
		},
		Shortcuts: []string{
			"click:invoke",          // InvokePattern instead of a mouse click
			"click:toggle",          // TogglePattern for check boxes and toggle buttons
			"click:select-item",     // SelectionItemPattern for list, tree and tab items, radios
			"click:expand-collapse", // ExpandCollapsePattern for combo boxes, menus, tree nodes
			"type:set-value",        // ValuePattern.SetValue instead of keystrokes
			"multi_select:add-to-selection",
			"scroll:scroll-into-view", // ScrollItemPattern
			"launch:aumid",            // IApplicationActivationManager for packaged apps
			"switch_window:set-foreground",
			"copy:clipboard-api", // the element's text goes to the clipboard directly
		},
	}
}

// Observe walks the current window (the foreground one until an action
// opens or switches to another) and normalizes it.
func (d *Driver) Observe(ctx context.Context) (*driver.Tree, error) {
	return driver.Call(ctx, d.life, "observe", 0, d.observe)
}

func (d *Driver) observe(ctx context.Context) (*driver.Tree, error) {
	_, t, err := d.walk(ctx)
	return t, err
}

// walk is observe, also returning the walk's root node.
func (d *Driver) walk(ctx context.Context) (*Node, *driver.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	root, err := d.auto.Walk(d.window, d.limits)
	if err != nil {
		return nil, nil, fmt.Errorf("walking the window: %w", err)
	}
	if root == nil {
		return nil, nil, errors.New("the window has no UI Automation tree")
	}
	els := Normalize(root)
	d.nodes = map[string]*Node{}
	index(root, d.nodes)
	t := &driver.Tree{Title: clean(root.Name), Elements: els, Taken: time.Now()}
	d.last = t
	return root, t, nil
}

// index maps the Refs of a subtree to their nodes.
func index(n *Node, m map[string]*Node) {
	m[n.Ref] = n
	for _, c := range n.Children {
		if c != nil {
			index(c, m)
		}
	}
}

// Find implements driver.Finder: the elements of a fresh observation
// that match at least one given attribute — the role or the id exactly,
// the others containing the text, ignoring case — inside Within; with no
// attribute, the elements that take an action. As the browser driver's
// Find, it returns copies whose Parent points to the nearest returned
// ancestor (-1 for none), so the list is a tree of its own.
func (d *Driver) Find(ctx context.Context, q driver.Query) ([]*driver.Element, error) {
	return driver.Call(ctx, d.life, "find", 0, func(ctx context.Context) ([]*driver.Element, error) {
		t, err := d.observe(ctx)
		if err != nil {
			return nil, err
		}
		if q.Within != "" && t.ByRef(q.Within) == nil {
			return nil, fmt.Errorf("the element %s of \"within\" is no longer in the window", q.Within)
		}
		return filter(t, q, d.nodes), nil
	})
}

// filter applies a query to a tree.
func filter(t *driver.Tree, q driver.Query, nodes map[string]*Node) []*driver.Element {
	within := -1
	for i, e := range t.Elements {
		if q.Within != "" && e.Ref == q.Within {
			within = i
		}
	}
	inside := func(i int) bool {
		if q.Within == "" {
			return true
		}
		for p, hops := t.Elements[i].Parent, 0; p >= 0 && hops < len(t.Elements); p, hops = t.Elements[p].Parent, hops+1 {
			if p == within {
				return true
			}
		}
		return false
	}
	keep := make([]int, len(t.Elements)) // new index, or -1
	var out []*driver.Element
	for i, e := range t.Elements {
		keep[i] = -1
		if !inside(i) || !matches(e, q, nodes) {
			continue
		}
		c := *e
		c.Parent = -1
		for p, hops := e.Parent, 0; p >= 0 && p < i && hops < len(t.Elements); p, hops = t.Elements[p].Parent, hops+1 {
			if keep[p] >= 0 {
				c.Parent = keep[p]
				break
			}
		}
		keep[i] = len(out)
		out = append(out, &c)
	}
	return out
}

// matches is Find's test of one element.
func matches(e *driver.Element, q driver.Query, nodes map[string]*Node) bool {
	given := false
	if q.Role != "" && q.Role != "element" {
		given = true
		if strings.EqualFold(q.Role, e.Role) {
			return true
		}
	}
	if q.ID != "" {
		given = true
		if strings.EqualFold(clean(q.ID), e.ID) {
			return true
		}
	}
	attrs := [][2]string{{q.Name, "name"}, {q.Text, "text"}, {q.Class, "class"}, {q.Label, "label"}, {q.Placeholder, "placeholder"}, {q.Href, "href"}}
	for _, a := range attrs {
		if a[0] == "" {
			continue
		}
		given = true
		if contains(e.Attr(a[1]), a[0]) {
			return true
		}
	}
	return !given && (e.Editable || actionable(nodes[e.Ref]))
}

func contains(have, want string) bool {
	return have != "" && strings.Contains(strings.ToLower(have), strings.ToLower(clean(want)))
}

// ScreenText implements driver.ScreenReader: the names, texts and values
// of the current window's visible elements, in tree order, each once.
func (d *Driver) ScreenText(ctx context.Context) (string, error) {
	return driver.Call(ctx, d.life, "screen text", 0, d.screenText)
}

// screenText is ScreenText's work, with the driver locked.
func (d *Driver) screenText(ctx context.Context) (string, error) {
	t, err := d.observe(ctx)
	if err != nil {
		return "", err
	}
	var lines []string
	seen := map[string]bool{}
	for _, e := range t.Elements {
		if !e.Visible {
			continue
		}
		for _, s := range []string{e.Name, e.Value} {
			if s != "" && !seen[s] {
				seen[s] = true
				lines = append(lines, s)
			}
		}
	}
	return strings.Join(lines, "\n"), nil
}

// Screenshot returns a PNG of the current window.
func (d *Driver) Screenshot(ctx context.Context) ([]byte, error) {
	return driver.Call(ctx, d.life, "screenshot", 0, func(context.Context) ([]byte, error) { return d.auto.Screenshot(d.window) })
}

// Close releases the COM objects and the COM thread. The applications
// the driver launched keep running: closing them is a workflow's step.
func (d *Driver) Close() error {
	return d.life.Close(d.auto.Close)
}
