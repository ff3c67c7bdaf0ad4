package runtime_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
)

// A page of near misses: every rule of anchoring has a candidate that
// almost satisfies it.
func nearMisses() []*driver.Element {
	mk := func(ref, role, name string, set func(e *driver.Element)) *driver.Element {
		e := el(ref, role, name)
		if set != nil {
			set(e)
		}
		return e
	}
	return []*driver.Element{
		mk("go", "button", "Go", func(e *driver.Element) { e.ID = "go" }),
		mk("Go2", "button", "Go", func(e *driver.Element) { e.ID = "Go2" }),
		mk("submit-order", "button", "Submit order", nil),
		mk("undelete", "button", "Undelete", nil),
		mk("delete-all", "button", "Delete all items", nil),
		mk("delete-some", "button", "Delete some items", nil),
		mk("about", "link", "About us", func(e *driver.Element) { e.Href = "http://127.0.0.1/about" }),
		mk("about-btn", "button", "About", nil),
		mk("q", "textbox", "Search", func(e *driver.Element) {
			e.Text, e.ID, e.Label, e.Placeholder, e.Value, e.Editable = "", "q", "Search the wiki", "Keyword", "Kilimanjaro", true
		}),
		mk("notes", "textbox", "Notes", func(e *driver.Element) {
			e.Text, e.ID, e.Placeholder, e.Editable, e.Class = "", "notes", "Keyword here", true, "field wide"
		}),
		mk("hint", "text", "", func(e *driver.Element) {
			e.Text, e.Description = "Tip: type a keyword and press Enter", "help for the search box"
		}),
		mk("zh", "button", "立即登录", nil),
		mk("hidden-save", "button", "Save", func(e *driver.Element) { e.Visible = false }),
		mk("save", "button", "Save", nil),
		mk("only-hidden", "button", "Archive", func(e *driver.Element) { e.Visible = false }),
		mk("item0", "listitem", "Alpha", func(e *driver.Element) { e.List = &driver.ListInfo{Container: "l", Index: 0, Size: 2} }),
		mk("item1", "listitem", "Beta", func(e *driver.Element) { e.List = &driver.ListInfo{Container: "l", Index: 1, Size: 2} }),
		mk("cell", "cell", "42", func(e *driver.Element) { e.Cell = &driver.CellInfo{Table: "t", Row: 0, Column: 3} }),
		mk("row", "row", "", func(e *driver.Element) { e.Cell = &driver.CellInfo{Table: "t", Row: 4, Column: -1} }),
		mk("path", "image", "", func(e *driver.Element) { e.Path = "main/div[2]/img" }),
	}
}

func loc(role string, index int, attrs ...string) *runtime.Locator {
	l := &runtime.Locator{Role: role, Attrs: map[string]string{}, Index: index}
	for i := 0; i+1 < len(attrs); i += 2 {
		l.Attrs[attrs[i]] = attrs[i+1]
	}
	return l
}

