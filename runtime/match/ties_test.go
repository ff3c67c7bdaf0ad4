package match

import (
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
			out := New(tc.desc).Choose(len(tc.cands), func(i int, c *Candidate) { *c = tc.cands[i] })
			if out.Winner != tc.winner {
				t.Fatalf("winner %d (ambiguous %v), want %d", out.Winner, out.Ambiguous, tc.winner)
			}
			if tc.winner < 0 && !out.Ambiguous {
				t.Fatalf("not reported ambiguous: %+v", out)
			}
		})
	}
}
