package match

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

func btn(name, path string) Candidate {
	return Candidate{Attrs: trace.Attributes{Role: "button", Name: name, Text: name, Path: path, Visible: true, Enabled: true}, Position: -1}
}

// Ties the screen settles, and those it leaves ambiguous: a tie that is a
// real choice must stay an error.
func TestSettleTies(t *testing.T) {
	inItem := btn("Delete", "ul/li[1]/button")
	inItem.Position = 0
	inItem2 := btn("Delete", "ul/li[2]/button")
	inItem2.Position = 1
	withID := btn("Save", "div/button[2]")
	withID.Attrs.ID = "save-draft"
	hidden := btn("OK", "div/button[2]")
	hidden.Attrs.Visible = false
	wrapper := Candidate{Attrs: trace.Attributes{Role: "generic", Text: "Search", Path: "div/div[2]", Visible: true}, Position: -1}
	inner := Candidate{Attrs: trace.Attributes{Role: "button", Name: "Search", Text: "Search", Path: "div/div[2]/button", Visible: true}, Position: -1}
	cases := []struct {
		name   string
		desc   Description
		cands  []Candidate
		winner int // -1: ambiguous
	}{
		{"the case written wins", Description{Role: "button", Attrs: map[string]string{"name": "Next"}, Index: -1},
			[]Candidate{btn("next", "div/button[1]"), btn("Next", "div/button[2]")}, 1},
		{"no case written exactly stays ambiguous", Description{Role: "button", Attrs: map[string]string{"name": "NEXT"}, Index: -1},
			[]Candidate{btn("next", "div/button[1]"), btn("Next", "div/button[2]")}, -1},
		{"twins: the first", Description{Role: "button", Attrs: map[string]string{"name": "取消"}, Index: -1},
			[]Candidate{btn("取消", "div/button[1]"), btn("取消", "div/button[2]")}, 0},
		{"twins after the case", Description{Role: "button", Attrs: map[string]string{"name": "Ok"}, Index: -1},
			[]Candidate{btn("OK", "div/button[1]"), btn("Ok", "div/button[2]"), btn("Ok", "div/button[3]")}, 1},
		{"in list items: not twins", Description{Role: "button", Attrs: map[string]string{"name": "Delete"}, Index: -1},
			[]Candidate{inItem, inItem2}, -1},
		{"items of one list, alike: twins", Description{Role: "button", Attrs: map[string]string{"name": "ヘルプ"}, Index: -1},
			[]Candidate{{Attrs: btn("ヘルプ", "div/button[1]").Attrs, Position: 0}, {Attrs: btn("ヘルプ", "div/button[2]").Attrs, Position: 1}}, 0},
		{"other parents: not twins", Description{Role: "button", Attrs: map[string]string{"name": "Delete"}, Index: -1},
			[]Candidate{btn("Delete", "div[1]/button"), btn("Delete", "div[2]/button")}, -1},
		{"another id: not twins", Description{Role: "button", Attrs: map[string]string{"name": "Save"}, Index: -1},
			[]Candidate{btn("Save", "div/button[1]"), withID}, -1},
		{"one hidden: not twins", Description{Role: "button", Attrs: map[string]string{"name": "OK"}, Index: -1},
			[]Candidate{btn("OK", "div/button[1]"), hidden}, 0}, // the hidden one scores lower: no tie at all
		{"nested: the innermost", Description{Attrs: map[string]string{"text": "Search"}, Index: -1},
			[]Candidate{wrapper, inner}, 1},
		{"nested, no control: the innermost", Description{Attrs: map[string]string{"text": "Search"}, Index: -1},
			[]Candidate{wrapper, {Attrs: trace.Attributes{Role: "text", Text: "Search", Path: "div/div[2]/div", Visible: true}, Position: -1}}, 1},
		{"a button and its label: the button", Description{Attrs: map[string]string{"text": "<"}, Index: -1},
			[]Candidate{{Attrs: trace.Attributes{Role: "text", Text: "<", Path: "w/button/span", Visible: true}, Position: -1},
				{Attrs: trace.Attributes{Role: "button", Text: "<", Path: "w/button", Visible: true}, Position: -1}}, 1},
		{"a control in a control: ambiguous", Description{Attrs: map[string]string{"text": "Go"}, Index: -1},
			[]Candidate{{Attrs: trace.Attributes{Role: "menuitem", Text: "Go", Path: "m/li", Visible: true}, Position: -1},
				{Attrs: trace.Attributes{Role: "button", Text: "Go", Path: "m/li/button", Visible: true}, Position: -1}}, -1},
		{"another word for submit", Description{Attrs: map[string]string{"text": "Submit"}, Index: -1},
			[]Candidate{wrapper, inner, {Attrs: trace.Attributes{Role: "text", Text: "Search for drama movies", Path: "q", Visible: true}, Position: -1}}, 1},
		{"submit written, two other words: ambiguous", Description{Role: "button", Attrs: map[string]string{"name": "Submit"}, Index: -1},
			[]Candidate{btn("Search", "a/button"), btn("Go!", "b/button")}, -1},
		{"submit written and shown wins over another word", Description{Role: "button", Attrs: map[string]string{"name": "Submit"}, Index: -1},
			[]Candidate{btn("Search", "a/button"), btn("Submit", "b/button")}, 1},
		{"side by side, not nested", Description{Attrs: map[string]string{"text": "Search"}, Index: -1},
			[]Candidate{wrapper, {Attrs: trace.Attributes{Role: "text", Text: "Search", Path: "div/div[3]", Visible: true}, Position: -1}}, -1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			same := func(int) (Around, bool) { return Around{Before: "Pick one"}, true }
			out := New(tc.desc).ChooseAround(len(tc.cands), func(i int, c *Candidate) { *c = tc.cands[i] }, same)
			if out.Winner != tc.winner {
				t.Fatalf("winner %d (ambiguous %v), want %d", out.Winner, out.Ambiguous, tc.winner)
			}
			if tc.winner < 0 && !out.Ambiguous {
				t.Fatalf("not reported ambiguous: %+v", out)
			}
		})
	}
}

