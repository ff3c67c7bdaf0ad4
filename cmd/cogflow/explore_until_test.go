package main

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/driver"
)

// TestExploreUntilIgnoresFields: --until is reached by what the screen
// shows, never by a value typed into a field.
func TestExploreUntilIgnoresFields(t *testing.T) {
	for _, tc := range []struct {
		name string
		el   driver.Element
		want bool
	}{
		{"text", driver.Element{Role: "text", Text: "Bob imported", Visible: true}, true},
		{"name", driver.Element{Role: "button", Name: "Bob imported", Visible: true}, true},
		{"hidden", driver.Element{Role: "text", Text: "Bob imported", Visible: false}, false},
		{"typed", driver.Element{Role: "textbox", Text: "Bob imported", Value: "Bob imported", Editable: true, Visible: true}, false},
	} {
		got, err := screenShows("Bob imported")(&driver.Tree{Elements: []*driver.Element{nil, &tc.el}})
		if err != nil || got != tc.want {
			t.Errorf("%s: reached %v (%v), want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestExploreConfirmReadsEachAnswer: answers piped ahead are read one per
// question, none lost to the first question's buffer.
func TestExploreConfirmReadsEachAnswer(t *testing.T) {
	c := &cli{stdin: strings.NewReader("y\nno\nyes\n"), stderr: io.Discard}
	confirm := c.confirmIrreversible()
	el := &driver.Element{Role: "button", Name: "Send"}
	var got []bool
	for range 4 {
		got = append(got, confirm(context.Background(), el, "its words say send"))
	}
	if want := []bool{true, false, true, false}; !slices.Equal(got, want) {
		t.Errorf("answers %v, want %v", got, want)
	}
}
