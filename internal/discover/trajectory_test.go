package discover

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// What the model reads of a screen and an action names elements; it never
// holds what a field holds or what was typed.
func TestTrajectoryHoldsNoValue(t *testing.T) {
	pin := &driver.Element{Role: "textbox", Name: "PIN", ID: "pin", Value: "4711", Text: "4711", Editable: true, Visible: true, Secret: true}
	cases := []struct {
		name, got, want string
	}{
		{"field", elementLine(pin), `textbox(name: "PIN", id: "pin")`},
		{"link", elementLine(&driver.Element{Role: "link", Name: "Wiki", Href: "/wiki", Visible: true}), `link(name: "Wiki", href: "/wiki")`},
		{"button with other text", elementLine(&driver.Element{Role: "button", Name: "Go", Text: "Go now"}), `button(name: "Go", text: "Go now")`},
		{"type", actionLine(driver.Action{Op: action.Type, Target: pin, Text: "4711", Secret: true}), `type textbox(name: "PIN", id: "pin")`},
		{"open", actionLine(driver.Action{Op: action.Open, Text: "http://x/"}), "open http://x/"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
	tr := Trajectory{Visits: []Visit{{URL: "http://x/", Title: "X", Lines: screenLines(&driver.Tree{Elements: []*driver.Element{pin}})},
		{Action: actionLine(driver.Action{Op: action.Type, Target: pin, Text: "4711"}), URL: "http://x/", Title: "X", Lines: screenLines(&driver.Tree{Elements: []*driver.Element{pin}})}}}
	s := tr.String()
	if strings.Contains(s, "4711") || !strings.Contains(s, "Screen 2: the same as screen 1") {
		t.Errorf("trajectory:\n%s", s)
	}
}
