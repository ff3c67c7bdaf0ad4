// Package action names the operations of the language: the one vocabulary
// that the checker's action table (lang/check), the compiler, the
// interpreter and the drivers share. An action is spelled here once; every
// other package uses these constants, never the bare string.
//
// The checker's table (lang/check/actions.go) gives each name its
// parameters and result; a test there keeps the two lists equal.
package action

// Name is the name of an action as a workflow writes it: click, type, …
type Name string

// The actions of the language (docs/language.md, "Actions").
const (
	Click        Name = "click"
	DoubleClick  Name = "double_click"
	RightClick   Name = "right_click"
	Move         Name = "move"
	Type         Name = "type"
	Enter        Name = "enter"
	Key          Name = "key"
	Copy         Name = "copy"
	Cut          Name = "cut"
	Paste        Name = "paste"
	SelectText   Name = "select_text"
	MultiSelect  Name = "multi_select"
	Drag         Name = "drag"
	Scroll       Name = "scroll"
	Save         Name = "save"
	Open         Name = "open"
	NewTab       Name = "new_tab"
	CloseTab     Name = "close_tab"
	OpenWindow   Name = "open_window"
	CloseWindow  Name = "close_window"
	SwitchWindow Name = "switch_window"
	Wait         Name = "wait"
	Assert       Name = "assert"
	Back         Name = "back"
	Launch       Name = "launch"
	Swipe        Name = "swipe"
	Upload       Name = "upload"
	Clear        Name = "clear"
)

// The API-first actions (AXIS): one call of the application's own
// interface in place of a chain of input events. The per-driver skill
// libraries (stdlib/skills) are written with them; a driver that lacks one
// fails the step with "does not perform".
const (
	SetValue     Name = "set_value"
	SubmitForm   Name = "submit_form"
	DownloadLink Name = "download_link"
	ReadTable    Name = "read_table"
	Intent       Name = "intent"
	ContentQuery Name = "content_query"
	Invoke       Name = "invoke"
	Toggle       Name = "toggle"
	SelectItem   Name = "select_item"
	Expand       Name = "expand"
	Collapse     Name = "collapse"
	MenuPath     Name = "menu_path"
)

// The actions a replayed recording needs (a DevTools Recorder import):
// the browser driver performs them, people seldom write them.
const (
	SetViewport    Name = "set_viewport"
	WaitScript     Name = "wait_script"
	WaitNavigation Name = "wait_navigation"
)

var all = []Name{
	Click, DoubleClick, RightClick, Move, Type, Enter, Key, Copy, Cut, Paste,
	SelectText, MultiSelect, Drag, Scroll, Save, Open, NewTab, CloseTab,
	OpenWindow, CloseWindow, SwitchWindow, Wait, Assert, Back, Launch, Swipe,
	Upload, Clear, SetValue, SubmitForm, DownloadLink, ReadTable, Intent, ContentQuery,
	Invoke, Toggle, SelectItem, Expand, Collapse, MenuPath,
	SetViewport, WaitScript, WaitNavigation,
}

// All lists every action, in documented order.
func All() []Name { return append([]Name(nil), all...) }

// Known reports whether n is an action of the language.
func (n Name) Known() bool {
	for _, a := range all {
		if a == n {
			return true
		}
	}
	return false
}

// String returns the name as written.
func (n Name) String() string { return string(n) }

// Join writes names separated by sep, as strings.Join does for strings.
func Join(names []Name, sep string) string {
	var b []byte
	for i, n := range names {
		if i > 0 {
			b = append(b, sep...)
		}
		b = append(b, n...)
	}
	return string(b)
}
