// Package trace defines the trace: the file a recorder writes while a
// person demonstrates a task, and the compiler's input. A trace holds the
// raw events in the order they happened (clicks, keys, text input,
// selection, clipboard, navigation, tabs, scrolling, drag and drop), the
// element each event acted on with its attributes and surrounding context,
// snapshots of the UI taken at events, and optional screenshots.
//
// The format is JSON, versioned, and specified in docs/trace-format.md and
// schema.json (JSON Schema draft 2020-12). Read and Load decode strictly
// (unknown fields are errors) and validate; every error names the JSON
// path of the offending value, like $.events[3].target. Write is the
// canonical encoder: Read∘Write is the identity on valid traces.
//
// FromDevTools converts a Chrome DevTools Recorder export into a trace.
package trace

import "time"

// Format is the value of every trace's "format" field.
const Format = "cogflow-trace"

// Version is the trace format version this package reads and writes.
const Version = 1

// Drivers that record traces.
const (
	DriverBrowser = "browser"
	DriverAndroid = "android"
	DriverUIA     = "uia"
)

// Drivers lists the known drivers, in documented order.
func Drivers() []string { return []string{DriverBrowser, DriverAndroid, DriverUIA} }

// Trace is one recorded demonstration.
type Trace struct {
	// Format is always "cogflow-trace": it tells a trace from other JSON.
	Format string `json:"format"`
	// Version is the format version, 1.
	Version int `json:"version"`
	// Driver is the driver the demonstration was recorded with: browser,
	// android or uia. The compiled workflow runs on the same driver.
	Driver string `json:"driver"`
	// Title is a human title of the recording (a DevTools Recorder
	// recording's title); optional.
	Title string `json:"title,omitempty"`
	// Source says what produced the trace: "cogflow record" for the
	// recorder, "chrome-devtools-recorder" for an import. Imported traces
	// carry fewer attributes (no snapshots, no context, no times).
	Source string `json:"source,omitempty"`
	// Start is where the driver was before the first event.
	Start Start `json:"start,omitzero"`
	// Recorded is when the recording began (RFC 3339); optional.
	Recorded time.Time `json:"recorded,omitzero"`
	// Events are the raw events, in the order they happened.
	Events []Event `json:"events"`
	// Snapshots are observations of the UI, by id; events refer to them.
	Snapshots map[string]Snapshot `json:"snapshots,omitempty"`
	// Screenshots map an event id to an image file taken at that event,
	// as a slash-separated path relative to the trace file.
	Screenshots map[string]string `json:"screenshots,omitempty"`
}

// New returns an empty trace of the current format and version for a
// driver.
func New(driverName string) *Trace {
	return &Trace{Format: Format, Version: Version, Driver: driverName, Events: []Event{}}
}

// Start is the state the recording began in.
type Start struct {
	// URL is the page the browser showed when recording began.
	URL string `json:"url,omitempty"`
	// App is the application: an Android package (com.android.contacts)
	// or activity (com.android.contacts/.activities.PeopleActivity), or a
	// Windows executable or window title for uia.
	App string `json:"app,omitempty"`
	// Viewport is the browser viewport size, when known.
	Viewport *Viewport `json:"viewport,omitempty"`
}

// Viewport is the size of the browser's viewport in CSS pixels.
type Viewport struct {
	Width  int `json:"width"`
	Height int `json:"height"`
	// Scale is the device scale factor; absent means 1.
	Scale float64 `json:"scale,omitempty"`
	// Mobile is set when a mobile device was emulated.
	Mobile bool `json:"mobile,omitempty"`
}

// Kind is the kind of an event.
type Kind string

