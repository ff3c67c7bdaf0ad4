package android

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

func loadTree(t *testing.T, name string) *driver.Tree {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseDump(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return normalize(h, time.Time{})
}

// find returns the elements whose attributes hold every key=value pair.
func find(tr *driver.Tree, kv ...string) []*driver.Element {
	var out []*driver.Element
	for _, e := range tr.Elements {
		ok := true
		for i := 0; i+1 < len(kv); i += 2 {
			if attr(e, kv[i]) != kv[i+1] {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, e)
		}
	}
	return out
}

func attr(e *driver.Element, k string) string {
	switch k {
	case "role":
		return e.Role
	case "name":
		return e.Name
	case "text":
		return e.Text
	case "id":
		return e.ID
	case "value":
		return e.Value
	case "placeholder":
		return e.Placeholder
	case "label":
		return e.Label
	case "description":
		return e.Description
	case "path":
		return e.Path
	case "class":
		return e.Class
	}
	panic("unknown attribute " + k)
}

// want is one expectation on a fixture: exactly one element matches sel,
// and it has the attributes of has (and list position, flags).
type want struct {
	sel, has []string
	list     *[2]int // index, size
	checked  bool
	focus    bool
	enabled  *bool
}

func one(t *testing.T, tr *driver.Tree, w want) *driver.Element {
	t.Helper()
	got := find(tr, w.sel...)
	if len(got) != 1 {
		t.Fatalf("%v: %d elements match, want 1", w.sel, len(got))
	}
	e := got[0]
	for i := 0; i+1 < len(w.has); i += 2 {
		if v := attr(e, w.has[i]); v != w.has[i+1] {
			t.Errorf("%v: %s = %q, want %q", w.sel, w.has[i], v, w.has[i+1])
		}
	}
	if w.list != nil {
		if e.List == nil {
			t.Errorf("%v: not a list item, want item %d of %d", w.sel, w.list[0], w.list[1])
		} else if e.List.Index != w.list[0] || e.List.Size != w.list[1] {
			t.Errorf("%v: list item %d of %d, want %d of %d", w.sel, e.List.Index, e.List.Size, w.list[0], w.list[1])
		}
	}
	if e.Checked != w.checked || e.Focus != w.focus {
		t.Errorf("%v: checked=%v focus=%v, want %v %v", w.sel, e.Checked, e.Focus, w.checked, w.focus)
	}
	return e
}

func item(i, n int) *[2]int { return &[2]int{i, n} }

func TestFixtures(t *testing.T) {
	tests := []struct {
		file, title string
		elements    int // after pruning: counted by hand from the fixture
		want        []want
	}{
		{"settings_home.xml", "", 35, []want{
			{sel: []string{"role", "listitem", "name", "Battery"}, has: []string{"text", "Battery 100%", "description", ""}, list: item(4, 7)},
			{sel: []string{"role", "button", "name", "Search settings"}, has: []string{"id", "search_action_bar"}},
			{sel: []string{"role", "text", "text", "Mobile, Wi‑Fi, hotspot"}, has: []string{"id", "android:id/summary"}},
			{sel: []string{"role", "list"}, has: []string{"id", "recycler_view", "class", "androidx.recyclerview.widget.RecyclerView"}},
			{sel: []string{"role", "region"}, has: []string{"id", "homepage_container"}},
		}},
		{"settings_wifi.xml", "Wi‑Fi", 28, []want{
			{sel: []string{"role", "switch"}, has: []string{"name", "Use Wi‑Fi", "label", "Use Wi‑Fi", "id", "switch_widget"}, checked: true},
			{sel: []string{"role", "heading"}, has: []string{"text", "Wi‑Fi"}},
			{sel: []string{"role", "button", "name", "Navigate up"}, has: []string{"text", ""}},
			{sel: []string{"role", "listitem", "name", "Café Wi‑Fi"}, has: []string{"description", "", "text", "Café Wi‑Fi Saved"}, list: item(3, 6)},
			// A category header is an item of the RecyclerView like the rows.
			{sel: []string{"role", "listitem", "name", "Available networks"}, list: item(1, 6)},
			{sel: []string{"role", "image", "path", "FrameLayout/LinearLayout/RecyclerView/LinearLayout[2]/ImageView"}, has: []string{"name", "Wifi signal full."}},
		}},
		{"contacts_list.xml", "", 31, []want{
			{sel: []string{"role", "listitem", "name", "Grace Hopper"}, has: []string{"path", "FrameLayout/LinearLayout/RecyclerView/ViewGroup[5]"}, list: item(4, 6)},
			{sel: []string{"role", "button", "name", "Create contact"}, has: []string{"id", "floating_action_button"}},
			{sel: []string{"role", "textbox"}, has: []string{"value", "", "placeholder", "Search contacts", "name", "Search contacts"}},
			{sel: []string{"role", "button", "name", "Contacts"}, has: []string{"text", "Contacts"}},
		}},
		{"login_form.xml", "", 11, []want{
			// Before Android 13 an empty field's hint is its text: the
			// parser cannot tell, and says it is the value.
			{sel: []string{"role", "textbox", "id", "email"}, has: []string{"label", "Email", "name", "Email", "value", "you@example.com", "description", ""}, focus: true},
			{sel: []string{"role", "textbox", "id", "password"}, has: []string{"label", "Password", "value", "", "text", ""}},
			{sel: []string{"role", "checkbox"}, has: []string{"name", "Remember me"}},
			{sel: []string{"role", "button", "name", "SIGN IN"}, has: []string{"id", "sign_in"}},
			{sel: []string{"role", "button", "name", "Forgot password?"}, has: []string{"class", "android.widget.TextView"}},
		}},
		{"dialog.xml", "Delete contact?", 7, []want{
			{sel: []string{"role", "dialog"}, has: []string{"name", "Delete contact?", "id", "android:id/parentPanel"}},
			{sel: []string{"role", "button", "name", "Delete"}, has: []string{"id", "android:id/button1"}},
			{sel: []string{"role", "heading"}, has: []string{"id", "android:id/alertTitle"}},
		}},
		{"chat_non_ascii.xml", "トーク «Team»", 20, []want{
			{sel: []string{"role", "listitem", "name", "Zoë Müller"}, has: []string{"text", "Zoë Müller Café crème & croissant? 😀"}, list: item(1, 4)},
			{sel: []string{"role", "text", "text", "好的，明天见 👍"}}, // a newline in the text collapses to a space
			{sel: []string{"role", "listitem", "name", "محمد"}, list: item(2, 4)},
			{sel: []string{"role", "textbox"}, has: []string{"placeholder", "メッセージを入力", "value", ""}},
			{sel: []string{"role", "button", "name", "送信"}, has: []string{"id", "send"}},
		}},
		{"camera_naf.xml", "", 6, []want{
			// NAF nodes: clickable, nothing to read; kept, anchored by id.
			{sel: []string{"id", "shutter"}, has: []string{"role", "button", "name", ""}},
			{sel: []string{"role", "button", "name", "Flash off"}},
			{sel: []string{"role", "button", "id", "", "name", ""}, has: []string{"class", "android.widget.FrameLayout"}},
		}},
		{"webview.xml", "", 11, []want{
			{sel: []string{"role", "link", "name", "Tanzania"}},
			{sel: []string{"role", "textbox", "id", "searchInput"}, has: []string{"placeholder", "Search Wikipedia", "value", ""}},
			{sel: []string{"role", "textbox", "id", "url_bar"}, has: []string{"value", "en.m.wikipedia.org/wiki/Kilimanjaro"}},
			{sel: []string{"role", "region", "name", "Kilimanjaro - Wikipedia"}},
			{sel: []string{"role", "text", "text", "Kilimanjaro"}},
		}},
		{"tabs_bottom_nav.xml", "", 22, []want{
			{sel: []string{"role", "tab", "name", "Kids"}, list: item(2, 4)},
			{sel: []string{"role", "listitem", "name", "Apps"}, list: item(1, 4)},
			{sel: []string{"role", "list", "id", "bottom_navigation"}},
		}},
		{"language_listview.xml", "Language", 14, []want{
			{sel: []string{"role", "checkbox", "name", "Français (France)"}, has: []string{"id", "android:id/text1"}, checked: true},
			{sel: []string{"role", "listitem", "name", "Português (Brasil)"}, list: item(4, 5)},
		}},
		{"ringtone_choice.xml", "Phone ringtone", 12, []want{
			// A choice list's rows are CheckedTextViews right in the
			// ListView: checkboxes and list items at once.
			{sel: []string{"role", "checkbox", "name", "Polaris"}, has: []string{"id", "android:id/text1"}, list: item(4, 5), checked: true},
			{sel: []string{"role", "checkbox", "name", "None"}, list: item(0, 5)},
			{sel: []string{"role", "dialog"}, has: []string{"name", "Phone ringtone"}},
			{sel: []string{"role", "list"}, has: []string{"id", "android:id/select_dialog_listview"}},
			{sel: []string{"role", "button", "name", "OK"}, has: []string{"id", "android:id/button1"}},
		}},
		{"compose_todo.xml", "", 22, []want{
			// Compose: no resource-ids, a LazyColumn is a scrollable View;
			// its rows share one shape, so it is a list.
			{sel: []string{"role", "list"}, has: []string{"class", "android.view.View"}},
			{sel: []string{"role", "listitem", "name", "Book flights"}, has: []string{"description", "", "text", "Book flights Due Friday"}, list: item(2, 4)},
			{sel: []string{"role", "checkbox", "name", "Call Ana"}, has: []string{"label", "Call Ana"}, checked: true},
			{sel: []string{"role", "button", "name", "Add task"}},
			{sel: []string{"role", "textbox"}, has: []string{"value", "New task", "id", ""}},
		}},
		{"contact_edit.xml", "Create contact", 18, []want{
			{sel: []string{"role", "textbox", "id", "first_name"}, has: []string{"value", "Ada", "placeholder", "First name", "name", "First name"}},
			{sel: []string{"role", "textbox", "id", "last_name"}, has: []string{"value", "", "placeholder", "Last name"}},
			{sel: []string{"role", "combobox"}, has: []string{"id", "phone_type", "text", "Mobile"}},
			{sel: []string{"role", "switch"}, has: []string{"name", "Add to favorites"}},
			{sel: []string{"role", "slider"}, has: []string{"name", "Ringtone volume"}},
			{sel: []string{"role", "radio", "name", "Phone"}, checked: true},
			{sel: []string{"role", "button", "name", "Save"}, has: []string{"id", "save"}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			tr := loadTree(t, tc.file)
			if tc.title != "" && tr.Title != tc.title {
				t.Errorf("title %q, want %q", tr.Title, tc.title)
			}
			if len(tr.Elements) != tc.elements {
				t.Errorf("%d elements, want %d", len(tr.Elements), tc.elements)
			}
			for _, w := range tc.want {
				one(t, tr, w)
			}
			checkTree(t, tr)
		})
	}
}

// checkTree checks what every tree must satisfy: parents first, unique
// refs, list items pointing at a list element, roles the language knows,
// nothing without area.
func checkTree(t *testing.T, tr *driver.Tree) {
	t.Helper()
	roles := map[string]bool{"": true, "button": true, "link": true, "textbox": true, "checkbox": true,
		"radio": true, "combobox": true, "list": true, "listitem": true, "tab": true, "heading": true,
		"image": true, "text": true, "dialog": true, "region": true, "slider": true, "switch": true}
	refs := map[string]bool{}
	for i, e := range tr.Elements {
		if e.Parent >= i || (i > 0 && e.Parent < 0) {
			t.Errorf("%s: parent %d at index %d", e.Ref, e.Parent, i)
		}
		if refs[e.Ref] {
			t.Errorf("duplicate ref %s", e.Ref)
		}
		refs[e.Ref] = true
		if !roles[e.Role] {
			t.Errorf("%s: role %q is not one the language knows", e.Ref, e.Role)
		}
		if e.Bounds.W <= 0 || e.Bounds.H <= 0 {
			t.Errorf("%s: no area: %+v", e.Ref, e.Bounds)
		}
		if e.List != nil {
			if c := tr.ByRef(e.List.Container); c == nil {
				t.Errorf("%s: list container %s is not in the tree", e.Ref, e.List.Container)
			}
		}
	}
}

func TestParseDumpErrors(t *testing.T) {
	settings, err := os.ReadFile("testdata/settings_home.xml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(settings)
	tests := []struct {
		name, out string
		noTree    bool   // errors.Is(err, ErrNoHierarchy)
		msg       string // in the error
	}{
		{"idle", "ERROR: could not get idle state.\n", true, "could not get idle state"},
		{"empty", "", true, "nothing"},
		{"cut short", s[:len(s)/2], true, "cut short"},
		{"no nodes", `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="0"></hierarchy>`, true, "empty"},
		{"bad bounds", `<hierarchy rotation="0"><node class="a" bounds="[0,0][x,1]"/></hierarchy>`, false, `bad bounds "[0,0][x,1]"`},
		{"bad xml", `<hierarchy rotation="0"><node class="a" bounds="[0,0][1,1]"></hierarchy>`, false, "uiautomator dump"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseDump([]byte(tc.out))
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrNoHierarchy) != tc.noTree {
				t.Errorf("errors.Is(ErrNoHierarchy) = %v, want %v: %v", !tc.noTree, tc.noTree, err)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
		})
	}
}

func TestParseDumpTolerates(t *testing.T) {
	settings, err := os.ReadFile("testdata/settings_wifi.xml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(settings)
	tests := []struct{ name, out, text string }{
		// Dumped to a file: the notice comes first, then `cat` prints it.
		{"notice first", "UI hierchary dumped to: /data/local/tmp/cogflow-dump.xml\n" + strings.TrimSuffix(s, "UI hierchary dumped to: /dev/tty\n"), "HomeNet"},
		// A raw control character in an app's text (uiautomator writes it
		// as is), which XML forbids.
		{"control character", strings.Replace(s, "HomeNet", "Home\x01Net", 1), "HomeNet"},
		{"warnings before", "WARNING: linker: app_process has text relocations.\n" + s, "HomeNet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := parseDump([]byte(tc.out))
			if err != nil {
				t.Fatal(err)
			}
			tr := normalize(h, time.Time{})
			if len(find(tr, "text", tc.text)) != 1 {
				t.Errorf("no element with text %q", tc.text)
			}
		})
	}
}

func TestShortID(t *testing.T) {
	tests := []struct{ id, pkg, want string }{
		{"com.example.contacts:id/name", "com.example.contacts", "name"},
		{"com.example.contacts:id/name", "com.example.contacts.debug", "name"},
		{"android:id/title", "com.android.settings", "android:id/title"},
		{"com.google.android.material:id/snackbar_text", "com.example", "com.google.android.material:id/snackbar_text"},
		{"searchInput", "com.android.chrome", "searchInput"},
		{"", "x", ""},
	}
	for _, tc := range tests {
		if got := shortID(tc.id, tc.pkg); got != tc.want {
			t.Errorf("shortID(%q, %q) = %q, want %q", tc.id, tc.pkg, got, tc.want)
		}
	}
}

func TestScreenText(t *testing.T) {
	b, err := os.ReadFile("testdata/login_form.xml")
	if err != nil {
		t.Fatal(err)
	}
	h, err := parseDump(b)
	if err != nil {
		t.Fatal(err)
	}
	got := screenText(h)
	want := "Sign in to Shop\nEmail\nyou@example.com\nPassword\nRemember me\nSIGN IN\nForgot password?"
	if got != want {
		t.Errorf("screen text:\n%s\nwant:\n%s", got, want)
	}
}

func FuzzParseDump(f *testing.F) {
	for _, name := range []string{"dialog.xml", "camera_naf.xml", "error_idle.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`<hierarchy><node bounds="[0,0][10,10]"><node bounds="[1,1][0,0]" text="x"/></node></hierarchy>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		h, err := parseDump(b)
		if err != nil {
			return
		}
		tr := normalize(h, time.Time{})
		for i, e := range tr.Elements {
			if e.Parent >= i {
				t.Fatalf("parent after child at %d", i)
			}
		}
		_ = screenText(h)
	})
}

// Pruning by AutoTask's two criteria, on small hierarchies: what is kept
// and whom it hangs under.
func TestPrune(t *testing.T) {
	n := func(attrs, kids string) string {
		if kids == "" {
			return `<node ` + attrs + ` />`
		}
		return `<node ` + attrs + `>` + kids + `</node>`
	}
	const full = `class="android.widget.FrameLayout" bounds="[0,0][100,100]"`
	tests := []struct {
		name, xml string
		want      string // class:parent-class of each kept element, in order
	}{
		{"a wrapper around one node goes", n(full, n(`class="android.widget.LinearLayout" bounds="[0,0][100,100]"`,
			n(`class="android.widget.TextView" text="Hi" bounds="[0,0][50,50]"`, ""))),
			"FrameLayout: TextView:FrameLayout"},
		{"a group of two stays", n(full, n(`class="android.widget.LinearLayout" bounds="[0,0][100,100]"`,
			n(`class="android.widget.TextView" text="Title" bounds="[0,0][50,50]"`, "")+
				n(`class="android.widget.TextView" text="Summary" bounds="[0,50][50,100]"`, ""))),
			"FrameLayout: LinearLayout:FrameLayout TextView:LinearLayout TextView:LinearLayout"},
		{"nothing to act on or read goes", n(full, n(`class="android.widget.ImageView" bounds="[0,0][50,50]"`, "")+
			n(`class="android.view.View" bounds="[0,50][50,100]"`, "")),
			"FrameLayout:"},
		{"a clickable image stays", n(full, n(`class="android.widget.ImageView" clickable="true" bounds="[0,0][50,50]"`, "")),
			"FrameLayout: ImageView:FrameLayout"},
		// A container of zero height hides nothing: its children are seen
		// by their own bounds, and hang under its parent.
		{"no area, the inside still seen", n(full, n(`class="android.widget.LinearLayout" bounds="[0,0][100,0]"`,
			n(`class="android.widget.Button" text="Shown" clickable="true" bounds="[0,0][10,10]"`, ""))),
			"FrameLayout: Button:FrameLayout"},
		{"no area of its own", n(full, n(`class="android.widget.Button" text="Hidden" clickable="true" bounds="[10,10][10,20]"`, "")),
			"FrameLayout:"},
		{"off the screen", n(full, n(`class="android.widget.Button" text="Below" clickable="true" bounds="[0,120][100,150]"`, "")+
			n(`class="android.widget.Button" text="Half in" clickable="true" bounds="[0,90][100,120]"`, "")),
			"FrameLayout: Button:FrameLayout"},
		{"an empty list stays", n(full, n(`class="androidx.recyclerview.widget.RecyclerView" bounds="[0,0][100,100]"`, "")),
			"FrameLayout: RecyclerView:FrameLayout"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := parseDump([]byte(`<hierarchy rotation="0">` + tc.xml + `</hierarchy>`))
			if err != nil {
				t.Fatal(err)
			}
			tr := normalize(h, time.Time{})
			var got []string
			for _, e := range tr.Elements {
				p := ""
				if e.Parent >= 0 {
					p = simpleName(tr.Elements[e.Parent].Class)
				}
				got = append(got, simpleName(e.Class)+":"+p)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Errorf("kept %s, want %s", g, tc.want)
			}
		})
	}
}