// Twins that look alike are still not settled when a guess could do harm
// or be wrong, and the outcome says why; settled ties say by which rule.
func TestTwinsNotSettled(t *testing.T) {
	described := btn("Edit", "div/button[2]")
	described.Attrs.Description = "row 2"
	arounds := map[string][]Around{
		"same":      {{Before: "Invoices"}, {Before: "Invoices"}},
		"before":    {{Before: "Invoice 1"}, {Before: "Invoice 2"}},
		"rowHeader": {{Before: "x", RowHeader: "Alice"}, {Before: "x", RowHeader: "Bob"}},
	}
	cases := []struct {
		name   string
		text   string
		kb     []string
		cands  []Candidate
		around string // "" : the caller cannot tell; "nil": no around at all
		winner int
		why    string // in Outcome.Why when no winner
	}{
		{"alike, same surroundings: the first", "Edit", nil, []Candidate{btn("Edit", "div/button[1]"), btn("Edit", "div/button[2]")}, "same", 0, ""},
		{"delete: irreversible by its words", "Delete", nil, []Candidate{btn("Delete", "div/button[1]"), btn("Delete", "div/button[2]")}, "same", -1, "cannot be undone (its words say delete)"},
		{"plural words too", "Send messages", nil, []Candidate{btn("Send messages", "div/button[1]"), btn("Send messages", "div/button[2]")}, "same", -1, "its words say send"},
		{"a phrase", "Place order", nil, []Candidate{btn("Place order", "div/button[1]"), btn("Place order", "div/button[2]")}, "same", -1, "place order"},
		{"the knowledge base's word", "Archive", []string{"archive"}, []Candidate{btn("Archive", "div/button[1]"), btn("Archive", "div/button[2]")}, "same", -1, "its words say archive"},
		{"not the knowledge base's word", "Archive", []string{"settle"}, []Candidate{btn("Archive", "div/button[1]"), btn("Archive", "div/button[2]")}, "same", 0, ""},
		{"text before differs", "Edit", nil, []Candidate{btn("Edit", "div/button[1]"), btn("Edit", "div/button[2]")}, "before", -1, "the text just before each differs"},
		{"row headers differ", "Edit", nil, []Candidate{btn("Edit", "div/button[1]"), btn("Edit", "div/button[2]")}, "rowHeader", -1, "rows' headers differ"},
		{"descriptions differ", "Edit", nil, []Candidate{btn("Edit", "div/button[1]"), described}, "same", -1, "descriptions differ"},
		{"surroundings unknown", "Edit", nil, []Candidate{btn("Edit", "div/button[1]"), btn("Edit", "div/button[2]")}, "", -1, "could not be compared"},
		{"no around (Choose)", "Edit", nil, []Candidate{btn("Edit", "div/button[1]"), btn("Edit", "div/button[2]")}, "nil", -1, "could not be compared"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var around func(int) (Around, bool)
			switch tc.around {
			case "":
				around = func(int) (Around, bool) { return Around{}, false }
			case "nil":
			default:
				around = func(i int) (Around, bool) { return arounds[tc.around][i], true }
			}
			m := New(Description{Role: "button", Attrs: map[string]string{"name": tc.text}, Index: -1}).SetIrreversible(tc.kb)
			out := m.ChooseAround(len(tc.cands), func(i int, c *Candidate) { *c = tc.cands[i] }, around)
			if out.Winner != tc.winner {
				t.Fatalf("winner %d, want %d (why %q)", out.Winner, tc.winner, out.Why)
			}
			if tc.winner >= 0 {
				if out.Settled != "twins" || out.Tied != 2 {
					t.Fatalf("settled %q, %d tied; want twins, 2", out.Settled, out.Tied)
				}
				return
			}
			if !out.Ambiguous || !strings.Contains(out.Why, tc.why) {
				t.Fatalf("ambiguous %v, why %q; want one saying %q", out.Ambiguous, out.Why, tc.why)
			}
		})
	}
}

