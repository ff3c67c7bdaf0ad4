package knowledge

import (
	"crypto/sha256"
	"encoding/hex"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/runtime/driver"
)

// interactive roles are the ones whose elements a person acts on; what is
// offered to act on is what tells one screen from another.
var interactive = map[string]bool{
	"button": true, "link": true, "textbox": true, "searchbox": true, "checkbox": true,
	"radio": true, "switch": true, "combobox": true, "listbox": true, "option": true,
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "tab": true,
	"slider": true, "spinbutton": true, "treeitem": true,
	// Not acted on, but a dialog or a menu being open is another state.
	"dialog": true, "alertdialog": true, "menu": true,
}

// choices are roles whose names are the app's own words even inside a
// list (a menu, a tab bar): they stay in the key. Other items of a list
// hold the user's data (contacts, files, rows) and are only counted.
var choices = map[string]bool{
	"menuitem": true, "menuitemcheckbox": true, "menuitemradio": true, "tab": true, "option": true, "radio": true,
}

// valued roles may be named by their current value (a spinner shows the
// chosen item): their label or placeholder names them instead.
var valued = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "slider": true, "spinbutton": true}

// maxListCount caps the count of a list's items in a key: an empty list,
// one item, two, and "3 or more" are different states; 7 and 8 contacts
// are the same screen.
const maxListCount = 3

// StateKey is a stable name for the screen t shows: the place (URL scheme,
// host and path, query names without their values, numeric or hex id path
// segments as "*", no trailing slash; an Android package) and a hash of the sorted roles and
// names of its visible interactive elements. Values typed or chosen are
// ignored, and a list's items count only as how many there are (capped),
// so the same screen gets the same key from one run to the next, while
// another screen, or the same one with a menu or a dialog open, gets
// another. The key reads "place#hash".
func StateKey(t *driver.Tree) string {
	if t == nil {
		return ""
	}
	lines := map[string]bool{}
	lists := map[string]string{} // list container → line
	for i, e := range t.Elements {
		if e == nil || !e.Visible || !(interactive[e.Role] || e.Editable) {
			continue
		}
		if !choices[e.Role] {
			if l := listOf(t, i); l != nil {
				n := min(l.Size, maxListCount)
				lists[l.Container] = "list " + e.Role + " ×" + strconv.Itoa(n)
				continue
			}
		}
		lines[e.Role+" "+stableName(e)] = true
	}
	for _, l := range lists {
		lines[l] = true
	}
	sorted := make([]string, 0, len(lines))
	for l := range lines {
		sorted = append(sorted, l)
	}
	slices.Sort(sorted)
	h := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	return place(t.URL) + "#" + hex.EncodeToString(h[:])[:12]
}

// stableName is what names e whatever value it holds.
func stableName(e *driver.Element) string {
	if !valued[e.Role] && !e.Editable {
		return e.Name
	}
	for _, n := range []string{e.Label, e.Placeholder, e.Name} {
		if n != "" && n != e.Value {
			return n
		}
	}
	return ""
}

// listOf returns the list that element i of t, or one of its ancestors,
// is an item of; nil when none.
func listOf(t *driver.Tree, i int) *driver.ListInfo {
	// The depth bound guards against a malformed tree whose parents loop.
	for depth := 0; i >= 0 && i < len(t.Elements) && depth < 64; depth++ {
		e := t.Elements[i]
		if e == nil {
			return nil
		}
		if e.List != nil {
			return e.List
		}
		i = e.Parent
	}
	return nil
}

// place is the part of a URL that names a screen rather than a value.
func place(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme == "" && u.Host == "") {
		return strings.SplitN(raw, "?", 2)[0]
	}
	segs := strings.Split(u.EscapedPath(), "/")
	for i, s := range segs {
		if isID(s) {
			segs[i] = "*"
		}
	}
	out := u.Scheme + "://" + u.Host + strings.TrimSuffix(strings.Join(segs, "/"), "/")
	if q := u.Query(); len(q) > 0 {
		names := make([]string, 0, len(q))
		for n := range q {
			names = append(names, n)
		}
		slices.Sort(names)
		out += "?" + strings.Join(names, "&")
	}
	return out
}

// isID reports whether a path segment looks like a record's id: all
// digits, or a long run of hex digits and dashes (a hash, a UUID).
func isID(s string) bool {
	if s == "" {
		return false
	}
	digits, hexes := true, len(s) >= 16
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
		case r >= 'a' && r <= 'f', r >= 'A' && r <= 'F', r == '-':
			digits = false
		default:
			return false
		}
	}
	return digits || hexes
}

// AppOf names the app a tree belongs to, as Transition.App and the other
// entries want it: a site's origin (scheme and host) or an Android
// package (the host of the driver's "android-app://" URL).
func AppOf(t *driver.Tree) string {
	if t == nil {
		return ""
	}
	u, err := url.Parse(t.URL)
	if err != nil || u.Host == "" {
		return t.URL
	}
	if u.Scheme == "android-app" {
		return u.Host
	}
	return u.Scheme + "://" + u.Host
}
