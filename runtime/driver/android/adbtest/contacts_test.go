package adbtest

import (
	"encoding/xml"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// xmlNode is a dump node as a driver reads it.
type xmlNode struct {
	Attrs    []xml.Attr `xml:",any,attr"`
	Children []xmlNode  `xml:"node"`
}

func (n xmlNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// parseDump parses a uiautomator dump, failing the test when it is not
// well-formed, and returns the nodes in document order.
func parseDump(t *testing.T, dump string) []xmlNode {
	t.Helper()
	var h struct {
		Rotation string    `xml:"rotation,attr"`
		Nodes    []xmlNode `xml:"node"`
	}
	if err := xml.Unmarshal([]byte(dump), &h); err != nil {
		t.Fatalf("dump is not XML: %v\n%s", err, dump)
	}
	if h.Rotation != "0" {
		t.Errorf("rotation = %q", h.Rotation)
	}
	var out []xmlNode
	var walk func(ns []xmlNode)
	walk = func(ns []xmlNode) {
		for _, n := range ns {
			out = append(out, n)
			walk(n.Children)
		}
	}
	walk(h.Nodes)
	return out
}

// find returns the first node whose resource-id, text or content-desc is
// key.
func find(t *testing.T, a *App, key string) (xmlNode, bool) {
	t.Helper()
	for _, n := range parseDump(t, a.Dump()) {
		if n.attr("resource-id") == key || n.attr("text") == key || n.attr("content-desc") == key {
			return n, true
		}
	}
	return xmlNode{}, false
}

// tap taps the center of the node found by key, as a driver would.
func tap(t *testing.T, a *App, key string) {
	t.Helper()
	n, ok := find(t, a, key)
	if !ok {
		t.Fatalf("no node %q on screen %s", key, a.Screen())
	}
	var x1, y1, x2, y2 int
	if _, err := fmt.Sscanf(n.attr("bounds"), "[%d,%d][%d,%d]", &x1, &y1, &x2, &y2); err != nil {
		t.Fatalf("bounds %q: %v", n.attr("bounds"), err)
	}
	if !a.Tap((x1+x2)/2, (y1+y2)/2) {
		t.Fatalf("tap on %q hit nothing clickable", key)
	}
}

func names(a *App) []string {
	var out []string
	for _, c := range a.Contacts() {
		out = append(out, c.Name)
	}
	return out
}

func TestAppEditContact(t *testing.T) {
	a := NewApp()
	steps := []struct {
		do     func()
		screen string
	}{
		{func() {}, ScreenLauncher},
		{func() { tap(t, a, "Contacts") }, ScreenList},
		{func() { tap(t, a, "Bob Smith") }, ScreenDetail},
		{func() { tap(t, a, idEdit) }, ScreenEdit},
		{func() {
			tap(t, a, idNameInput)
			for range len("Smith") {
				a.Key(keyDel)
			}
			a.TypeText("Ångström")
		}, ScreenEdit},
		{func() { tap(t, a, "Save") }, ScreenDetail},
	}
	for i, s := range steps {
		s.do()
		if got := a.Screen(); got != s.screen {
			t.Fatalf("step %d: screen %q, want %q", i, got, s.screen)
		}
	}
	if n, ok := find(t, a, idDetailName); !ok || n.attr("text") != "Bob Ångström" {
		t.Errorf("detail name = %q, want Bob Ångström", n.attr("text"))
	}
	want := []string{"Alice Johnson", "Bob Ångström", "Carlos Díaz", "Zoë Ångström"}
	if got := names(a); !slices.Equal(got, want) {
		t.Errorf("contacts = %q, want %q", got, want)
	}
	a.Key(keyBack)
	a.Key(keyBack)
	if a.Screen() != ScreenLauncher {
		t.Errorf("two backs from detail: screen %q, want launcher", a.Screen())
	}
}

func TestAppNewContact(t *testing.T) {
	a := NewApp()
	a.Start()
	tap(t, a, "Add contact")
	if n, _ := find(t, a, idNameInput); n.attr("text") != "Name" || n.attr("focused") != "false" {
		t.Errorf("empty name field shows %q focused=%s, want its hint and unfocused", n.attr("text"), n.attr("focused"))
	}
	tap(t, a, "Save")
	if n, ok := find(t, a, idError); !ok || n.attr("text") != "Name is required" || a.Screen() != ScreenEdit {
		t.Fatalf("saving without a name: error %q on %s", n.attr("text"), a.Screen())
	}
	tap(t, a, idNameInput)
	a.TypeText("Aaron Abbott")
	a.Key(keyEnter) // moves to Phone
	a.TypeText("+1 555-0199")
	if a.Focused() != idPhoneInput {
		t.Errorf("focus after ENTER = %q", a.Focused())
	}
	if n, _ := find(t, a, idPhoneInput); n.attr("focused") != "true" || n.attr("text") != "+1 555-0199" {
		t.Errorf("phone field = %q focused=%s", n.attr("text"), n.attr("focused"))
	}
	tap(t, a, "Save")
	if a.Screen() != ScreenList {
		t.Fatalf("after save: %s", a.Screen())
	}
	got := a.Contacts()
	if got[0] != (Contact{Name: "Aaron Abbott", Phone: "+1 555-0199"}) || len(got) != 5 {
		t.Errorf("contacts = %+v, want Aaron Abbott first of 5", got)
	}
}

func TestAppSearchDeleteAndHome(t *testing.T) {
	a := NewApp()
	a.Launch()
	tap(t, a, idSearch)
	a.TypeText("zo")
	rows := 0
	for _, n := range parseDump(t, a.Dump()) {
		if n.attr("resource-id") == idRowName {
			rows++
			if n.attr("text") != "Zoë Ångström" {
				t.Errorf("search zo shows %q", n.attr("text"))
			}
		}
	}
	if rows != 1 {
		t.Errorf("search zo shows %d rows, want 1", rows)
	}
	a.TypeText("x")
	if _, ok := find(t, a, "No contacts"); !ok {
		t.Error("no empty-list message for a search without results")
	}
	a.Key(keyHome)
	if a.Screen() != ScreenLauncher {
		t.Fatalf("HOME: %s", a.Screen())
	}
	tap(t, a, "Contacts") // resumes with the search still typed
	if n, _ := find(t, a, idSearch); n.attr("text") != "zox" {
		t.Errorf("resumed search = %q, want zox", n.attr("text"))
	}
	a.Key(keyDel)
	a.Key(keyDel)
	a.Key(keyDel)
	a.Key(keyDel) // deleting from an empty field is harmless
	tap(t, a, "Carlos Díaz")
	tap(t, a, "Delete")
	if got := names(a); slices.Contains(got, "Carlos Díaz") || a.Screen() != ScreenList {
		t.Errorf("after delete: %q on %s", got, a.Screen())
	}
	tap(t, a, "Alice Johnson")
	tap(t, a, "Navigate up")
	if a.Screen() != ScreenList {
		t.Errorf("Navigate up: %s", a.Screen())
	}
}

func TestAppScrollAndHitTest(t *testing.T) {
	a := NewApp()
	a.Start()
	for i := range 12 {
		a.mu.Lock()
		a.addContact(Contact{Name: fmt.Sprintf("Person %02d", i)})
		a.mu.Unlock()
	}
	list, _ := find(t, a, idList)
	if list.attr("scrollable") != "true" {
		t.Error("a list longer than the screen is not scrollable")
	}
	if _, ok := find(t, a, "Zoë Ångström"); ok {
		t.Error("the last contact is visible before scrolling")
	}
	a.Swipe(540, 2000, 540, 400)
	a.Swipe(540, 2000, 540, 400)
	if _, ok := find(t, a, "Zoë Ångström"); !ok {
		t.Error("the last contact is not visible after scrolling down")
	}
	// The FAB is drawn over the list: a tap on it adds, not opens a row.
	tap(t, a, "Add contact")
	if a.Screen() != ScreenEdit {
		t.Errorf("tap on the FAB over a row opened %s", a.Screen())
	}
	if a.Tap(-5, 99999) {
		t.Error("a tap off screen hit something")
	}
}

func TestDumpEscapes(t *testing.T) {
	a := NewApp()
	a.mu.Lock()
	a.addContact(Contact{Name: `A "quoted" <tag> & co`})
	a.mu.Unlock()
	a.Start()
	dump := a.Dump()
	if !strings.HasPrefix(dump, "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">") ||
		strings.Contains(dump, "\n") {
		t.Errorf("dump header or line breaks differ from uiautomator's: %.120s", dump)
	}
	if _, ok := find(t, a, `A "quoted" <tag> & co`); !ok {
		t.Error("special characters do not survive the dump")
	}
}
