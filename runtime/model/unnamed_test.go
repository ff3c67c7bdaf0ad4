package model

import (
	"context"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestNoNamelessCandidates: an element with no text, name or label (an
// icon known only by its id or link target, an empty wrapper) is never
// offered for a choice; one that shows something is.
func TestNoNamelessCandidates(t *testing.T) {
	for _, tc := range []struct {
		name    string
		el      driver.Element
		offered bool
	}{
		{"icon link with only an href", driver.Element{Role: "link", Href: "/more", ID: "more-icon"}, false},
		{"icon with only an id", driver.Element{Role: "generic", ID: "caret"}, false},
		{"button with only classes", driver.Element{Role: "button", Class: "icon icon-close"}, false},
		{"empty field with no label", driver.Element{Role: "textbox", Editable: true, ID: "f1"}, false},
		{"link with a name", driver.Element{Role: "link", Name: "More results", Href: "/more"}, true},
		{"field with a label", driver.Element{Role: "textbox", Label: "City", Editable: true}, true},
		{"field with a placeholder", driver.Element{Role: "textbox", Placeholder: "Search", Editable: true}, true},
		{"field with a value", driver.Element{Role: "textbox", Value: "Paris", Editable: true}, true},
		{"paragraph with text", driver.Element{Role: "text", Text: "Tallest mountain"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			el := tc.el
			el.Ref, el.Visible, el.Parent = "x1", true, -1
			named := &driver.Element{Ref: "x2", Role: "button", Name: "Anchor", Visible: true, Parent: -1}
			f := script("1")
			r := NewLLM(f, Options{})
			if _, err := r.Answer(context.Background(), elementReq("Kilimanjaro", []*driver.Element{named, &el})); err != nil {
				t.Fatal(err)
			}
			user := f.user(0)
			n := strings.Count(user, "\n[")
			if got := n == 2; got != tc.offered {
				t.Errorf("offered %v, want %v; prompt:\n%s", got, tc.offered, user)
			}
		})
	}
}
