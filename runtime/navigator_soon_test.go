package runtime

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestRelativesOrChildren: a list whose items carry list marks gives
// them; a list of one unmarked item (a suggestion list with one match)
// gives its child list items, never other elements or grandchildren.
func TestRelativesOrChildren(t *testing.T) {
	marked := &driver.Tree{Elements: []*driver.Element{
		{Ref: "l", Role: "list", Parent: -1},
		{Ref: "a", Role: "listitem", Parent: 0, List: &driver.ListInfo{Container: "l", Index: 0}},
		{Ref: "b", Role: "listitem", Parent: 0, List: &driver.ListInfo{Container: "l", Index: 1}},
	}}
	lone := &driver.Tree{Elements: []*driver.Element{
		{Ref: "l", Role: "list", Parent: -1},
		{Ref: "a", Role: "listitem", Parent: 0},
		{Ref: "x", Role: "text", Parent: 1},
		{Ref: "y", Role: "text", Parent: 0},
		{Ref: "m", Role: "list", Parent: -1},
		{Ref: "z", Role: "listitem", Parent: 4},
	}}
	tests := []struct {
		tree *driver.Tree
		ref  string
		rows bool
		want string
	}{
		{marked, "l", false, "a b"},
		{lone, "l", false, "a"},
		{lone, "m", false, "z"},
		{lone, "l", true, ""},
		{lone, "gone", false, ""},
	}
	for _, tc := range tests {
		var got []string
		for _, e := range relativesOrChildren(tc.tree, tc.ref, tc.rows) {
			got = append(got, e.Ref)
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("relativesOrChildren(%s, rows %v) = %q, want %q", tc.ref, tc.rows, g, tc.want)
		}
	}
}
