package check

import (
	"sort"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/types"
)

// Param is one parameter of an action: the types it accepts and whether it
// may be left out.
type Param struct {
	Name     string
	Types    []types.Type
	Optional bool
	// Literal, when set, validates a literal argument (key names,
	// directions, URLs) and returns a message for a bad one.
	Literal func(string) string
	// Secret is set where a secret may go: text typed into a field. A
	// secret anywhere else could end up in a journal or on screen.
	Secret bool
	// NamedOnly parameters are given by name only (timeout:, count:): a
	// positional argument never binds to them.
	NamedOnly bool
	// LiteralOnly parameters take a literal (a text, or a list of texts),
	// never a computed value: example: records what the demonstration
	// used, and the run does not evaluate it.
	LiteralOnly bool
	// LiteralWhy shows the literal's form and says why a LiteralOnly
	// parameter takes no computed value; "" means example:'s.
	LiteralWhy string
}

// Action is the signature of one operation of the language.
type Action struct {
	Name   action.Name
	Params []Param
	Result types.Type // types.VoidT when it produces no value
	Doc    string
}

func req(name string, ts ...types.Type) Param { return Param{Name: name, Types: ts} }
func opt(name string, ts ...types.Type) Param {
	return Param{Name: name, Types: ts, Optional: true}
}

var (
	el     = types.ElementT
	txt    = types.TextT
	num    = types.NumberT
	void   = types.VoidT
	window = types.WindowT
)

// Actions are the operations of TaskMind's Table 10 plus the ones drivers
// need (wait, assert, back, launch, swipe).
var Actions = map[string]*Action{}

