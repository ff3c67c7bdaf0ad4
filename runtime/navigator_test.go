package runtime

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestRelativesItemsOnly: a driver may mark every element inside a list
// item with the item's place (the browser driver does); items() must still
// be the items, not their contents.
func TestRelativesItemsOnly(t *testing.T) {
	li := func(i int) *driver.ListInfo { return &driver.ListInfo{Container: "ul", Index: i, Size: 2} }
	tree := &driver.Tree{Elements: []*driver.Element{
		{Ref: "ul", Role: "list", Parent: -1},
		{Ref: "li0", Role: "listitem", Parent: 0, List: li(0)},
		{Ref: "span0", Role: "text", Parent: 1, List: li(0)},
		{Ref: "button0", Role: "button", Parent: 1, List: li(0)},
		{Ref: "li1", Role: "listitem", Parent: 0, List: li(1)},
		{Ref: "span1", Role: "text", Parent: 4, List: li(1)},
		{Ref: "nested", Role: "list", Parent: 5, List: li(1)},
		{Ref: "inner0", Role: "listitem", Parent: 6, List: &driver.ListInfo{Container: "nested", Index: 0, Size: 1}},
	}}
	var got []string
	for _, e := range relatives(tree, "ul", false) {
		got = append(got, e.Ref)
	}
	if len(got) != 2 || got[0] != "li0" || got[1] != "li1" {
		t.Errorf("items = %v, want [li0 li1]", got)
	}
	if inner := relatives(tree, "nested", false); len(inner) != 1 || inner[0].Ref != "inner0" {
		t.Errorf("nested items = %v", inner)
	}
}