// Event kinds.
const (
	KindClick       Kind = "click"       // primary button click
	KindDblClick    Kind = "dblclick"    // double click (the two clicks are not recorded separately)
	KindRightClick  Kind = "rightclick"  // secondary button click (context menu)
	KindMiddleClick Kind = "middleclick" // middle button click (often: open in new tab)
	KindKeyDown     Kind = "keydown"     // a key pressed
	KindKeyUp       Kind = "keyup"       // a key released
	KindInput       Kind = "input"       // an editable element's value changed by typing, deletion, dictation, autocompletion
	KindChange      Kind = "change"      // a value committed: select option picked, checkbox toggled, field left after edits
	KindSelect      Kind = "select"      // text selected (mouse drag, double click on a word, Shift+arrows)
	KindCopy        Kind = "copy"        // text copied to the clipboard
	KindCut         Kind = "cut"         // text cut to the clipboard
	KindPaste       Kind = "paste"       // text pasted from the clipboard
	KindNavigate    Kind = "navigate"    // a page or screen loaded
	KindTabOpen     Kind = "tab_open"    // a tab or window opened
	KindTabSwitch   Kind = "tab_switch"  // another tab or window became the active one
	KindTabClose    Kind = "tab_close"   // a tab or window closed
	KindScroll      Kind = "scroll"      // the page or an element scrolled
	KindDragStart   Kind = "drag_start"  // a drag began on the target
	KindDrop        Kind = "drop"        // the dragged thing was dropped on the target
	KindSubmit      Kind = "submit"      // a form was submitted
	KindFocus       Kind = "focus"       // an element received the keyboard focus
	KindHover       Kind = "hover"       // the pointer moved over the target
	KindWait        Kind = "wait"        // the recording waited for an element or a page condition (an assertion)
	KindViewport    Kind = "viewport"    // the viewport was resized
)

var kinds = []Kind{
	KindClick, KindDblClick, KindRightClick, KindMiddleClick,
	KindKeyDown, KindKeyUp, KindInput, KindChange,
	KindSelect, KindCopy, KindCut, KindPaste, KindDialog, KindUpload,
	KindNavigate, KindTabOpen, KindTabSwitch, KindTabClose,
	KindScroll, KindDragStart, KindDrop, KindSubmit, KindFocus,
	KindHover, KindWait, KindViewport,
}

// Kinds lists every event kind, in documented order.
func Kinds() []Kind { return append([]Kind(nil), kinds...) }

// Known reports whether k is an event kind of this version.
func (k Kind) Known() bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// NeedsTarget reports whether an event of kind k must name the element it
// acted on.
func (k Kind) NeedsTarget() bool {
	if k == KindUpload {
		return true
	}
	switch k {
	case KindClick, KindDblClick, KindRightClick, KindMiddleClick,
		KindInput, KindChange, KindSelect, KindPaste,
		KindDragStart, KindDrop, KindSubmit, KindFocus, KindHover:
		return true
	}
	return false
}

// IsKey reports whether k is keydown or keyup.
func (k Kind) IsKey() bool { return k == KindKeyDown || k == KindKeyUp }

// IsClick reports whether k is one of the click kinds.
func (k Kind) IsClick() bool {
	return k == KindClick || k == KindDblClick || k == KindRightClick || k == KindMiddleClick
}

// IsTab reports whether k is tab_open, tab_switch or tab_close.
func (k Kind) IsTab() bool { return k == KindTabOpen || k == KindTabSwitch || k == KindTabClose }

// Pointer buttons, for Event.Button.
const (
	ButtonLeft    = "left"
	ButtonMiddle  = "middle"
	ButtonRight   = "right"
	ButtonBack    = "back"
	ButtonForward = "forward"
)

var buttons = []string{ButtonLeft, ButtonMiddle, ButtonRight, ButtonBack, ButtonForward}

