package adbtest

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Package and activity names of the simulated apps, as `am start -n` and
// `dumpsys` spell them.
const (
	ContactsPackage  = "com.example.contacts"
	ContactsActivity = ".MainActivity"
	LauncherPackage  = "com.android.launcher3"
	launcherActivity = ".Launcher"
)

// Screens App.Screen reports.
const (
	ScreenLauncher = "launcher" // home screen with the app icons
	ScreenList     = "list"     // contacts list (.MainActivity)
	ScreenDetail   = "detail"   // one contact (.DetailActivity)
	ScreenEdit     = "edit"     // edit or new-contact form (.EditActivity)
)

// Contact is one entry of the contacts app.
type Contact struct {
	Name, Phone, Email string
}

// App is the simulated contacts app plus the launcher it is started from.
// All methods are safe for concurrent use.
type App struct {
	mu       sync.Mutex
	contacts []contactRec
	nextID   int
	inApp    bool     // false: the launcher is in front
	stack    []*frame // the app's back stack; kept while at the launcher
	ext      *foreign // another app's activity in front (intents.go); nil: none
}

type contactRec struct {
	id int
	Contact
}

// frame is one screen of the app's back stack with its own state.
type frame struct {
	screen    string
	focus     string            // resource-id of the focused EditText, "" for none
	selected  bool              // the focused field's text is selected (CTRL+A)
	contactID int               // detail and edit: which contact; 0 = new
	search    string            // list: search field
	scroll    int               // list: pixels scrolled
	fields    map[string]string // edit: field resource-id → value
	errorText string            // edit: validation message; import flow: a status line
	checked   bool              // settings: the switch
}

// SeedContacts are the contacts NewApp starts with; one has non-ASCII
// letters so that text handling is exercised.
var SeedContacts = []Contact{
	{Name: "Alice Johnson", Phone: "+1 555-0100", Email: "alice@example.com"},
	{Name: "Bob Smith", Phone: "+1 555-0123", Email: "bob.smith@example.com"},
	{Name: "Carlos Díaz", Phone: "+34 600 123 456", Email: "carlos@example.es"},
	{Name: "Zoë Ångström", Phone: "+46 70 123 45 67", Email: "zoe@example.se"},
}

// NewApp returns the app with SeedContacts, showing the launcher.
func NewApp() *App {
	a := &App{}
	for _, c := range SeedContacts {
		a.addContact(c)
	}
	return a
}

// Contacts returns the contacts in list order (by name, ignoring case).
func (a *App) Contacts() []Contact {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]Contact, len(a.contacts))
	for i, c := range a.contacts {
		out[i] = c.Contact
	}
	return out
}

// Screen returns the screen in front: ScreenLauncher, ScreenList,
// ScreenDetail, ScreenEdit, or one of the import flow's (importflow.go).
func (a *App) Screen() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.screen()
}

// Focused returns the resource-id of the focused text field, "" for none.
func (a *App) Focused() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.focused()
}

func (a *App) focused() string {
	if f := a.top(); f != nil {
		return f.focus
	}
	return ""
}

// Activity returns the resumed activity as "package/.Activity", as
// `dumpsys activity activities` names it.
func (a *App) Activity() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.activity()
}

func (a *App) activity() string {
	if a.ext != nil {
		return a.ext.activity
	}
	if act := activityOf(a.screen()); act != "" {
		return act
	}
	switch a.screen() {
	case ScreenList:
		return ContactsPackage + "/" + ContactsActivity
	case ScreenDetail:
		return ContactsPackage + "/.DetailActivity"
	case ScreenEdit:
		return ContactsPackage + "/.EditActivity"
	}
	return LauncherPackage + "/" + launcherActivity
}

func (a *App) screen() string {
	if a.ext != nil {
		return a.ext.screen
	}
	if f := a.top(); f != nil {
		return f.screen
	}
	return ScreenLauncher
}

// top is the app's frame in front, nil when the launcher is.
func (a *App) top() *frame {
	if a.ext != nil || !a.inApp || len(a.stack) == 0 {
		return nil
	}
	return a.stack[len(a.stack)-1]
}

func (a *App) addContact(c Contact) int {
	a.nextID++
	a.contacts = append(a.contacts, contactRec{id: a.nextID, Contact: c})
	a.sortContacts()
	return a.nextID
}

func (a *App) sortContacts() {
	slices.SortStableFunc(a.contacts, func(x, y contactRec) int {
		return strings.Compare(strings.ToLower(x.Name), strings.ToLower(y.Name))
	})
}

func (a *App) contact(id int) (contactRec, bool) {
	for _, c := range a.contacts {
		if c.id == id {
			return c, true
		}
	}
	return contactRec{}, false
}

// launch brings the app to the front, resuming its back stack, as tapping
// its icon or `monkey -p` does.
func (a *App) launch() {
	a.inApp, a.ext = true, nil
	if len(a.stack) == 0 {
		a.stack = []*frame{{screen: ScreenList}}
	}
}

// start is `am start -n …/.MainActivity`: a fresh list screen (the
// simulation always clears the task, as `am start -S` would).
func (a *App) start() {
	a.inApp, a.ext = true, nil
	a.stack = []*frame{{screen: ScreenList}}
}

// forceStop is `am force-stop`: the app's task is gone.
func (a *App) forceStop() {
	a.stack = nil
	a.inApp = false
}

func (a *App) push(f *frame) {
	a.stack = append(a.stack, f)
}

// back pops the front screen; popping the last one returns to the launcher.
func (a *App) back() {
	if a.ext != nil {
		a.ext = nil // the other app's activity finishes
		return
	}
	if !a.inApp || len(a.stack) == 0 {
		a.inApp = false
		return
	}
	a.stack = a.stack[:len(a.stack)-1]
	if len(a.stack) == 0 {
		a.inApp = false
	}
}

