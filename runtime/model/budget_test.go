package model

import (
	"fmt"
	"testing"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
)

// TestCutKeepsTheTarget: on big pages, the choice's right answer survives
// the cut to the candidate budget, at the default budget as at the old
// one (3,000): naming it by an input, by a word of the description, by its
// place in the result list, among many items that share a common word, and
// deep in a long list. Lowering the budget must not drop it.
func TestCutKeepsTheTarget(t *testing.T) {
	withSave := func() []*driver.Element {
		page := bigPage(5000, "Kilimanjaro")
		return append(page, &driver.Element{Ref: "save", Role: "button", Name: "Save changes", Visible: true, Parent: -1})
	}
	mounts := func() []*driver.Element { // 600 results "Mount …", one of them Kenya
		names := make([]string, 600)
		for i := range names {
			names[i] = fmt.Sprintf("Mount Peak %d", i)
		}
		names[411] = "Mount Kenya"
		return append(bigPage(3000, "Kilimanjaro"), results(names...)...)
	}
	longList := func() []*driver.Element { // a 400-item list; the target is item 350
		names := make([]string, 400)
		for i := range names {
			names[i] = fmt.Sprintf("Catalogue entry %d", i)
		}
		names[350] = "Puncak Jaya expedition report"
		return append(bigPage(2000, "Kilimanjaro"), results(names...)...)
	}
	sixty := func() []*driver.Element { // a 60-item result list
		names := make([]string, 60)
		for i := range names {
			names[i] = fmt.Sprintf("Result number %d", i)
		}
		return append(bigPage(2000, "Kilimanjaro"), results(names...)...)
	}
	tests := []struct {
		name, description string
		inputs            []string
		page              func() []*driver.Element
		target            string
	}{
		{"named by the input", "the search result most related to the keyword", []string{"Kilimanjaro"},
			func() []*driver.Element { return bigPage(5000, "Kilimanjaro") }, "Kilimanjaro National Park"},
		{"by its place in the results", "the third search result", nil,
			func() []*driver.Element { return bigPage(5000, "Kilimanjaro") }, "Denali"},
		{"by a word of the description", "the button that saves the changes", nil, withSave, "Save changes"},
		{"among items sharing a common word", "the result about the mountain", []string{"Mount Kenya"}, mounts, "Mount Kenya"},
		{"by its place in a long list", "the 45th search result", nil, sixty, "Result number 44"},
		{"the last of a long list", "the last search result", nil, sixty, "Result number 59"},
		{"deep in a long list", "the entry about the expedition", []string{"Puncak Jaya"}, longList, "Puncak Jaya expedition report"},
	}
	for _, budget := range []int{3000, DefaultCandidateBudget} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%d/%s", budget, tt.name), func(t *testing.T) {
				req := &dependency.Request{Sub: "match_element", Result: types.ElementT, Description: tt.description, Inputs: tt.inputs}
				req.Candidates = tt.page()
				d := NewLLM(nil, Options{}).plan(req)
				kept, total := scope(d, budget, DefaultMaxCandidates, nil)
				for _, c := range kept {
					if elementText(c.el) == tt.target {
						return
					}
				}
				t.Errorf("the target %q was cut: %d of %d candidates kept", tt.target, len(kept), total)
			})
		}
	}
}

func TestOrdinals(t *testing.T) {
	for desc, want := range map[string]string{
		"the third search result":          "[3]",
		"the 45th row of the table":        "[45]",
		"the 1st, 2nd and 23rd items":      "[1 2 23]",
		"the last message":                 "[-1]",
		"the second to last entry":         "[-2]",
		"the penultimate tab":              "[-2]",
		"the Second-to-last row":           "[-2]",
		"the search result about the term": "[]",
		"the lasting peace, 4th of July":   "[4]",
	} {
		if got := fmt.Sprint(ordinals(desc)); got != want {
			t.Errorf("ordinals(%q) = %s, want %s", desc, got, want)
		}
	}
}