// Event is one raw event of the demonstration.
type Event struct {
	// ID names the event within the trace ("e1", "e2", …); unique.
	// Compiled workflows cite it in comments.
	ID string `json:"id"`
	// Time is when the event happened, in milliseconds since the
	// recording began. Events are in time order (equal times allowed).
	Time int64 `json:"time"`
	// Kind is what happened.
	Kind Kind `json:"kind"`
	// Cause is the id of an earlier event that brought this one about: the
	// click on a link for a navigate, the Ctrl+click for a tab_open. A
	// navigate without a cause was the person's own (address bar, back).
	Cause string `json:"cause,omitempty"`
	// Target is the element acted on: required for clicks, input, change,
	// select, paste, drag_start, drop, submit and focus; the focused
	// element for key events, when known.
	Target *Target `json:"target,omitempty"`
	// Key is the key of keydown and keyup (required there), and the
	// modifiers held during any other event (a Ctrl+click).
	Key *Key `json:"key,omitempty"`
	// Button is the pointer button: left, middle, right, back or forward.
	Button string `json:"button,omitempty"`
	// X and Y are the pointer position for pointer events, in CSS pixels
	// from the viewport's top left corner (screen pixels for android and
	// uia); for scroll, the scroll position after the event.
	X float64 `json:"x,omitempty"`
	Y float64 `json:"y,omitempty"`
	// OffsetX and OffsetY are the pointer position inside the target, from
	// its top left corner.
	OffsetX float64 `json:"offset_x,omitempty"`
	OffsetY float64 `json:"offset_y,omitempty"`
	// Text is the text the event carried: inserted by an input event,
	// selected by select, copied, cut or pasted; typed by keydown when
	// the key produces a character.
	Text string `json:"text,omitempty"`
	// Value is the target's value after the event (input, change, paste,
	// cut), e.g. the whole field after a keystroke or the option picked.
	Value string `json:"value,omitempty"`
	// URL is the address loaded by navigate (required there), or the page
	// the event happened on when it differs from the last navigate.
	URL string `json:"url,omitempty"`
	// Window is the tab or window: the one opened, switched to or closed
	// by tab events (required there), the one loaded by navigate.
	Window *Window `json:"window,omitempty"`
	// Dialog is the native dialog a dialog event answered (required there).
	Dialog *Dialog `json:"dialog,omitempty"`
	// Files are the names of the files an upload event chose (required
	// there); a page sees names, not paths.
	Files []string `json:"files,omitempty"`
	// Snapshot is the id of the UI snapshot taken at the event, a key of
	// Trace.Snapshots.
	Snapshot string `json:"snapshot,omitempty"`
	// Wait is what a wait event waited for (with its target, the element).
	Wait *Wait `json:"wait,omitempty"`
	// Viewport is the new size of a viewport event.
	Viewport *Viewport `json:"viewport,omitempty"`
	// Timeout bounds the step the event becomes, in milliseconds (an
	// imported recording's step timeout); 0 means the run's default.
	Timeout int64 `json:"timeout,omitempty"`
}

// Wait is the condition of a wait event: a count of elements matching the
// target (DevTools Recorder waitForElement) or a page expression
// (waitForExpression).
type Wait struct {
	// Count is how many elements must match (0: at least one).
	Count int `json:"count,omitempty"`
	// Compare is how the number of matches compares with Count: ">=" (the
	// default), "==", "<=", ">", "<".
	Compare string `json:"compare,omitempty"`
	// Hidden waits until the condition no longer holds.
	Hidden bool `json:"hidden,omitempty"`
	// Expression is a JavaScript expression that must become true.
	Expression string `json:"expression,omitempty"`
}

// Key is a key and the modifiers held.
type Key struct {
	// Key is the key's value: a character ("a", "A", "1") or a name
	// ("Enter", "Tab", "Backspace", "ArrowDown", "Control") as in the DOM's
	// KeyboardEvent.key; Android key codes as their name without prefix
	// ("ENTER"); uia keys as DOM names.
	Key string `json:"key,omitempty"`
	// Code is the physical key ("KeyA", "Enter"; "KEYCODE_ENTER" on
	// Android), when known.
	Code   string `json:"code,omitempty"`
	Ctrl   bool   `json:"ctrl,omitempty"`
	Alt    bool   `json:"alt,omitempty"`
	Shift  bool   `json:"shift,omitempty"`
	Meta   bool   `json:"meta,omitempty"`
	Repeat bool   `json:"repeat,omitempty"` // an auto-repeated keydown
}

// Window is a browser tab or a top-level window.
type Window struct {
	// ID is the driver's id of the tab or window (CDP target id, window
	// handle, Android task); stable within the trace.
	ID    string `json:"id,omitempty"`
	Title string `json:"title,omitempty"`
	URL   string `json:"url,omitempty"`
}

// Rect is an element's bounds: CSS pixels from the viewport's top left
// (browser), or screen pixels (android, uia).
type Rect struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	W float64 `json:"w"`
	H float64 `json:"h"`
}