// TestChooseRules anchors through runtime.Choose, the function the
// interpreter uses: each case names the Ref it must find, or "none" /
// "ambiguous" with words the error must contain.
func TestChooseRules(t *testing.T) {
	const (
		none      = "none"
		ambiguous = "ambiguous"
	)
	tests := []struct {
		rule string
		l    *runtime.Locator
		want string
		msg  []string // in the error, for none and ambiguous
	}{
		// id: exact and case-sensitive; a missing id never falls back to
		// the other attributes.
		{"id exact", loc("button", -1, "id", "go", "name", "Go"), "go", nil},
		{"id is hard", loc("button", -1, "id", "missing", "name", "Go"), none,
			[]string{`no element matches button(id: "missing", name: "Go")`, `button(name: "Go", id: "go") — id is "go"`, `id is "Go2"`}},
		{"id case", loc("button", -1, "id", "go2"), none, []string{`id is "Go2"`}},
		{"id alone", loc("element", -1, "id", "q"), "q", nil},
		// name: the same words, up to case and spacing; never a containment.
		{"name case and space", loc("button", -1, "name", "  submit   ORDER "), "submit-order", nil},
		{"name no containment", loc("button", -1, "name", "Order"), none, []string{`name is "Submit order"`}},
		// "Submit" and "Go" both say "send the form" (runtime/match/submit.go):
		// a containing match, and two Go buttons tie.
		{"submit words agree", loc("button", -1, "name", "Submit"), ambiguous, []string{`70%  button(name: "Go", id: "go")`}},
		{"name no reverse containment", loc("button", -1, "name", "Submit order now"), none, nil},
		{"name beside id", loc("textbox", -1, "name", "Search box", "id", "q"), none, []string{`name is "Search"`}},
		{"label", loc("textbox", -1, "label", "search the WIKI"), "q", nil},
		{"label partial", loc("textbox", -1, "label", "Search"), none, nil},
		{"placeholder", loc("textbox", -1, "placeholder", "keyword"), "q", nil},
		{"placeholder partial", loc("textbox", -1, "placeholder", "Key"), none, nil},
		{"value", loc("textbox", -1, "value", "kilimanjaro"), "q", nil},
		{"value other", loc("textbox", -1, "value", "Kenya"), none, []string{`value is "Kilimanjaro"`}},
		{"href", loc("link", -1, "href", "http://127.0.0.1/about"), "about", nil},
		{"href other", loc("link", -1, "href", "http://127.0.0.1/about/team"), none, nil},
		{"path", loc("image", -1, "path", "main/div[2]/img"), "path", nil},
		{"path other", loc("image", -1, "path", "main/div[3]/img"), none, []string{`path is "main/div[2]/img"`}},
		// text and description: the same words, or the words among others.
		{"text exact", loc("button", -1, "text", "undelete"), "undelete", nil},
		{"text words", loc("text", -1, "text", "type a keyword"), "hint", nil},
		{"text not inside a word", loc("button", -1, "text", "delete"), ambiguous,
			[]string{`"Delete all items"`, `"Delete some items"`}},
		{"text inside a word only", loc("button", -1, "text", "elete"), none, nil},
		{"text exact beats containment", loc("button", -1, "text", "Delete all items"), "delete-all", nil},
		{"text words unique", loc("button", -1, "text", "all items"), "delete-all", nil},
		{"text unspaced script", loc("button", -1, "text", "登录"), "zh", nil},
		{"description words", loc("element", -1, "description", "the search box"), "hint", nil},
		{"description other", loc("element", -1, "description", "help for the notes"), none, nil},
		// class: every written class among the element's.
		{"class tokens", loc("textbox", -1, "class", "wide field"), "notes", nil},
		{"class missing token", loc("textbox", -1, "class", "field narrow"), none, []string{`class is "field wide"`}},
		{"class prefix", loc("textbox", -1, "class", "wid"), none, nil},
		// role: a link is not a button, however alike their names.
		{"role", loc("link", -1, "name", "About"), none, []string{`it is a button, not a link`}},
		{"element any role", loc("element", -1, "name", "about"), "about-btn", nil},
		// index: the place among siblings, for list items, cells and rows.
		{"index item", loc("listitem", 1), "item1", nil},
		{"index missing", loc("listitem", 2), none, []string{"its index is 0", "its index is 1"}},
		{"index cell column", loc("cell", 3), "cell", nil},
		{"index row", loc("row", 4), "row", nil},
		{"index not placed", loc("button", 0, "name", "Go"), none, []string{"it has no index"}},
		// visibility ranks; it does not exclude.
		{"visible first", loc("button", -1, "name", "Save"), "save", nil},
		{"hidden only", loc("button", -1, "name", "Archive"), "only-hidden", nil},
		// ambiguity lists the tied candidates.
		{"ambiguous name", loc("button", -1, "name", "Go"), ambiguous,
			[]string{`button(name: "Go") is ambiguous`, `100%  button(name: "Go", id: "go")`, `100%  button(name: "Go", id: "Go2")`, "tells them apart"}},
		// a description that says nothing matches nothing.
		{"empty", loc("element", -1), none, []string{"no element matches element(): the description gives no attribute to look for"}},
		{"nothing in common", loc("slider", -1, "name", "Volume"), none, []string{"no element on the screen comes close"}},
		{"unknown attribute only", loc("element", -1, "colour", "red"), ambiguous, nil},
	}
	page := nearMisses()
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			got, err := runtime.Choose(tt.l, page)
			var ae *runtime.AnchorError
			switch {
			case tt.want == none || tt.want == ambiguous:
				if !errors.As(err, &ae) || ae.Ambiguous != (tt.want == ambiguous) {
					t.Fatalf("%s: got %v, %v; want %s", tt.l, got, err, tt.want)
				}
				for _, m := range tt.msg {
					if !strings.Contains(err.Error(), m) {
						t.Errorf("%s: error lacks %q:\n%s", tt.l, m, err)
					}
				}
			case err != nil:
				t.Fatalf("%s: %v", tt.l, err)
			case got.Ref != tt.want:
				t.Errorf("%s chose %s, want %s", tt.l, got.Ref, tt.want)
			}
		})
	}
}

// TestChooseNearMissesListed: a failed match lists at most five near
// misses, best first, each with the attribute it fails.
func TestChooseNearMissesListed(t *testing.T) {
	var page []*driver.Element
	for _, n := range []string{"A", "B", "C", "D", "E", "F", "G"} {
		page = append(page, el(n, "button", "Save "+n))
	}
	page = append(page, &driver.Element{Ref: "x", Role: "button", ID: "save", Visible: true, Parent: -1})
	_, err := runtime.Choose(loc("button", -1, "id", "save", "name", "Save"), page)
	var ae *runtime.AnchorError
	if !errors.As(err, &ae) || ae.Ambiguous {
		t.Fatalf("err = %v, want no match", err)
	}
	if len(ae.Candidates) != 5 {
		t.Errorf("%d candidates listed, want 5", len(ae.Candidates))
	}
	if c := ae.Candidates[0]; c.El.Ref != "x" || c.Why != "has no name" {
		t.Errorf("first near miss %s (%s), want x failing its name", c.El.Ref, c.Why)
	}
	for _, c := range ae.Candidates {
		if c.Why == "" {
			t.Errorf("near miss %s has no reason", c.El.Ref)
		}
	}
}

// BenchmarkChoose is anchoring's own share of a step: one description
// against a page's worth of candidates.
func BenchmarkChoose(b *testing.B) {
	page := nearMisses()
	for i := 0; i < 5; i++ {
		page = append(page, page...)
	}
	l := loc("textbox", -1, "name", "Search", "id", "q")
	page = append(page[:len(page)-1:len(page)-1], el("q2", "textbox", "Search"))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = runtime.Choose(l, page)
	}
}
