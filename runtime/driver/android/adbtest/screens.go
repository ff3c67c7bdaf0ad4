package adbtest

import "strings"

// Screen geometry of the simulated phone: 1080×2400 pixels, a status bar
// above and a navigation bar below the app's content.
const (
	ScreenWidth  = 1080
	ScreenHeight = 2400
	contentTop   = 84
	contentBot   = 2274
	rowHeight    = 189
)

// Resource ids of the contacts app's views, as uiautomator prints them.
const (
	idToolbar    = ContactsPackage + ":id/toolbar"
	idSearch     = ContactsPackage + ":id/search"
	idList       = ContactsPackage + ":id/contact_list"
	idRow        = ContactsPackage + ":id/contact_row"
	idRowName    = ContactsPackage + ":id/name"
	idRowPhone   = ContactsPackage + ":id/phone"
	idEmpty      = ContactsPackage + ":id/empty"
	idFab        = ContactsPackage + ":id/fab_add"
	idDetailName = ContactsPackage + ":id/detail_name"
	idDetailTel  = ContactsPackage + ":id/detail_phone"
	idDetailMail = ContactsPackage + ":id/detail_email"
	idEdit       = ContactsPackage + ":id/edit"
	idDelete     = ContactsPackage + ":id/delete"
	idNameInput  = ContactsPackage + ":id/name_input"
	idPhoneInput = ContactsPackage + ":id/phone_input"
	idEmailInput = ContactsPackage + ":id/email_input"
	idError      = ContactsPackage + ":id/error"
	idSave       = ContactsPackage + ":id/save"
)

var listBounds = rect{0, 399, ScreenWidth, contentBot}

// render builds the front window's view tree.
func (a *App) render() *node {
	if a.ext != nil {
		return a.renderForeign()
	}
	f := a.top()
	if f == nil {
		return a.renderLauncher()
	}
	if w := a.renderFlow(f); w != nil {
		return w
	}
	var body []*node
	switch f.screen {
	case ScreenList:
		body = a.renderList(f)
	case ScreenDetail:
		body = a.renderDetail(f)
	default:
		body = a.renderEdit(f)
	}
	return window(ContactsPackage, body...)
}

// window wraps content in the decor views every activity window has:
// DecorView (FrameLayout) → LinearLayout → android:id/content.
func window(pkg string, content ...*node) *node {
	full := rect{0, 0, ScreenWidth, ScreenHeight}
	c := &node{class: "android.widget.FrameLayout", id: "android:id/content", pkg: pkg,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}
	c.add(content...)
	return (&node{class: "android.widget.FrameLayout", pkg: pkg, bounds: full}).add(
		(&node{class: "android.widget.LinearLayout", pkg: pkg, bounds: full}).add(c))
}

func (a *App) renderLauncher() *node {
	pkg := LauncherPackage
	icons := []string{"Phone", "Messages", "Contacts", "Chrome"}
	ws := &node{class: "android.view.ViewGroup", id: pkg + ":id/workspace", pkg: pkg,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}
	for i, name := range icons {
		n := &node{class: "android.widget.TextView", text: name, desc: name, pkg: pkg,
			clickable: true, focusable: true, longClickable: true,
			bounds: rect{i * 270, 1900, (i + 1) * 270, 2150}}
		if name == "Contacts" {
			n.onTap = (*App).launch
		}
		ws.add(n)
	}
	return window(pkg, ws)
}

// toolbar is the app bar: an up button on inner screens, then the title.
func toolbar(title string, up bool) *node {
	tb := &node{class: "android.view.ViewGroup", id: idToolbar, pkg: ContactsPackage,
		bounds: rect{0, contentTop, ScreenWidth, 231}}
	titleX := 42
	if up {
		tb.add(&node{class: "android.widget.ImageButton", desc: "Navigate up", pkg: ContactsPackage,
			clickable: true, focusable: true, bounds: rect{0, contentTop, 147, 231}, onTap: (*App).back})
		titleX = 189
	}
	return tb.add(&node{class: "android.widget.TextView", text: title, pkg: ContactsPackage,
		bounds: rect{titleX, 123, 900, 192}})
}

// editText is a text field. An empty field reports its hint as its text,
// as AccessibilityNodeInfo does since Android 8.
func (a *App) editText(id, value, hint string, b rect) *node {
	text := value
	if text == "" {
		text = hint
	}
	return &node{class: "android.widget.EditText", id: id, text: text, pkg: ContactsPackage,
		clickable: true, focusable: true, longClickable: true, focused: a.focused() == id,
		bounds: b, onTap: func(a *App) { f := a.top(); f.focus, f.selected = id, false }}
}