// The rule that settled a tie, and how many were tied, are reported.
func TestSettledRule(t *testing.T) {
	out := New(Description{Role: "button", Attrs: map[string]string{"name": "Next"}, Index: -1}).Choose(3,
		func(i int, c *Candidate) {
			*c = []Candidate{btn("next", "a/button[1]"), btn("Next", "a/button[2]"), btn("NEXT", "a/button[3]")}[i]
		})
	if out.Winner != 1 || out.Settled != "case" || out.Tied != 3 {
		t.Fatalf("got %+v, want winner 1 settled by case among 3", out)
	}
	out = New(Description{Role: "button", Attrs: map[string]string{"name": "Go"}, Index: -1}).Choose(2,
		func(i int, c *Candidate) { *c = []Candidate{btn("Go", "a/button"), btn("Stop", "b/button")}[i] })
	if out.Winner != 0 || out.Settled != "" || out.Tied != 0 {
		t.Fatalf("got %+v, want a clear winner, no tie", out)
	}
}

// Before reads the nearest text before an element, skipping its
// ancestors and the controls (a twin) in between.
func TestBefore(t *testing.T) {
	// 0 div "Invoice 1 Delete Invoice 2 Delete"
	//   1 span "Invoice 1"  2 button "Delete" (3 span "Delete")
	//   4 span "Invoice 2"  5 button "Delete"  6 button "Delete"
	nodes := []Node{
		{-1, "generic", "Invoice 1 Delete Invoice 2 Delete"},
		{0, "text", "Invoice 1"}, {0, "button", "Delete"}, {2, "text", "Delete"},
		{0, "text", " Invoice 2 "}, {0, "button", "Delete"}, {0, "button", "Delete"},
	}
	node := func(j int) Node { return nodes[j] }
	for _, tc := range []struct {
		i    int
		want string
	}{{2, "Invoice 1"}, {5, "Invoice 2"}, {6, "Invoice 2"}, {1, ""}, {0, ""}, {99, ""}} {
		if got := Before(tc.i, len(nodes), node); got != tc.want {
			t.Errorf("Before(%d) = %q, want %q", tc.i, got, tc.want)
		}
	}
	cycle := []Node{{1, "text", "a"}, {0, "button", "b"}}
	if got := Before(1, 2, func(j int) Node { return cycle[j] }); got != "" {
		t.Errorf("Before in a parent cycle = %q, want none and no hang", got)
	}
}

// Irreversible judges by whole words and phrases, the built-in list and
// the knowledge base's.
func TestIrreversible(t *testing.T) {
	for _, tc := range []struct {
		text  string
		extra []string
		want  string
	}{
		{"Delete", nil, "its words say delete"},
		{"Deletes", nil, "its words say delete"},
		{"Undelete", nil, ""},
		{"Place your order", nil, ""},
		{"place-order now", nil, "its words say place order"},
		{"Archive", []string{"archive"}, "its words say archive"},
		{"Archive", []string{"  "}, ""},
		{"Next", nil, ""},
		{"", nil, ""},
	} {
		if got := Irreversible(tc.text, tc.extra...); got != tc.want {
			t.Errorf("Irreversible(%q, %q) = %q, want %q", tc.text, tc.extra, got, tc.want)
		}
	}
}
