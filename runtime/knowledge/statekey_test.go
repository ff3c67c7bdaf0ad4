package knowledge

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/driver/drivertest"
)

// contacts is a screen of a contacts app: a search field, a menu button,
// a list of contacts (each a list item with a link) and a Help link.
func contacts(url string, names ...string) *driver.Tree {
	t := &driver.Tree{URL: url, Title: "Contacts", Elements: []*driver.Element{
		{Ref: "q", Role: "textbox", Name: "Search", Placeholder: "Search", Visible: true, Editable: true},
		{Ref: "menu", Role: "button", Name: "More options", Visible: true},
		{Ref: "help", Role: "link", Name: "Help", Visible: true},
		{Ref: "hidden", Role: "button", Name: "Debug", Visible: false},
		{Ref: "l", Role: "list", Visible: true},
	}}
	for i, n := range names {
		t.Elements = append(t.Elements,
			&driver.Element{Ref: fmt.Sprintf("l-%d", i), Role: "listitem", Name: n, Visible: true, List: &driver.ListInfo{Container: "l", Index: i, Size: len(names)}},
			&driver.Element{Ref: fmt.Sprintf("l-%d-a", i), Role: "link", Name: n, Visible: true})
	}
	return drivertest.Index(t)
}

// withMenu is tree with a menu of items open.
func withMenu(t *driver.Tree, items ...string) *driver.Tree {
	t.Elements = append(t.Elements, &driver.Element{Ref: "m", Role: "menu", Visible: true, Parent: -1})
	for i, it := range items {
		t.Elements = append(t.Elements, &driver.Element{Ref: fmt.Sprint("m-", i), Role: "menuitem", Name: it, Visible: true,
			Parent: len(t.Elements) - 1 - i, List: &driver.ListInfo{Container: "m", Index: i, Size: len(items)}})
	}
	return t
}

func TestStateKeySameScreen(t *testing.T) {
	const u = "http://127.0.0.1:8088/contacts"
	base := StateKey(contacts(u, "Ann", "Bob", "Cy"))
	shuffled := contacts(u, "Ann", "Bob", "Cy")
	shuffled.Elements[0], shuffled.Elements[2] = shuffled.Elements[2], shuffled.Elements[0]
	tests := []struct {
		name string
		tree *driver.Tree
	}{
		{"a fragment", contacts(u+"#top", "Ann", "Bob", "Cy")},
		{"a trailing slash", contacts("http://127.0.0.1:8088/contacts/", "Ann", "Bob", "Cy")},
		{"other contacts, as many", contacts(u, "Dee", "Eve", "Fay", "Gus", "Hal")},
		{"element order", shuffled},
		{"a hidden element shows no more", func() *driver.Tree { t := contacts(u, "Ann", "Bob", "Cy"); t.Elements[3].Name = "Other"; return t }()},
	}
	for _, tc := range tests {
		if got := StateKey(tc.tree); got != base {
			t.Errorf("%s: %s, want %s", tc.name, got, base)
		}
	}
	q1 := StateKey(contacts(u+"?sort=name&page=2", "Ann"))
	q2 := StateKey(contacts(u+"?page=7&sort=date#top", "Ann"))
	if q1 != q2 || !strings.Contains(q1, "/contacts?page&sort#") {
		t.Errorf("query values differ: %s and %s", q1, q2)
	}
	if a, b := StateKey(contacts(u+"/123", "Ann")), StateKey(contacts(u+"/0a1b2c3d-4e5f-6789-abcd-ef0123456789", "Ann")); a != b || !strings.Contains(a, "/contacts/*#") {
		t.Errorf("ids in the path: %s and %s", a, b)
	}
	// The key is a stored name: it must not change from one version to the
	// next, or everything learned is lost.
	if want := "http://127.0.0.1:8088/contacts#"; !strings.HasPrefix(base, want) || len(base) != len(want)+12 {
		t.Errorf("key %q, want %q and 12 hex digits", base, want)
	}
	if base != "http://127.0.0.1:8088/contacts#c871acf3c770" {
		t.Errorf("the key of a fixed screen changed: %s", base)
	}
}

func TestStateKeyOtherScreen(t *testing.T) {
	const u = "http://127.0.0.1:8088/contacts"
	base := StateKey(contacts(u, "Ann", "Bob", "Cy"))
	fileMenu := StateKey(withMenu(contacts(u, "Ann", "Bob", "Cy"), "Import", "Export"))
	tests := []struct {
		name string
		key  string
	}{
		{"a menu open", fileMenu},
		{"another menu open", StateKey(withMenu(contacts(u, "Ann", "Bob", "Cy"), "Settings", "About"))},
		{"another path", StateKey(contacts("http://127.0.0.1:8088/groups", "Ann", "Bob", "Cy"))},
		{"another query name", StateKey(contacts(u+"?q=x", "Ann", "Bob", "Cy"))},
		{"an empty list", StateKey(contacts(u))},
		{"one contact", StateKey(contacts(u, "Ann"))},
		{"another app", StateKey(contacts("android-app://com.example.contacts", "Ann", "Bob", "Cy"))},
	}
	seen := map[string]string{base: "the screen"}
	for _, tc := range tests {
		if other, ok := seen[tc.key]; ok {
			t.Errorf("%s: same key %s as %s", tc.name, tc.key, other)
		}
		seen[tc.key] = tc.name
	}
	if StateKey(nil) != "" {
		t.Error("nil tree")
	}
}

// TestStateKeyThroughDriver types into a field and opens a menu on the
// in-memory driver, as exploration does, and keys what it observes.
func TestStateKeyThroughDriver(t *testing.T) {
	ctx := context.Background()
	f := drivertest.New(contacts("http://127.0.0.1:8088/contacts", "Ann", "Bob"))
	f.OnClick["menu"] = func(f *drivertest.Fake, _ *driver.Element) {
		f.SetTree(withMenu(contacts("http://127.0.0.1:8088/contacts", "Ann", "Bob"), "Import", "Export"))
	}
	key := func() string {
		tree, err := f.Observe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return StateKey(tree)
	}
	before := key()
	tree, _ := f.Observe(ctx)
	if _, err := f.Do(ctx, driver.Action{Op: action.Type, Target: tree.ByRef("q"), Text: "Ann"}); err != nil {
		t.Fatal(err)
	}
	if typed := key(); typed != before {
		t.Errorf("typing a value changed the key: %s → %s", before, typed)
	}
	if _, err := f.Do(ctx, driver.Action{Op: action.Click, Target: tree.ByRef("menu")}); err != nil {
		t.Fatal(err)
	}
	if opened := key(); opened == before {
		t.Errorf("opening the menu kept the key %s", opened)
	}
}

func TestAppOf(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8088/contacts?q=1": "http://127.0.0.1:8088",
		"android-app://com.example.contacts": "com.example.contacts",
		"":                                   "",
	} {
		if got := AppOf(&driver.Tree{URL: in}); got != want {
			t.Errorf("AppOf(%q) = %q, want %q", in, got, want)
		}
	}
}
