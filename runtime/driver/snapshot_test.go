package driver

import (
	"reflect"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// resultsPage is the demo wiki's search results for "Denali", as the
// browser driver observes it (abridged).
func resultsPage() *Tree {
	return &Tree{URL: "http://127.0.0.1:8088/wiki?q=Denali", Title: "Search results – Wiki", Elements: []*Element{
		{Ref: "r1", Role: "main", Path: "main", Visible: true, Parent: -1},
		{Ref: "r2", Role: "list", Name: "Search results", Path: "main/ul", Visible: true, Parent: 0},
		{Ref: "r3", Role: "listitem", Text: "Denali Denali is the highest mountain in North America.", Path: "main/ul/li[1]", Parent: 1,
			List: &ListInfo{Container: "r2", Index: 0, Size: 2}},
		{Ref: "r4", Role: "link", Name: "Denali", Text: "Denali", Href: "/wiki/Denali", Path: "main/ul/li[1]/a", Parent: 2,
			Bounds: Rect{X: 24, Y: 195, W: 52, H: 19}, Visible: true, Enabled: true},
		{Ref: "r5", Role: "text", Text: "Denali is the highest mountain in North America.", Path: "main/ul/li[1]/p", Parent: 2},
		{Ref: "r6", Role: "listitem", Text: "Mount Everest Everest is the highest of the Seven Summits.", Path: "main/ul/li[2]", Parent: 1,
			List: &ListInfo{Container: "r2", Index: 1, Size: 2}},
		{Ref: "r7", Role: "table", Name: "Reading list", Path: "main/table", Parent: 0},
		{Ref: "r8", Role: "cell", Text: "MapReduce", Path: "main/table/tbody/tr/td", Parent: 6, Editable: true,
			Cell: &CellInfo{Table: "r7", Row: 0, Column: 0, ColumnHeader: "Title"}},
	}}
}

func TestTargetOf(t *testing.T) {
	tree := resultsPage()
	got := TargetOf(tree, 3)
	want := &trace.Target{Ref: "r4",
		Attributes: trace.Attributes{Role: "link", Name: "Denali", Text: "Denali", Href: "/wiki/Denali", Path: "main/ul/li[1]/a",
			Bounds: trace.Rect{X: 24, Y: 195, W: 52, H: 19}, Visible: true, Enabled: true},
		Context: &trace.Context{
			ParentText:   "Denali Denali is the highest mountain in North America.",
			SiblingTexts: []string{"Denali is the highest mountain in North America."},
			List: &trace.ListContext{Container: "main/ul", Index: 0, Size: 2, ItemTexts: []string{
				"Denali Denali is the highest mountain in North America.",
				"Mount Everest Everest is the highest of the Seven Summits."}},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("TargetOf(link):\ngot  %+v %+v\nwant %+v %+v", got, got.Context, want, want.Context)
	}

	cell := TargetOf(tree, 7)
	if h := cell.Context.Headers; h == nil || *h != (trace.Headers{Table: "main/table", Column: "Title", RowIndex: 0, ColumnIndex: 0}) {
		t.Errorf("TargetOf(cell) headers = %+v", h)
	}
	if root := TargetOf(tree, 0); root.Context != nil {
		t.Errorf("TargetOf(root) context = %+v", root.Context)
	}
}

func TestSnapshotOf(t *testing.T) {
	tree := resultsPage()
	s := SnapshotOf(tree)
	back := TreeOf(s)
	if !reflect.DeepEqual(back, tree) {
		t.Errorf("TreeOf(SnapshotOf(tree)) differs from the tree")
	}
	tr := trace.New(trace.DriverBrowser)
	tr.Snapshots = map[string]trace.Snapshot{"s1": s}
	tr.Events = []trace.Event{{ID: "e1", Kind: trace.KindClick, Snapshot: "s1", Target: TargetOf(tree, 3)}}
	data, err := trace.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	again, err := trace.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, tr) {
		t.Error("a trace built from an observation does not round-trip")
	}
	if e := again.Snapshots["s1"].ByRef("r4"); e == nil || e.Name != "Denali" {
		t.Errorf("ByRef(r4) = %+v", e)
	}
	if again.Event("e1") == nil || again.Event("e9") != nil {
		t.Error("Trace.Event")
	}
}

// TestListContextCountsItemsOnce: an item and the link inside it share a
// list position in real walker trees; the item texts count each item once.
func TestListContextCountsItemsOnce(t *testing.T) {
	tree := &Tree{Elements: []*Element{
		{Ref: "l", Role: "list", Parent: -1},
		{Ref: "i0", Role: "listitem", Text: "Kilimanjaro", Parent: 0, List: &ListInfo{Container: "l", Index: 0, Size: 2}},
		{Ref: "a0", Role: "link", Text: "Kilimanjaro", Parent: 1, List: &ListInfo{Container: "l", Index: 0, Size: 2}},
		{Ref: "i1", Role: "listitem", Text: "Mount Kenya", Parent: 0, List: &ListInfo{Container: "l", Index: 1, Size: 2}},
		{Ref: "a1", Role: "link", Text: "Mount Kenya", Parent: 3, List: &ListInfo{Container: "l", Index: 1, Size: 2}},
	}}
	target := TargetOf(tree, 2)
	if target.Context == nil || target.Context.List == nil {
		t.Fatalf("no list context: %+v", target)
	}
	if got := target.Context.List.ItemTexts; len(got) != 2 || got[0] != "Kilimanjaro" || got[1] != "Mount Kenya" {
		t.Errorf("item texts = %q", got)
	}
}
