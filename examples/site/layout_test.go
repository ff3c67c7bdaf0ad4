package site

import (
	"cmp"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
)

// TestLayouts checks what each layout shows on the notes page, the one
// page they differ on: the original layout has Save on the page, the
// moved one only a "More" button whose menu is empty until the script
// fills it from the template. Every other page is the same in both.
func TestLayouts(t *testing.T) {
	tests := []struct {
		layout      string
		wantButtons []string // buttons on the page, outside templates
		wantMenu    bool
	}{
		{"", []string{"Save"}, false},
		{LayoutOriginal, []string{"Save"}, false},
		{LayoutMoved, []string{"More"}, true},
	}
	for _, tc := range tests {
		t.Run("layout="+tc.layout, func(t *testing.T) {
			s, err := NewLayout(tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			if want := cmp.Or(tc.layout, LayoutOriginal); s.Layout() != want {
				t.Errorf("Layout() = %q, want %q", s.Layout(), want)
			}
			srv := httptest.NewServer(s.Handler())
			defer srv.Close()
			doc := page(t, srv, "/notes", 200)
			var shown []string
			for _, b := range doc.Tags("button") {
				if !inTemplate(b) {
					shown = append(shown, b.Text())
				}
			}
			wantEqual(t, "buttons", shown, tc.wantButtons)
			more := doc.ByID("more-button")
			if (more != nil) != tc.wantMenu {
				t.Fatalf("more-button present = %v, want %v", more != nil, tc.wantMenu)
			}
			if tc.wantMenu {
				wantEqual(t, "aria-expanded", more.Attr("aria-expanded"), "false")
				wantEqual(t, "aria-controls", more.Attr("aria-controls"), "more-menu")
				wantEqual(t, "closed menu", len(doc.ByID("more-menu").Children), 0)
				items := doc.ByID("more-items")
				if items == nil || items.Tag != "template" || !slices.Contains(buttons(items), "Save") {
					t.Errorf("the menu's template holds no Save: %+v", items)
				}
			}
			// Saving works the same: the API is shared.
			_, body := get(t, srv, "/api/state")
			if !strings.Contains(body, `"notes"`) {
				t.Errorf("/api/state: %s", body)
			}
			for _, p := range []string{"/", "/wiki", "/reading-list", "/form", "/files", "/mail", "/sheet"} {
				page(t, srv, p, 200)
			}
		})
	}
}

// TestLayoutsAgreeElsewhere checks that the layouts differ on /notes only.
func TestLayoutsAgreeElsewhere(t *testing.T) {
	orig, _ := NewLayout(LayoutOriginal)
	moved, _ := NewLayout(LayoutMoved)
	a, b := httptest.NewServer(orig.Handler()), httptest.NewServer(moved.Handler())
	defer a.Close()
	defer b.Close()
	for _, p := range []string{"/", "/wiki", "/wiki?q=mountain", "/reading-list", "/form", "/files", "/mail", "/sheet", "/static/site.js"} {
		_, x := get(t, a, p)
		_, y := get(t, b, p)
		if x != y {
			t.Errorf("%s differs between the layouts", p)
		}
	}
	_, x := get(t, a, "/notes")
	_, y := get(t, b, "/notes")
	if x == y {
		t.Error("/notes is the same in both layouts")
	}
}

func TestUnknownLayout(t *testing.T) {
	_, err := NewLayout("sideways")
	if err == nil || !strings.Contains(err.Error(), `"sideways"`) || !strings.Contains(err.Error(), "original, moved") {
		t.Errorf("err = %v, want one naming the layout and the known ones", err)
	}
}

func inTemplate(n *node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.Tag == "template" {
			return true
		}
	}
	return false
}