// Attributes are what a driver observes of an element: the normalized
// attributes of runtime/driver's Element. Texts are trimmed and
// whitespace-collapsed; empty means absent.
type Attributes struct {
	// Role is the ARIA-like role: button, link, textbox, checkbox, row,
	// cell, listitem, text, …
	Role string `json:"role,omitempty"`
	// Name is the accessible name (aria-label, label text, alt, title, or
	// the text of a button or link).
	Name string `json:"name,omitempty"`
	// Text is the visible text content, capped by the driver.
	Text string `json:"text,omitempty"`
	// ID is the DOM id, Android resource-id or UIA AutomationId.
	ID    string `json:"id,omitempty"`
	Class string `json:"class,omitempty"`
	// Value is the value of an editable element when observed (before the
	// event, for a target).
	Value       string `json:"value,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	// Label is the text of the element's associated <label>.
	Label string `json:"label,omitempty"`
	Href  string `json:"href,omitempty"`
	// Description is context the driver gives: aria-describedby, nearby
	// headers.
	Description string `json:"description,omitempty"`
	// Path is the structural path from the root, e.g. "main/ul/li[2]/a":
	// tag names (Android/UIA class names), with a 1-based index among
	// same-named siblings when there are several.
	Path     string `json:"path,omitempty"`
	Bounds   Rect   `json:"bounds,omitzero"`
	Visible  bool   `json:"visible,omitempty"`
	Enabled  bool   `json:"enabled,omitempty"`
	Editable bool   `json:"editable,omitempty"`
	Checked  bool   `json:"checked,omitempty"`
	Focus    bool   `json:"focus,omitempty"`
}

// Target is the element an event acted on: its attributes and its context.
type Target struct {
	// Ref is the element's ref in the event's snapshot, when the event has
	// one: the target is then Snapshots[event.snapshot].Elements[i] with
	// that ref, and a target may give only its identifying attributes.
	Ref string `json:"ref,omitempty"`
	Attributes
	// CSS, XPath and Frame locate the element exactly, as an imported
	// recording's selectors did: a CSS selector that pierces shadow roots
	// (" >>> " steps into one), an XPath in the element's document, and
	// the child-frame index path from the top document.
	CSS   string `json:"css,omitempty"`
	XPath string `json:"xpath,omitempty"`
	Frame []int  `json:"frame,omitempty"`
	// Context is what surrounds the element.
	Context *Context `json:"context,omitempty"`
	// Selectors are the selectors an imported recording located the
	// element with (DevTools Recorder: "aria/Search", "#q", "xpath//…"),
	// verbatim, a chain through shadow roots joined with " >>> ".
	Selectors []string `json:"selectors,omitempty"`
	// Secret marks a password field (an <input type=password>, or any
	// field whose value the driver masks): the recorder leaves its value
	// out of every event or masks it, and the compiler makes what was
	// typed into it a secret input with no default.
	Secret bool `json:"secret,omitempty"`
}

// Context is the text around a target, for describing it and telling it
// from similar elements.
type Context struct {
	// ParentText is the visible text of the nearest ancestor with text
	// beyond the element's own, capped.
	ParentText string `json:"parent_text,omitempty"`
	// SiblingTexts are the texts of a few nearby siblings, nearest first.
	SiblingTexts []string `json:"sibling_texts,omitempty"`
	// Label is a label found by position (the text before or above a
	// field) when the element has no associated label.
	Label string `json:"label,omitempty"`
	// Headers place a table cell or row by its headers.
	Headers *Headers `json:"headers,omitempty"`
	// List is set when the element is, or is inside, an item of a list.
	List *ListContext `json:"list,omitempty"`
}

// Headers place a table cell (or row) in its table.
type Headers struct {
	// Table is the path of the table element.
	Table string `json:"table,omitempty"`
	// Column and Row are the texts of the column's and the row's header
	// cells.
	Column string `json:"column,omitempty"`
	Row    string `json:"row,omitempty"`
	// RowIndex is the 0-based data row (header rows not counted).
	RowIndex int `json:"row_index"`
	// ColumnIndex is the 0-based column, -1 for a whole row.
	ColumnIndex int `json:"column_index"`
}

// ListContext places an element in a list of items with the same
// structure (the Deepest Iterative Ancestor).
type ListContext struct {
	// Container is the path of the list element.
	Container string `json:"container,omitempty"`
	// Index is the 0-based position of the item holding the element.
	Index int `json:"index"`
	// Size is the number of items.
	Size int `json:"size"`
	// ItemTexts are the texts of a few items around the element's
	// (including its own), in list order.
	ItemTexts []string `json:"item_texts,omitempty"`
}

// Snapshot is one observation of the UI, as a flat list of elements.
type Snapshot struct {
	URL      string    `json:"url,omitempty"`
	Title    string    `json:"title,omitempty"`
	Elements []Element `json:"elements,omitempty"`
}

// Element is one element of a snapshot, runtime/driver's Element.
type Element struct {
	// Ref is the driver's handle of the element, unique in the snapshot.
	Ref string `json:"ref,omitempty"`
	Attributes
	// Parent is the index of the parent in Elements, -1 for a root.
	// Parents come before their children.
	Parent int `json:"parent"`
	// List is set when the element is an item of a list.
	List *ListInfo `json:"list,omitempty"`
	// Cell is set for table cells and rows.
	Cell *CellInfo `json:"cell,omitempty"`
	// Form is set, by the browser recorder, on an event's target when it
	// belongs to a form (a field, a submit button, the form itself).
	Form *FormInfo `json:"form,omitempty"`
}

// Values of FormInfo.Script.
const (
	// FormScriptNone: checked, no script handles the form's submission.
	FormScriptNone = "none"
	// FormScriptOnsubmit: the form has an onsubmit handler.
	FormScriptOnsubmit = "onsubmit"
	// FormScriptListener: a submit listener is on the form, one of its
	// ancestors, the document or the window.
	FormScriptListener = "listener"
	// FormScriptUnknown: the recorder could not check.
	FormScriptUnknown = "unknown"
)

var formScripts = []string{FormScriptNone, FormScriptOnsubmit, FormScriptListener, FormScriptUnknown}

// FormInfo is what the recorder saw of the form an element submits with,
// at the event: enough for the compiler to prove that typing into a field
// and submitting is the same as opening one address (the api-first
// stage). Only names are kept, never the other fields' values.
type FormInfo struct {
	// Action is the absolute address the form submits to.
	Action string `json:"action"`
	// Method is get, post or dialog (as HTMLFormElement.method gives it).
	Method string `json:"method"`
	// Field is the element's name: the query key its value is sent under
	// ("" for an unnamed element, or the form itself).
	Field string `json:"field,omitempty"`
	// Hidden counts the form's hidden inputs.
	Hidden int `json:"hidden"`
	// Filled names the form's other submittable fields that had a value
	// then (a checked box, a select's option, a non-empty text).
	Filled []string `json:"filled,omitempty"`
	// Script says whether a script handles the submission: none, onsubmit,
	// listener or unknown (FormScript*). Only "none" was checked to be
	// absent.
	Script string `json:"script"`
	// Charset is the character encoding the form encodes its values in:
	// its accept-charset, else the page's (document.characterSet). An
	// address built with urlquery is UTF-8, so only a UTF-8 form is an API
	// for it; "" when not recorded.
	Charset string `json:"charset,omitempty"`
}

// ListInfo places a snapshot element in a list.
type ListInfo struct {
	// Container is the ref of the list element.
	Container string `json:"container,omitempty"`
	Index     int    `json:"index"`
	Size      int    `json:"size"`
}

// CellInfo places a snapshot element in a table. Rows have column -1.
type CellInfo struct {
	// Table is the ref of the table element.
	Table        string `json:"table,omitempty"`
	Row          int    `json:"row"`
	Column       int    `json:"column"`
	ColumnHeader string `json:"column_header,omitempty"`
	RowHeader    string `json:"row_header,omitempty"`
}

// ByRef finds a snapshot element by its ref; nil when there is none.
func (s Snapshot) ByRef(ref string) *Element {
	if ref == "" {
		return nil
	}
	for i := range s.Elements {
		if s.Elements[i].Ref == ref {
			return &s.Elements[i]
		}
	}
	return nil
}

// Event returns the event with the given id, or nil.
func (t *Trace) Event(id string) *Event {
	for i := range t.Events {
		if t.Events[i].ID == id {
			return &t.Events[i]
		}
	}
	return nil
}
