package uia

import (
	"errors"
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
)

// monster puts the five snapshots side by side in one window, as they
// sit in the Monster app: anchoring must then tell the button's "<" from
// its TextBlock's, one list item from its siblings, and the user
// control's TextBlock from the four other TextBlocks.
func monster(t *testing.T) []*driver.Element {
	t.Helper()
	return Normalize(monsterRoot(t))
}

// monsterRoot is the window holding the five snapshots.
func monsterRoot(t *testing.T) *Node {
	t.Helper()
	root := node(ctWindow, "Monster", "Window")
	root.Ref = "monster"
	root.Rect = driver.Rect{X: 0, Y: 0, W: 2400, H: 1200}
	for _, s := range snapshots {
		root.Children = append(root.Children, load(t, s))
	}
	return root
}

func loc(role string, index int, attrs ...string) *runtime.Locator {
	l := &runtime.Locator{Role: role, Attrs: map[string]string{}, Index: index}
	for i := 0; i+1 < len(attrs); i += 2 {
		l.Attrs[attrs[i]] = attrs[i+1]
	}
	return l
}

// TestAnchorSnapshots anchors recorded-attribute queries the way a
// running workflow does (runtime.Choose): each names the path of the
// element it must find, or "ambiguous" / "none" for the AnchorError it
// must give instead of a guess.
func TestAnchorSnapshots(t *testing.T) {
	const (
		ambiguous = "ambiguous"
		none      = "none"
	)
	tests := []struct {
		snapshot string
		l        *runtime.Locator
		want     string
	}{
		{"MonsterButton", loc("button", -1, "name", "<"), "Window/Button"},
		{"MonsterButton", loc("text", -1, "name", "<"), "Window/Button/TextBlock"},
		{"MonsterButton", loc("element", -1, "description", "<"), "Window/Button"},
		{"MonsterButton", loc("button", -1, "class", "Button", "path", "Window/Button"), "Window/Button"},
		// The button and its own TextBlock both read "<": the one control
		// of the two is meant (runtime/match/ties.go).
		{"MonsterButton", loc("element", -1, "text", "<"), "Window/Button"},
		{"MonsterButton", loc("link", -1, "name", "<"), none},

		{"MonsterEdit", loc("textbox", -1), "Window/TextBox"},
		{"MonsterEdit", loc("textbox", -1, "class", "TextBox"), "Window/TextBox"},
		{"MonsterEdit", loc("element", -1, "class", "TextBox"), "Window/TextBox"},
		{"MonsterEdit", loc("element", -1, "path", "Window/TextBox"), "Window/TextBox"},
		{"MonsterEdit", loc("textbox", -1, "name", "Search"), none},
		{"MonsterEdit", loc("element", -1, "id", "VerticalScrollBar"), none}, // pruned

		{"MonsterListView", loc("listitem", -1, "name", "Birds"), "Window/ListView/ListBoxItem[2]"},
		{"MonsterListView", loc("listitem", 2), "Window/ListView/ListBoxItem[3]"},
		{"MonsterListView", loc("listitem", -1, "text", "trees"), "Window/ListView/ListBoxItem[3]"},
		{"MonsterListView", loc("listitem", -1, "text", "Tree"), none}, // not a word of "Trees"
		{"MonsterListView", loc("text", -1, "name", "Spaniels"), "Window/ListView/ListBoxItem[1]/TextBlock"},
		{"MonsterListView", loc("list", -1, "class", "ListView"), "Window/ListView"},
		{"MonsterListView", loc("listitem", -1, "class", "ListBoxItem"), ambiguous},

		{"MonsterMenu", loc("menuitem", -1, "name", "Font"), "Window/Menu/MenuItem"},
		{"MonsterMenu", loc("menuitem", -1, "text", "Font"), "Window/Menu/MenuItem"},
		{"MonsterMenu", loc("element", -1, "name", "Font"), "Window/Menu/MenuItem"},
		{"MonsterMenu", loc("menu", -1, "class", "Menu"), "Window/Menu"},
		{"MonsterMenu", loc("text", -1, "name", "_Font"), "Window/Menu/MenuItem/TextBlock"},

		{"MonsterUserControl", loc("text", -1, "name", "$$$!"), "Window/TextBlock"},
		{"MonsterUserControl", loc("text", -1, "text", "$$$"), "Window/TextBlock"},
		{"MonsterUserControl", loc("text", -1, "name", "$$$!", "class", "TextBlock"), "Window/TextBlock"},
		{"MonsterUserControl", loc("element", -1, "path", "Window/TextBlock"), "Window/TextBlock"},
		{"MonsterUserControl", loc("element", -1, "class", "TextBlock"), ambiguous},
	}
	els := monster(t)
	per := map[string]int{}
	for _, tt := range tests {
		per[tt.snapshot]++
		got, err := runtime.Choose(tt.l, els)
		var ae *runtime.AnchorError
		switch {
		case tt.want == ambiguous || tt.want == none:
			if !errors.As(err, &ae) || ae.Ambiguous != (tt.want == ambiguous) {
				t.Errorf("%s: %s: got %v, %v; want %s", tt.snapshot, tt.l, got, err, tt.want)
			}
		case err != nil:
			t.Errorf("%s: %s: %v", tt.snapshot, tt.l, err)
		case got.Path != tt.want:
			t.Errorf("%s: %s chose %s, want %s", tt.snapshot, tt.l, got.Path, tt.want)
		}
	}
	for _, s := range snapshots {
		if per[s] < 5 {
			t.Errorf("%s has %d queries, want at least 5", s, per[s])
		}
	}
}

// TestAnchorSnapshotAlone anchors in each snapshot on its own, as a
// recording of that one control would: the element the recorded
// attributes name is found.
func TestAnchorSnapshotAlone(t *testing.T) {
	tests := []struct {
		snapshot string
		l        *runtime.Locator
		want     string
	}{
		{"MonsterButton", loc("button", -1, "name", "<"), "Button"},
		{"MonsterEdit", loc("textbox", -1, "class", "TextBox"), "TextBox"},
		{"MonsterListView", loc("listitem", -1, "name", "Trees"), "ListView/ListBoxItem[3]"},
		{"MonsterMenu", loc("menuitem", -1, "name", "Font"), "Menu/MenuItem"},
		{"MonsterUserControl", loc("text", -1, "name", "$$$!"), "TextBlock"},
	}
	for _, tt := range tests {
		got, err := runtime.Choose(tt.l, Normalize(load(t, tt.snapshot)))
		if err != nil || got.Path != tt.want {
			t.Errorf("%s: %s: %v %v, want %s", tt.snapshot, tt.l, got, err, tt.want)
		}
	}
}