func (a *App) renderList(f *frame) []*node {
	list := &node{class: "androidx.recyclerview.widget.RecyclerView", id: idList, pkg: ContactsPackage,
		focusable: true, bounds: listBounds, scrollable: a.maxScroll(f) > 0}
	shown := a.filtered(f)
	for i, c := range shown {
		y := listBounds.Y1 + i*rowHeight - f.scroll
		row := rect{0, y, ScreenWidth, y + rowHeight}
		if row.intersect(listBounds).empty() {
			continue
		}
		id := c.id
		list.add((&node{class: "android.widget.LinearLayout", id: idRow, pkg: ContactsPackage,
			clickable: true, focusable: true, bounds: row.intersect(listBounds),
			onTap: func(a *App) { a.push(&frame{screen: ScreenDetail, contactID: id}) }}).add(
			&node{class: "android.widget.TextView", id: idRowName, text: c.Name, pkg: ContactsPackage,
				bounds: rect{42, y + 21, 1038, y + 105}.intersect(listBounds)},
			&node{class: "android.widget.TextView", id: idRowPhone, text: c.Phone, pkg: ContactsPackage,
				bounds: rect{42, y + 105, 1038, y + 168}.intersect(listBounds)}))
	}
	if len(shown) == 0 {
		list.add(&node{class: "android.widget.TextView", id: idEmpty, text: "No contacts", pkg: ContactsPackage,
			bounds: rect{42, 441, 1038, 525}})
	}
	column := (&node{class: "android.widget.LinearLayout", pkg: ContactsPackage,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}).add(
		toolbar("Contacts", false).add(moreButton()),
		a.editText(idSearch, f.search, "Search contacts", rect{42, 252, 1038, 378}),
		list)
	fab := &node{class: "android.widget.ImageButton", id: idFab, desc: "Add contact", pkg: ContactsPackage,
		clickable: true, focusable: true, bounds: rect{870, 2064, 1038, 2232},
		onTap: func(a *App) { a.push(a.editFrame(0)) }}
	return []*node{column, fab}
}

// filtered is the list's rows: contacts whose name contains the search
// text, ignoring case.
func (a *App) filtered(f *frame) []contactRec {
	q := strings.ToLower(strings.TrimSpace(f.search))
	var out []contactRec
	for _, c := range a.contacts {
		if strings.Contains(strings.ToLower(c.Name), q) {
			out = append(out, c)
		}
	}
	return out
}

func (a *App) maxScroll(f *frame) int {
	total := len(a.filtered(f)) * rowHeight
	return max(0, total-(listBounds.Y2-listBounds.Y1))
}

func (a *App) renderDetail(f *frame) []*node {
	c, ok := a.contact(f.contactID)
	if !ok {
		c.Name = "(deleted)"
	}
	text := func(id, s string, y int) *node {
		return &node{class: "android.widget.TextView", id: id, text: s, pkg: ContactsPackage,
			bounds: rect{42, y, 1038, y + 84}}
	}
	button := func(id, label string, x1, x2 int, tap func(*App)) *node {
		return &node{class: "android.widget.Button", id: id, text: label, pkg: ContactsPackage,
			clickable: true, focusable: true, bounds: rect{x1, 567, x2, 693}, onTap: tap}
	}
	return []*node{(&node{class: "android.widget.LinearLayout", pkg: ContactsPackage,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}).add(
		toolbar(c.Name, true),
		text(idDetailName, c.Name, 273),
		text(idDetailTel, c.Phone, 378),
		text(idDetailMail, c.Email, 462),
		button(idEdit, "Edit", 42, 500, func(a *App) { a.push(a.editFrame(f.contactID)) }),
		button(idDelete, "Delete", 580, 1038, func(a *App) { a.deleteContact(f) }),
	)}
}

func (a *App) renderEdit(f *frame) []*node {
	title := "Edit contact"
	if f.contactID == 0 {
		title = "New contact"
	}
	col := (&node{class: "android.widget.LinearLayout", pkg: ContactsPackage,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}).add(
		toolbar(title, true),
		a.editText(idNameInput, f.fields[idNameInput], "Name", rect{42, 273, 1038, 399}),
		a.editText(idPhoneInput, f.fields[idPhoneInput], "Phone", rect{42, 420, 1038, 546}),
		a.editText(idEmailInput, f.fields[idEmailInput], "Email", rect{42, 567, 1038, 693}),
	)
	if f.errorText != "" {
		col.add(&node{class: "android.widget.TextView", id: idError, text: f.errorText, pkg: ContactsPackage,
			bounds: rect{42, 714, 1038, 777}})
	}
	col.add(&node{class: "android.widget.Button", id: idSave, text: "Save", pkg: ContactsPackage,
		clickable: true, focusable: true, bounds: rect{42, 798, 1038, 924}, onTap: func(a *App) { a.save(f) }})
	return []*node{col}
}
