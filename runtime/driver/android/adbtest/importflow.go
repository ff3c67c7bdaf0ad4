package adbtest

// The screens behind the list's overflow menu, for exploring a command no
// one demonstrated ("import contacts from a file"): the menu, with a wrong
// branch (Settings) next to Import/export; the import/export screen; a
// file picker; importing returns to the list, which shows the contacts
// the file held.

// Screens of the import flow, as App.Screen reports them.
const (
	ScreenMenu     = "menu"     // the list's overflow menu, a popup window over .MainActivity
	ScreenSettings = "settings" // .SettingsActivity: options that do not import anything
	ScreenImport   = "import"   // .ImportExportActivity
	ScreenFiles    = "files"    // .FilePickerActivity: the files on the device
)

const (
	idMore     = ContactsPackage + ":id/more"
	idMenu     = ContactsPackage + ":id/menu_list"
	idTheme    = ContactsPackage + ":id/dark_theme"
	idAbout    = ContactsPackage + ":id/about"
	idImport   = ContactsPackage + ":id/import_vcf"
	idExport   = ContactsPackage + ":id/export_vcf"
	idStatus   = ContactsPackage + ":id/status"
	idFileList = ContactsPackage + ":id/file_list"
	idFileRow  = ContactsPackage + ":id/file_row"
)

// File is a file the file picker lists; Contacts are what importing it
// adds (none: it is not a contacts file).
type File struct {
	Name     string
	Contacts []Contact
}

// DeviceFiles are the files in the simulated phone's Download folder.
var DeviceFiles = []File{
	{Name: "notes.txt"},
	{Name: "contacts.vcf", Contacts: []Contact{
		{Name: "Dana Whitfield", Phone: "+1 555-0142", Email: "dana@example.org"},
		{Name: "Evan Okafor", Phone: "+1 555-0177", Email: "evan@example.org"},
	}},
	{Name: "photo.jpg"},
}

// activityOf names the activity of the import flow's screens; "" for
// the others.
func activityOf(screen string) string {
	switch screen {
	case ScreenMenu:
		return ContactsPackage + "/" + ContactsActivity
	case ScreenSettings:
		return ContactsPackage + "/.SettingsActivity"
	case ScreenImport:
		return ContactsPackage + "/.ImportExportActivity"
	case ScreenFiles:
		return ContactsPackage + "/.FilePickerActivity"
	}
	return ""
}

// moreButton is the list toolbar's overflow button.
func moreButton() *node {
	return &node{class: "android.widget.ImageButton", id: idMore, desc: "More options", pkg: ContactsPackage,
		clickable: true, focusable: true, bounds: rect{933, contentTop, ScreenWidth, 231},
		onTap: func(a *App) { a.push(&frame{screen: ScreenMenu}) }}
}

// choose is a menu item's tap: the popup closes, then the item's screen
// opens, as a PopupMenu does; back from that screen shows the list.
func choose(screen string) func(*App) {
	return func(a *App) {
		a.back()
		a.push(&frame{screen: screen})
	}
}

// renderFlow renders the import flow's screens; nil for the others.
func (a *App) renderFlow(f *frame) *node {
	switch f.screen {
	case ScreenMenu:
		return a.renderMenu()
	case ScreenSettings:
		return window(ContactsPackage, a.renderSettings(f))
	case ScreenImport:
		return window(ContactsPackage, a.renderImport(f))
	case ScreenFiles:
		return window(ContactsPackage, a.renderFiles(f))
	}
	return nil
}

// renderMenu is the popup window alone: uiautomator dumps the window that
// has focus, and a popup menu takes it.
func (a *App) renderMenu() *node {
	items := []struct{ label, screen string }{{"Settings", ScreenSettings}, {"Import/export", ScreenImport}}
	b := rect{560, 105, 1059, 105 + len(items)*147}
	list := &node{class: "android.widget.ListView", id: idMenu, pkg: ContactsPackage, bounds: b}
	for i, it := range items {
		y := b.Y1 + i*147
		list.add(&node{class: "android.widget.TextView", id: ContactsPackage + ":id/title", text: it.label,
			pkg: ContactsPackage, clickable: true, focusable: true, bounds: rect{b.X1, y, b.X2, y + 147},
			onTap: choose(it.screen)})
	}
	return (&node{class: "android.widget.FrameLayout", pkg: ContactsPackage, bounds: b}).add(list)
}

// column is an inner screen's layout: a toolbar with an up button, then
// the rows.
func column(title string, rows ...*node) *node {
	return (&node{class: "android.widget.LinearLayout", pkg: ContactsPackage,
		bounds: rect{0, contentTop, ScreenWidth, contentBot}}).add(toolbar(title, true)).add(rows...)
}

// row is a tappable line of text at position i below the toolbar.
func row(id, text string, i int, tap func(*App)) *node {
	y := 252 + i*147
	return &node{class: "android.widget.TextView", id: id, text: text, pkg: ContactsPackage,
		clickable: true, focusable: true, bounds: rect{42, y, 1038, y + 126}, onTap: tap}
}

func (a *App) renderSettings(f *frame) *node {
	theme := &node{class: "android.widget.Switch", id: idTheme, text: "Dark theme", pkg: ContactsPackage,
		checkable: true, checked: f.checked, clickable: true, focusable: true, bounds: rect{42, 252, 1038, 378},
		onTap: func(*App) { f.checked = !f.checked }}
	about := row(idAbout, "About", 1, func(*App) { f.errorText = "Contacts 1.0" })
	col := column("Settings", theme, about)
	return withStatus(col, f, 546)
}

func (a *App) renderImport(f *frame) *node {
	col := column("Import/export",
		row(idImport, "Import from .vcf file", 0, func(a *App) { a.push(&frame{screen: ScreenFiles}) }),
		row(idExport, "Export to .vcf file", 1, func(*App) {
			f.errorText = "Exported to contacts-export.vcf"
		}))
	return withStatus(col, f, 546)
}

func (a *App) renderFiles(f *frame) *node {
	list := &node{class: "androidx.recyclerview.widget.RecyclerView", id: idFileList, pkg: ContactsPackage,
		focusable: true, bounds: rect{0, 252, ScreenWidth, contentBot}}
	for i, file := range DeviceFiles {
		list.add(row(idFileRow, file.Name, i, func(a *App) { a.importFile(f, file) }))
	}
	col := column("Choose a file", list)
	return withStatus(col, f, 2100)
}

// withStatus adds the frame's status line (what the last tap said) to
// col at y, when there is one.
func withStatus(col *node, f *frame, y int) *node {
	if f.errorText != "" {
		col.add(&node{class: "android.widget.TextView", id: idStatus, text: f.errorText, pkg: ContactsPackage,
			bounds: rect{42, y, 1038, y + 84}})
	}
	return col
}

// importFile adds the file's contacts and returns to the list; a file
// with none says so and stays.
func (a *App) importFile(f *frame, file File) {
	if len(file.Contacts) == 0 {
		f.errorText = file.Name + " is not a contacts file"
		return
	}
	for _, c := range file.Contacts {
		a.addContact(c)
	}
	a.stack = a.stack[:1]
}