func init() {
	key := Param{Name: "keys", Types: []types.Type{types.KeyT}, Literal: checkKey}
	direction := Param{Name: "direction", Types: []types.Type{txt}, Literal: checkDirection}
	url := Param{Name: "url", Types: []types.Type{types.URLT}, Literal: checkURL}
	optURL := url
	optURL.Optional = true
	optDirection := direction
	optDirection.Optional = true
	secretText := Param{Name: "text", Types: []types.Type{txt}, Secret: true}
	optSecretText := secretText
	optSecretText.Optional = true
	for _, a := range []*Action{
		{Name: action.Click, Params: []Param{req("target", el), {Name: "button", Types: []types.Type{txt}, Optional: true, NamedOnly: true, Literal: checkButton}}, Result: el, Doc: "click the element"},
		{Name: action.DoubleClick, Params: []Param{req("target", el)}, Result: el, Doc: "double-click the element"},
		{Name: action.RightClick, Params: []Param{req("target", el)}, Result: el, Doc: "right-click (context-click) the element"},
		{Name: action.Move, Params: []Param{req("target", el)}, Result: el, Doc: "move the pointer over the element (hover)"},
		{Name: action.Type, Params: []Param{req("target", el), secretText}, Result: txt, Doc: "type text into the element, replacing its content; the result is the text typed"},
		{Name: action.Enter, Params: []Param{opt("target", el)}, Result: void, Doc: "press Enter, in the element when given"},
		{Name: action.Key, Params: []Param{key, opt("target", el)}, Result: void, Doc: `press a key or chord such as "Ctrl+C"`},
		{Name: action.Copy, Params: []Param{opt("source", el, txt)}, Result: txt, Doc: "copy the element's text, the given text, or the selection; the result is what was copied"},
		{Name: action.Cut, Params: []Param{opt("source", el)}, Result: txt, Doc: "cut the selection or the element's content; the result is what was cut"},
		{Name: action.Paste, Params: []Param{req("target", el), optSecretText}, Result: txt, Doc: "paste into the element: the given text, or the clipboard"},
		{Name: action.SelectText, Params: []Param{req("source", el, txt)}, Result: txt, Doc: "select the element's text, or the given text where it appears on screen"},
		{Name: action.MultiSelect, Params: []Param{req("targets", types.ListOf(el))}, Result: types.ListOf(el), Doc: "select several elements together"},
		{Name: action.Drag, Params: []Param{req("source", el), req("target", el)}, Result: el, Doc: "drag the source element onto the target"},
		{Name: action.Scroll, Params: []Param{opt("target", el), optDirection, opt("amount", num)}, Result: void, Doc: "scroll the page or the element"},
		{Name: action.Save, Params: []Param{opt("target", el)}, Result: void, Doc: "save (Ctrl+S), in the element's window when given"},
		{Name: action.Open, Params: []Param{url}, Result: window, Doc: "navigate the current tab to the URL"},
		{Name: action.NewTab, Params: []Param{optURL}, Result: window, Doc: "open a new tab, at the URL when given"},
		{Name: action.CloseTab, Result: void, Doc: "close the current tab"},
		{Name: action.OpenWindow, Params: []Param{req("app", txt)}, Result: window, Doc: "open an application window"},
		{Name: action.CloseWindow, Params: []Param{opt("window", window)}, Result: void, Doc: "close the given or the current window"},
		{Name: action.SwitchWindow, Params: []Param{req("title", txt)}, Result: window, Doc: "bring the window or tab with this title to the front"},
		{Name: action.Wait, Params: []Param{req("until", num, el, txt)}, Result: void, Doc: "wait seconds, until an element exists, or until a text appears"},
		{Name: action.Assert, Params: []Param{req("condition", types.BoolT, el, txt), opt("message", txt)}, Result: void, Doc: "stop the run unless the condition holds, the element exists or the text is on screen"},
		{Name: action.Back, Result: void, Doc: "go back (browser history, Android back key)"},
		{Name: action.Launch, Params: []Param{req("app", txt), opt("activity", txt)}, Result: window, Doc: "start an application (or an Android activity) directly"},
		{Name: action.Swipe, Params: []Param{direction, opt("target", el), opt("distance", num)}, Result: void, Doc: "swipe on the screen or the element"},
		{Name: action.Upload, Params: []Param{req("target", el), req("files", txt, types.ListOf(txt))}, Result: el, Doc: "set the files of a file input (paths, relative to the working directory)"},
		{Name: action.Clear, Params: []Param{req("target", el)}, Result: el, Doc: "empty the field, as selecting its content and deleting it does"},
		// API-first actions (AXIS): the skill libraries of stdlib/skills call them.
		{Name: action.SetValue, Params: []Param{req("target", el), secretText}, Result: el, Doc: "set the field's value directly, without key events (browser: value and input/change events; UIA: Value pattern)"},
		{Name: action.SubmitForm, Params: []Param{req("target", el)}, Result: window, Doc: "submit the form the element belongs to, as its submit button would"},
		{Name: action.DownloadLink, Params: []Param{req("target", el), {Name: "to", Types: []types.Type{txt}, Optional: true, NamedOnly: true}}, Result: txt, Doc: "download the link's target to a file (in the working directory, or to:); the result is the file's path"},
		{Name: action.ReadTable, Params: []Param{req("target", el)}, Result: types.ListOf(types.ListOf(txt)), Doc: "read the table's cells row by row, the header row first"},
		{Name: action.Intent, Params: []Param{req("action", txt), opt("data", txt), {Name: "package", Types: []types.Type{txt}, Optional: true, NamedOnly: true}, {Name: "extras", Types: []types.Type{types.ListOf(txt)}, Optional: true, NamedOnly: true}}, Result: window, Doc: `start an Android activity by intent (am start -a ACTION -d DATA); extras are "key=value" texts`},
		{Name: action.ContentQuery, Params: []Param{req("uri", txt), {Name: "columns", Types: []types.Type{types.ListOf(txt)}, Optional: true, NamedOnly: true}, {Name: "where", Types: []types.Type{txt}, Optional: true, NamedOnly: true}}, Result: types.ListOf(txt), Doc: `query an Android content provider (content query --uri); one text per row, "column=value" pairs`},
		{Name: action.Invoke, Params: []Param{req("target", el)}, Result: el, Doc: "invoke the element without the pointer (UIA Invoke pattern)"},
		{Name: action.Toggle, Params: []Param{req("target", el), {Name: "on", Types: []types.Type{types.BoolT}, Optional: true, NamedOnly: true}}, Result: el, Doc: "toggle the check box, or set it to on: (UIA Toggle pattern)"},
		{Name: action.SelectItem, Params: []Param{req("target", el)}, Result: el, Doc: "select the item (UIA SelectionItem pattern)"},
		{Name: action.Expand, Params: []Param{req("target", el)}, Result: el, Doc: "expand the element (UIA ExpandCollapse pattern)"},
		{Name: action.Collapse, Params: []Param{req("target", el)}, Result: el, Doc: "collapse the element (UIA ExpandCollapse pattern)"},
		{Name: action.MenuPath, Params: []Param{req("path", types.ListOf(txt)), {Name: "within", Types: []types.Type{window}, Optional: true, NamedOnly: true}}, Result: void, Doc: `open a menu path by its items' names, such as ["File", "Save As"]: each item expanded, the last invoked`},
	} {
		Actions[string(a.Name)] = a
	}
	addCommonParams()
}

// ActionNames returns the action names, sorted.
func ActionNames() []string {
	names := make([]string, 0, len(Actions))
	for n := range Actions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
