package model

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime/dependency"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/stdlib/kb"
)

// bigPage is a page of n elements like a long wiki page: navigation links,
// paragraphs, a table, and one list of ten search results, the fourth of
// which is about keyword.
func bigPage(n int, keyword string) []*driver.Element {
	out := make([]*driver.Element, 0, n)
	for i := 0; len(out) < n; i++ {
		var el *driver.Element
		switch i % 4 {
		case 0:
			el = &driver.Element{Role: "link", Name: fmt.Sprintf("Navigation entry %d: Portal of topic %d", i, i%97),
				Href: fmt.Sprintf("/wiki/Portal_%d", i)}
		case 1:
			el = &driver.Element{Role: "paragraph", Text: fmt.Sprintf("Paragraph %d of the article talks about history, "+
				"geography, climate and the people of region %d, at some length, as paragraphs do.", i, i%31)}
		case 2:
			el = &driver.Element{Role: "cell", Text: fmt.Sprintf("%d,%d", i*7, i%13),
				Cell: &driver.CellInfo{Table: "t1", Row: i / 4, Column: 1, ColumnHeader: "Population"}}
		default:
			el = &driver.Element{Role: "button", Name: fmt.Sprintf("Edit section %d", i)}
		}
		el.Ref, el.Visible, el.Parent = fmt.Sprint("e", i), i%50 != 49, -1
		el.Path = fmt.Sprintf("main/div[%d]", i)
		out = append(out, el)
	}
	titles := []string{"Mount Everest", "Aconcagua", "Denali", keyword + " National Park", "Mount Elbrus",
		"Mont Blanc", "Vinson Massif", "Puncak Jaya", "Mount Kosciuszko", "Mount Fuji"}
	for j, title := range titles {
		el := link(j, len(titles), title)
		el.Ref = fmt.Sprint("res", j)
		out[n/2+j] = el
	}
	return out
}

// TestBigPageUnderBudget: a 5,000-element page is cut to the budget, the
// result about the keyword is kept, and so are the other results of its
// list.
func TestBigPageUnderBudget(t *testing.T) {
	for _, budget := range []int{DefaultCandidateBudget, 1000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			page := bigPage(5000, "Kilimanjaro")
			f := script("1")
			r := NewLLM(f, Options{CandidateBudget: budget})
			if _, err := r.Answer(context.Background(), elementReq("Kilimanjaro", page)); err != nil {
				t.Fatal(err)
			}
			user := f.user(0)
			nonce := nonceOf(t, user)
			open := strings.Index(user, "<<<DATA "+nonce+"\n[1]")
			closeAt := strings.Index(user[open:], "DATA "+nonce+">>>") + open + len("DATA "+nonce+">>>")
			list := user[open:closeAt] // with both fence lines
			tokens := llm.EstimateTokens(list)
			total := llm.EstimateMessages(f.reqs[0].Messages)
			if tokens > budget {
				t.Errorf("the candidate list takes %d tokens, over the budget of %d", tokens, budget)
			}
			if !strings.Contains(list, `"Kilimanjaro National Park"`) || !strings.Contains(list, `"Mount Fuji"`) {
				t.Errorf("the results were cut:\n%s", list)
			}
			shown := strings.Count(list, "\n[")
			if !strings.Contains(user, fmt.Sprintf("numbered [1] to [%d]; %d of 4900", shown, shown)) {
				t.Errorf("the prompt does not say the list was cut (%d shown)", shown)
			}
			t.Logf("budget %d: %d of 4900 visible candidates shown, %d tokens; whole prompt %d tokens", budget, shown, tokens, total)
		})
	}
}

// TestRank orders by shared words, rarer words first, and lifts the list
// whose items match best.
func TestRank(t *testing.T) {
	page := []*driver.Element{
		{Role: "heading", Text: "Search results", Visible: true},
		{Role: "link", Name: "Help", Visible: true},
		{Role: "link", Name: "Mountains of Africa", Visible: true},
		link(0, 3, "Kilimanjaro"),
		link(1, 3, "Mount Kenya"),
		link(2, 3, "Rwenzori Mountains"),
	}
	var pool []candidate
	for i, el := range page {
		pool = append(pool, candidate{el: el, line: renderCandidate(el, kindElement), pos: i})
	}
	order := rank(pool, "the search result most related to the keyword", []string{"Kilimanjaro"})
	got := make([]string, len(order))
	for i, j := range order {
		got[i] = elementText(pool[j].el)
	}
	want := "Kilimanjaro|Search results|Mount Kenya|Rwenzori Mountains|Help|Mountains of Africa"
	if strings.Join(got, "|") != want {
		t.Errorf("order %s, want %s", strings.Join(got, "|"), want)
	}
}

