package android

import (
	"os"
	"testing"
	"time"
)

// Rows of contacts_list.xml are 168 px high from y=500: Alan Turing is
// the second, 668–836.
func TestHit(t *testing.T) {
	b, err := os.ReadFile("testdata/contacts_list.xml")
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseDump(b)
	if err != nil {
		t.Fatal(err)
	}
	tr := normalize(h, time.Time{})
	name := func(i int) string {
		if i < 0 {
			return "-"
		}
		return tr.Elements[i].Role + ":" + first(tr.Elements[i].Name, tr.Elements[i].ID)
	}
	tests := []struct {
		x, y int
		want string
	}{
		{500, 750, "listitem:Alan Turing"},                 // on the name's text: the clickable row takes it
		{100, 750, "button:Quick contact for Alan Turing"}, // the avatar is clickable itself
		{940, 2050, "button:Create contact"},               // the FAB is drawn over the list
		{300, 2250, "button:Contacts"},                     // a bottom navigation item
		{500, 150, "textbox:Search contacts"},
		{100, 440, "text:"}, // nothing clickable: the deepest element
		{1200, 100, "-"},    // outside the window: another window's
	}
	for _, tc := range tests {
		if got := name(hit(tr, h, tc.x, tc.y)); got != tc.want {
			t.Errorf("hit(%d, %d) = %s, want %s", tc.x, tc.y, got, tc.want)
		}
	}
	if got := name(scrollableAt(tr, h, 500, 750)); got != "list:list" {
		t.Errorf("scrollable at a row: %s", got)
	}
	if got := scrollableAt(tr, h, 500, 150); got != -1 {
		t.Errorf("scrollable at the search bar: %s", name(got))
	}
}
