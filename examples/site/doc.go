// Package site is the demo web site that the browser examples
// (examples/*.cog) run against: a wiki, a notes page, an editable reading
// list, an order form, a file list with a rename dialog, a mailbox and a
// sheet of orders. `cogflow demo serve` serves it at http://127.0.0.1:8088
// (--addr moves it; the examples take the address as their input site).
//
// The pages are server-rendered HTML with accessible markup (real labels,
// buttons, tables with header cells, named lists, a named dialog), because
// the browser driver reads the page as roles and names. All state lives on
// the server, behind a mutex: every change a page makes is a form post or a
// fetch call, and GET /api/state returns all of it as JSON (see State), so
// a test can check what a workflow did. POST /api/reset restores the
// initial state; GET /healthz answers "ok".
//
// # Pages
//
//	/              links to every page
//	/wiki          search box (textbox "Search", id q) and button "Search";
//	               /wiki?q=… lists matching articles in the list "Search
//	               results", most relevant first; /wiki/<Title> (spaces as
//	               underscores) is an article: heading, introduction (the
//	               first paragraph, id intro), sections; papers have a
//	               section "Abstract" whose paragraph has id and class
//	               abstract. An unknown title is a 404.
//	/notes         textbox "Notes" (textarea, id notes), button "Save"
//	/reading-list  table "Reading list" (Title, Authors, Abstract), button "Save"
//	/form          region "Contact form": textboxes Name, Email, Phone,
//	               combobox Country, checkbox Newsletter, button "Submit";
//	               after a submission the page confirms it
//	/files         list "Files", each item with a button "Rename"; dialog
//	               "Rename" with textbox "Name" and buttons OK and Cancel
//	/mail          list "Inbox" (newest first, four messages a page; links
//	               "Older" and "Newer" in the navigation "Inbox pages" lead
//	               to /mail?page=N), optional sign-in (User name,
//	               Password, "Sign in"); /mail/<id> shows the message: a text
//	               labelled "Subject" (<output role="text"> with a <label>,
//	               since only labelable elements have a label), button
//	               "Reply", which shows textbox "Reply", textbox "PIN" (a
//	               password field) and button "Send"
//	/sheet         table "Orders" (Name, Email, Phone, Country, Amount),
//	               link "Download orders (CSV)" (/sheet/orders.csv, the
//	               table as a CSV attachment), textbox "Total", button "Save"
//
// # Layouts
//
// NewLayout(LayoutMoved) (cogflow demo serve --layout moved) serves the
// site after a redesign: on /notes, Save is no longer on the page but an
// item of a "More" menu (button "More", aria-expanded, controlling the
// region more-menu), which the script fills when the menu opens and
// empties when it closes. Every other page, and the API, is the same. A
// workflow written for the original layout misses Save there; self-healing
// (cogflow run --heal) finds it by opening the menu.
//
// Window titles are "Wiki", "Search results – Wiki", "<Article> – Wiki",
// "Notes", "Reading list", "Order form" ("Order received – Order form"
// after a submission), "Files", "Mail", "<Subject> – Mail" and "Sheet";
// only the notes page has "Notes" in its title.
//
// # How edits persist
//
// A workflow types and moves on; it does not always press Save. So the
// notes, the reading list's cells and the Total box save themselves: the
// page's script posts a field as soon as it changes (input events, and for
// the cells also a MutationObserver, so a value set without events is
// saved too), again when it loses focus, on Enter (cells and Total), on
// Save and on Ctrl+S, and with a beacon when the page goes away. One
// request per field is in flight at a time and the last one carries the
// latest value; each carries a rev (the time of the edit in milliseconds)
// and the server ignores a save older than the one it has.
//
// The reading list's cells are the <td> elements themselves, made
// contenteditable, so that a cell's text is what the table shows and
// type(paper.cell("Abstract"), text) edits the cell the driver found. They
// carry role="cell": the browser driver calls a contenteditable element a
// textbox unless its role is explicit, and only cells have a column. A
// cell is posted to POST /reading-list as the field "<column>-<row>"
// ("abstract-2" is the Abstract of the third row, rows counted from 0).
//
// The Rename dialog is one <dialog> shared by all files. Rename opens it
// with the file's name in the Name box, selected; Enter or OK posts from
// and name to POST /files/rename through fetch, updates the list item in
// place (the list is not reloaded, so its elements stay valid in a loop)
// and closes the dialog; Escape or Cancel closes it unchanged. Renaming to
// the same name is allowed; to another file's name is refused (409).
//
// Without script every page still works as plain forms (Rename then opens
// the dialog through /files?rename=<name>), except that the reading list's
// cells cannot be edited.
//
// Replies store whether a PIN was given, never the PIN; signing in stores
// the user name, never the password.
package site