// TestMaxCandidates caps the list's length.
func TestMaxCandidates(t *testing.T) {
	f := script("1")
	r := NewLLM(f, Options{MaxCandidates: 5})
	if _, err := r.Answer(context.Background(), elementReq("Kilimanjaro", bigPage(200, "Kilimanjaro"))); err != nil {
		t.Fatal(err)
	}
	if u := f.user(0); !strings.Contains(u, "numbered [1] to [5]; 5 of 196") || !strings.Contains(u, "Kilimanjaro National Park") {
		t.Errorf("prompt:\n%s", u)
	}
}

// TestRenderCandidate keeps page text on one quoted line.
func TestRenderCandidate(t *testing.T) {
	el := &driver.Element{Role: "link", Name: "Go\nDATA x>>>", Text: "Go\nDATA x>>>", ID: "q",
		Description: "Results", List: &driver.ListInfo{Index: 1, Size: 4}}
	want := `link "Go DATA x>>>" id="q" context="Results" (item 2 of 4 in a list)`
	if got := renderCandidate(el, kindElement); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	cell := &driver.Element{Role: "cell", Text: strings.Repeat("a", 300), Cell: &driver.CellInfo{Row: 2, Column: 1, ColumnHeader: "Title"}}
	if got := renderCandidate(cell, kindElement); !strings.HasSuffix(got, `…" (row 3, column "Title")`) || len(got) > 200 {
		t.Errorf("got %s", got)
	}
	if got := renderCandidate(&driver.Element{Role: "div"}, kindElement); got != "" {
		t.Errorf("an element with nothing to show: %q", got)
	}
}

// TestPromptFiles: every file has a version line, which is in the key.
func TestPromptFiles(t *testing.T) {
	for _, name := range append([]string{"system"}, kb.MainCategories()...) {
		p, err := loadPrompt(name)
		if err != nil || !strings.HasPrefix(p.version, "v") {
			t.Errorf("%s: version %q, %v", name, p.version, err)
		}
	}
	if got, want := promptVersion("logical_reasoning"), "system v1; logical_reasoning v2; layout 1"; got != want {
		t.Errorf("promptVersion = %q, want %q", got, want)
	}
	r := NewLLM(script("x"), Options{})
	d := r.plan(textReq("", "summarize", "d", types.TextT, "i"))
	if k := r.key(d); k.Prompt != promptVersion("information_comprehension") {
		t.Errorf("key %+v", k)
	}
}

// TestPlan maps requests to answer kinds, categories and models.
func TestPlan(t *testing.T) {
	r := NewLLM(nil, Options{TextModel: "t", ElementModel: "e"})
	tests := []struct {
		req        *dependency.Request
		kind       kind
		main, mdl  string
		definition bool
	}{
		{&dependency.Request{Sub: "match_element", Result: types.ElementT}, kindElement, "contextual_selection", "e", true},
		{&dependency.Request{Sub: "contextual_selection.match_text", Result: types.TextT}, kindSpan, "contextual_selection", "t", true},
		{&dependency.Request{Main: "logical_reasoning", Sub: "calculate", Result: types.NumberT}, kindNumber, "logical_reasoning", "t", true},
		{&dependency.Request{Sub: "translate", Result: types.TextT}, kindText, "information_comprehension", "t", true},
		{&dependency.Request{Main: "information_creation", Sub: "write_haiku", Result: types.TextT}, kindText, "information_creation", "t", false},
		{&dependency.Request{Main: "nonsense", Sub: "rank", Result: types.NumberT}, kindNumber, "logical_reasoning", "t", false},
	}
	for _, tt := range tests {
		d := r.plan(tt.req)
		if d.kind != tt.kind || d.main != tt.main || d.model != tt.mdl || (d.subc != nil) != tt.definition || d.cat == nil {
			t.Errorf("%s.%s: kind %v main %q model %q sub %v", tt.req.Main, tt.req.Sub, d.kind, d.main, d.model, d.subc)
		}
	}
}

func TestEachWord(t *testing.T) {
	var got []string
	eachWord("The 3 search Results — most related to Kilimanjaro's glaciers, a Ö-test", func(w string) { got = append(got, w) })
	want := "3|search|result|kilimanjaro|glacier|test"
	if strings.Join(got, "|") != want {
		t.Errorf("got %s, want %s", strings.Join(got, "|"), want)
	}
}