func (a *App) home() {
	a.inApp, a.ext = false, nil
}

// focusedValue returns accessors to the focused field's value.
func (a *App) focusedValue() (get func() string, set func(string), ok bool) {
	f := a.top()
	if f == nil || f.focus == "" {
		return nil, nil, false
	}
	if f.focus == idSearch {
		return func() string { return f.search }, func(s string) { f.search = s; f.scroll = 0 }, true
	}
	if f.fields == nil {
		return nil, nil, false
	}
	id := f.focus
	return func() string { return f.fields[id] }, func(s string) { f.fields[id] = s }, true
}

// typeText appends s to the focused field, as the soft keyboard does, or
// replaces the selected text.
func (a *App) typeText(s string) {
	if get, set, ok := a.focusedValue(); ok {
		if a.takeSelection() {
			set(s)
			return
		}
		set(get() + s)
	}
}

// takeSelection reports whether the focused field's text was selected and
// ends the selection, as any edit does.
func (a *App) takeSelection() bool {
	f := a.top()
	if f == nil || !f.selected {
		return false
	}
	f.selected = false
	return true
}

// deleteChar removes the last character of the focused field.
func (a *App) deleteChar() {
	get, set, ok := a.focusedValue()
	if !ok {
		return
	}
	v := get()
	if a.takeSelection() {
		set("")
		return
	}
	_, size := utf8.DecodeLastRuneInString(v)
	set(v[:len(v)-size])
}

// TypeText types s into the focused field, as a person on the soft
// keyboard does (no `input text` quoting rules apply).
func (a *App) TypeText(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.typeText(s)
}

// ClearText empties the focused field, as ADBKeyBoard's ADB_CLEAR_TEXT does.
func (a *App) ClearText() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, set, ok := a.focusedValue(); ok {
		set("")
		a.takeSelection()
	}
}

// Tap applies a tap at screen pixel (x, y) and reports whether it hit a
// clickable view.
func (a *App) Tap(x, y int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.render().hit(x, y)
	if n == nil || n.onTap == nil {
		return n != nil
	}
	n.onTap(a)
	return true
}

// TypeTextAndTap types s into the focused field and taps (x, y) with no
// dump possible in between: a person faster than any recorder's polling.
func (a *App) TypeTextAndTap(s string, x, y int) {
	a.typeTextAndTap(s, x, y, nil)
}

// typeTextAndTap is TypeTextAndTap calling touched, if set, between the
// typing and the tap, still with no dump possible.
func (a *App) typeTextAndTap(s string, x, y int, touched func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.typeText(s)
	if touched != nil {
		touched()
	}
	if n := a.render().hit(x, y); n != nil && n.onTap != nil {
		n.onTap(a)
	}
}

// Dump returns the front window as `uiautomator dump` writes it.
func (a *App) Dump() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return dumpXML(a.render())
}

// save validates and stores the edit form, then leaves it.
func (a *App) save(f *frame) {
	c := Contact{
		Name:  strings.TrimSpace(f.fields[idNameInput]),
		Phone: strings.TrimSpace(f.fields[idPhoneInput]),
		Email: strings.TrimSpace(f.fields[idEmailInput]),
	}
	if c.Name == "" {
		f.errorText = "Name is required"
		return
	}
	if f.contactID == 0 {
		a.addContact(c)
	} else {
		for i := range a.contacts {
			if a.contacts[i].id == f.contactID {
				a.contacts[i].Contact = c
			}
		}
		a.sortContacts()
	}
	a.back()
}

// deleteContact removes the contact shown on f and leaves the screen.
func (a *App) deleteContact(f *frame) {
	a.contacts = slices.DeleteFunc(a.contacts, func(c contactRec) bool { return c.id == f.contactID })
	a.back()
}

// editFrame opens the form for contact id (0: a new contact).
func (a *App) editFrame(id int) *frame {
	f := &frame{screen: ScreenEdit, contactID: id, fields: map[string]string{}}
	if c, ok := a.contact(id); ok {
		f.fields[idNameInput], f.fields[idPhoneInput], f.fields[idEmailInput] = c.Name, c.Phone, c.Email
	}
	return f
}

// enter is KEYCODE_ENTER: in the form it moves focus to the next field, as
// the fields' imeOptions="actionNext" do.
func (a *App) enter() {
	order := []string{idNameInput, idPhoneInput, idEmailInput}
	f := a.top()
	if f == nil {
		return
	}
	if i := slices.Index(order, f.focus); i >= 0 && i+1 < len(order) {
		f.focus = order[i+1]
	}
}

// swipe scrolls the contacts list by the finger's vertical travel.
func (a *App) swipe(x1, y1, x2, y2 int) {
	f := a.top()
	if f == nil || f.screen != ScreenList || !listBounds.contains(x1, y1) {
		return
	}
	f.scroll += y1 - y2
	f.scroll = max(0, min(f.scroll, a.maxScroll(f)))
}

// Launch brings the app to the front as its launcher icon does, resuming
// where it was.
func (a *App) Launch() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.launch()
}

// Start opens the app's main activity on a fresh list screen.
func (a *App) Start() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.start()
}

// ForceStop ends the app; the launcher is in front afterwards.
func (a *App) ForceStop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.forceStop()
}

// Swipe applies a finger moving from (x1, y1) to (x2, y2): on the contacts
// list it scrolls by the vertical distance.
func (a *App) Swipe(x1, y1, x2, y2 int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.swipe(x1, y1, x2, y2)
}
